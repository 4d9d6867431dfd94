"""The ``bgpi`` command line.

Exit status: 0 done, 1 failed, 2 a usage or configuration error. Log lines go to stderr,
quiet unless ``-v``.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import logging
import os
import secrets
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bgpi import __version__
from bgpi.config import Config, ConfigError, load, show
from bgpi.hal.errors import one_line
from bgpi.journalfile import JournalError

if TYPE_CHECKING:
    from bgpi.demo import Side
    from bgpi.engine.seats import Seat
    from bgpi.records import MatchStarted
    from bgpi.simtable import SimTable

log = logging.getLogger("bgpi")

OK, FAILED, USAGE = 0, 1, 2


class CommandError(Exception):
    """A command that cannot do its work: the message says why; exit status 1."""


class UsageError(ValueError):
    """An argument that cannot be meant (bad dice, a bad Position ID): exit status 2."""


def _bounded(low: int, high: int | None, what: str) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high`` (no bound when None)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low or (high is not None and value > high):
            upper = f" to {high}" if high is not None else " or more"
            raise argparse.ArgumentTypeError(f"{what} is {low}{upper}, got {value}")
        return value

    return parse


def _journal_path(config: Config, args: argparse.Namespace) -> Path:
    from bgpi.app import JOURNAL_NAME  # noqa: PLC0415 (each command loads what it needs)

    return config.state_dir(args.state_dir) / JOURNAL_NAME


def _run(config: Config, args: argparse.Namespace) -> int:
    from bgpi.app import App  # noqa: PLC0415

    if config.remote.broker and not config.remote.match:  # --match is the demo's, not run's
        raise UsageError("[remote] broker is set, but not the match code: set [remote] match")
    app = App(config, config.state_dir(args.state_dir))
    if args.self_play:
        from bgpi.selfplay import Hands, check_simulated  # noqa: PLC0415

        try:
            check_simulated(config)
        except ValueError as exc:
            raise UsageError(exc) from None

        seed = args.seed if args.seed is not None else secrets.randbelow(10_000)
        print(f"bgpi run: self-play, seed {seed}", flush=True)
        hands = Hands(seed, matches=args.matches, say=_say)
        app.hands, app.hardware = hands, hands.hardware
    elif args.seed is not None or args.matches is not None:
        raise UsageError("--seed and --matches go with --self-play")
    app.handle_signals()
    app.on_refusal = _say_refused
    if not config.web.enabled:
        return app.run()
    from bgpi.web.companion import Companion  # noqa: PLC0415

    companion = Companion(config, host=config.web.host, port=config.web.port)
    for url in companion.start().urls:
        print(f"bgpi run: the companion page is at {url}", flush=True)
    app.observer = companion
    companion.remote = app.remote_status
    try:
        return app.run()
    finally:
        companion.close()


def _say(text: str) -> None:
    print(text, flush=True)  # at once, even into a pipe


def _say_refused(error: Exception) -> None:
    # At once, though the command goes on showing the fault on the LEDs until stopped.
    print(f"bgpi run: {error}", file=sys.stderr, flush=True)


def _chosen_match(config: Config, args: argparse.Namespace) -> MatchStarted:
    """The config's match, with the command line's ``--length`` or ``--money`` over it; a
    money session drops the options that exist only in money play's absence and vice versa."""
    from bgpi.records import MatchStarted  # noqa: PLC0415

    base = config.match_record()
    length = 0 if args.money else (args.length if args.length is not None else base.length)
    return MatchStarted(
        length,
        base.crawford,
        base.jacoby if not length else False,
        base.beaver if not length else False,
        base.automatic_doubles if not length else 0,
        base.cube_limit,
        base.names,
        base.seats,
    )


def _seat(text: str) -> Seat:
    """An argparse type: a seat (``demo``, ``gnubg``, ``gnubg:LEVEL``)."""
    from bgpi.engine.seats import Seat  # noqa: PLC0415

    try:
        return Seat.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _demo_match(
    config: Config, args: argparse.Namespace, seed: int, sides: tuple[Side, Side]
) -> SimTable:
    """The demo's match played (or resumed from the state directory's journal)."""
    from bgpi.app import resume_records  # noqa: PLC0415
    from bgpi.demo import play_match  # noqa: PLC0415
    from bgpi.store import Journal  # noqa: PLC0415

    match = _chosen_match(config, args)
    games = args.games if args.games is not None else (3 if not match.length else None)
    if args.state_dir is None and not config.state.dir:
        return play_match(match, seed=seed, games=games, sides=sides)
    path = _journal_path(config, args)
    path.parent.mkdir(parents=True, exist_ok=True)
    with Journal.open(path) as journal:
        records = journal.records() if journal.matches() else []
        if records and not journal.matches()[-1].finished:
            _, records = resume_records(config, journal)
        ongoing = records and not journal.matches()[-1].finished
        start = records if ongoing else match
        return play_match(start, seed=seed, games=games, journal=journal, sides=sides)


def _demo(config: Config, args: argparse.Namespace) -> int:
    from bgpi.demo import open_sides  # noqa: PLC0415
    from bgpi.engine import EngineError  # noqa: PLC0415

    if args.remote is not None:
        return _remote_demo(config, args)
    seed = args.seed if args.seed is not None else secrets.randbelow(10_000)
    say = functools.partial(print, "bgpi demo:", file=sys.stderr, flush=True)
    try:
        sides, engines = open_sides((args.white, args.black), say=say)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    print(f"bgpi demo, seed {seed}")
    try:
        sim = _demo_match(config, args, seed, sides)
    except EngineError as exc:
        raise CommandError(str(exc)) from None
    finally:
        for engine in engines:
            engine.close()
    score = sim.match.score
    print(f"\nfinal score: {sim.table.names[0]} {score[0]}, {sim.table.names[1]} {score[1]}")
    return OK


def _remote_demo(config: Config, args: argparse.Namespace) -> int:
    from bgpi.remote.commands import remote_demo, remote_game  # noqa: PLC0415

    try:
        game = remote_game(config, args)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return remote_demo(game, _chosen_match(config, args), args)


def _club_results(config: Config, args: argparse.Namespace) -> int:
    from bgpi.remote.commands import club_results  # noqa: PLC0415

    return club_results(config, args)


def _remote_seat_options(parser: argparse.ArgumentParser) -> None:
    """``--remote``: play one seat against another board over an MQTT broker."""
    parser.add_argument("--remote", metavar="URL", help="play one seat against another board")
    parser.add_argument("--match", metavar="CODE", help="with --remote: the pairing's code")
    parser.add_argument("--side", choices=("white", "black"), help="with --remote: my seat")
    parser.add_argument("--club", help="publish the result to this club on the broker")
    parser.add_argument(
        "--patience",
        type=_bounded(1, None, "a number of seconds"),
        default=120,
        help="with --remote: give up after this long without word (default: 120 s)",
    )


def _remote_sim(config: Config, args: argparse.Namespace) -> int:
    from bgpi.remote.browser import run_remote_sim  # noqa: PLC0415
    from bgpi.remote.commands import remote_game  # noqa: PLC0415

    try:
        game = remote_game(config, args)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    state_dir = config.state_dir(args.state_dir)
    match = _chosen_match(config, args)
    return run_remote_sim(config, game, match, host=args.host, port=args.port, state_dir=state_dir)


def _remote_options(demo: argparse.ArgumentParser, commands: Any, common: Any) -> None:
    """``demo --remote`` and ``club results``: play and report over an MQTT broker."""
    _remote_seat_options(demo)
    club = commands.add_parser("club", help="a club's results on an MQTT broker")
    actions = club.add_subparsers(dest="action", required=True, metavar="ACTION")
    text = "list the results the club's boards published"
    results = actions.add_parser("results", parents=[common], help=text, description=text)
    results.add_argument("--broker", metavar="URL", help="the broker (default: the config's)")
    results.add_argument("--club", help="the club's name (default: the config's)")
    results.set_defaults(run=_club_results)


def _sim(config: Config, args: argparse.Namespace) -> int:
    from bgpi.web.run import run_sim  # noqa: PLC0415

    if args.remote is not None:
        return _remote_sim(config, args)

    seed = args.seed if args.seed is not None else secrets.randbelow(10_000)
    white = str(args.white) if args.white else config.seats.white
    black = str(args.black) if args.black else config.seats.black
    config = dataclasses.replace(
        config, seats=dataclasses.replace(config.seats, white=white, black=black)
    )
    config = _with_hints(config, args)
    # Like `bgpi run`, the simulator keeps its match in the state directory, so `bgpi status`
    # and `bgpi export` find it and Ctrl-C loses nothing.
    return run_sim(
        config,
        host=args.host,
        port=args.port,
        seed=seed,
        state_dir=config.state_dir(args.state_dir),
        match=_chosen_match(config, args),
    )


def _diagnose(config: Config, args: argparse.Namespace) -> int:
    from bgpi.diagnose import diagnose  # noqa: PLC0415

    return diagnose(config, args.only, seconds=args.seconds, step=args.step)


def _calibrate(config: Config, args: argparse.Namespace) -> int:
    from bgpi.calibrate.command import calibrate  # noqa: PLC0415

    return calibrate(config, args)


def _export(config: Config, args: argparse.Namespace) -> int:
    from bgpi.export import export_mat  # noqa: PLC0415
    from bgpi.store import Journal, corrupt  # noqa: PLC0415

    path = _journal_path(config, args)
    with Journal.open(path, read_only=True) as journal:
        records = journal.records(args.match)
    try:
        text = export_mat(records)
    except ValueError as exc:  # a record the rules refuse: the journal is damaged
        raise corrupt(f"{path}: {exc}") from None
    if args.output in (None, "-"):
        sys.stdout.write(text)
    else:
        Path(args.output).write_text(text, encoding="utf-8")
        log.info("wrote %s", args.output)
    return OK


def _analyse(config: Config, args: argparse.Namespace) -> int:
    from bgpi.analysis import AnalysisStore, analysed, report  # noqa: PLC0415
    from bgpi.engine import EngineError, GnubgEngine, Level  # noqa: PLC0415
    from bgpi.store import Journal  # noqa: PLC0415

    path = _journal_path(config, args)
    if not path.exists():
        raise CommandError(f"no journal at {path}: nothing has been played there")
    with Journal.open(path, read_only=True) as journal:  # bgpi run may be writing it
        records = journal.records(args.match)
        matches = journal.matches()
    if not matches:
        raise CommandError(f"the journal {path} holds no match yet")
    match_id = args.match if args.match is not None else matches[-1].id
    level = Level.parse(args.level)
    engine = GnubgEngine(level, analysis_level=level, timeout=args.timeout)
    try:
        analysis, fresh = analysed(AnalysisStore(path), match_id, records, engine)
    except EngineError as exc:
        raise CommandError(str(exc)) from None
    finally:
        engine.close()
    print(f"match {match_id}{'' if fresh else ' (stored analysis)'}")
    for line in report(analysis):
        print(line)
    return OK


def _hint(config: Config, args: argparse.Namespace) -> int:
    from bgpi.app import table_config  # noqa: PLC0415
    from bgpi.engine import EngineError, GnubgEngine, Level  # noqa: PLC0415
    from bgpi.engine.hints import hint  # noqa: PLC0415
    from bgpi.store import Journal  # noqa: PLC0415
    from bgpi.table import Table  # noqa: PLC0415

    path = _journal_path(config, args)
    if not path.exists():
        raise CommandError(f"no journal at {path}: nothing has been played there")
    with Journal.open(path) as journal:
        table = Table.replay(table_config(config), journal.records())
    engine = GnubgEngine(Level.parse(args.level), timeout=config.seats.timeout_s)
    try:
        given = hint(table, engine)
    except EngineError as exc:
        raise CommandError(str(exc)) from None
    finally:
        engine.close()
    if given is None:
        print(f"no hint now: {table.phase.value}")
    else:
        print(f"{table.names[given.player]}: {given.words}")
    return OK


def _level(text: str) -> str:
    """An argparse type: one of gnubg's level names."""
    from bgpi.engine import Level  # noqa: PLC0415

    try:
        return Level.parse(text).value
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _status(config: Config, args: argparse.Namespace) -> int:
    from bgpi.app import table_config  # noqa: PLC0415
    from bgpi.resume import resume  # noqa: PLC0415
    from bgpi.store import Journal, corrupt  # noqa: PLC0415

    path = _journal_path(config, args)
    with Journal.open(path, read_only=True) as journal:
        records = journal.records()
    if not records:
        raise CommandError(f"{path} holds no match yet")
    try:  # as a restart would resume it, but read-only: what it owes is not journaled
        table, _ = resume(table_config(config), records)
    except ValueError as exc:
        raise corrupt(f"{path}: {exc}") from None
    view = table.mover_view if table.match.turn is not None else table.position
    print(f"{table.match}")
    print(f"phase: {table.phase.value}")
    print(f"Position ID: {view.id()}")
    print(f"Match ID: {table.match.id()}")
    print(view)
    return OK


def _config_check(config: Config, args: argparse.Namespace) -> int:
    print(f"{config.source}: ok")
    return OK


def _config_show(config: Config, args: argparse.Namespace) -> int:
    sys.stdout.write(show(config))
    return OK


def _plays(config: Config, args: argparse.Namespace) -> int:
    from bgpi.rules import Position, legal_plays, parse_roll  # noqa: PLC0415

    try:
        pos = Position.from_id(args.position) if args.position else Position.initial()
        roll = parse_roll(args.dice)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    print(pos)
    plays = legal_plays(pos, roll)
    print(f"{len(plays)} legal plays of {roll[0]}-{roll[1]}:")
    for play in plays:
        print(f"  {play}")
    return OK


def _flash_scanner(config: Config, args: argparse.Namespace) -> int:
    from bgpi.flash import FlashError, FlashUsageError, flash  # noqa: PLC0415

    port = args.port or config.sensors.port
    if port.startswith("usb:"):
        print(
            f"bgpi flash-scanner: give the Pico's device with --port, not {port}", file=sys.stderr
        )
        return USAGE
    try:
        flash(port, folder=args.firmware, say=lambda line: print(line, flush=True))
    except FlashUsageError as exc:
        print(f"bgpi flash-scanner: {exc}", file=sys.stderr)
        return USAGE
    except FlashError as exc:
        print(f"bgpi flash-scanner: {exc}", file=sys.stderr)
        return FAILED
    print("done")
    return OK


Command = Callable[[Config, argparse.Namespace], int]


def _match_options(parser: argparse.ArgumentParser) -> None:
    kind = parser.add_mutually_exclusive_group()
    kind.add_argument(
        "--length", type=_bounded(1, 99, "a match length"), help="match length (default: config)"
    )
    kind.add_argument("--money", action="store_true", help="a money session instead")


def _seat_options(
    parser: argparse.ArgumentParser, choices: str, default: str | None = None
) -> None:
    """``--white SEAT`` and ``--black SEAT``; a level is one of gnubg's, beginner to
    grandmaster."""
    for side in ("white", "black"):
        parser.add_argument(
            f"--{side}",
            type=_seat,
            default=default,
            metavar="SEAT",
            help=f"who plays {side.title()}: {choices}",
        )


def _run_options(service: argparse.ArgumentParser) -> None:
    service.add_argument(
        "--self-play",
        action="store_true",
        help="on the simulator, simulated hands play both seats (a soak test)",
    )
    service.add_argument(
        "--seed", type=int, help="self-play: make the dice and choices reproducible"
    )
    service.add_argument(
        "--matches", type=int, help="self-play: stop once the journal holds this many finished"
    )


def _sim_options(sim: argparse.ArgumentParser) -> None:
    sim.add_argument(
        "--port",
        type=_bounded(0, 65535, "a port"),
        default=8421,
        help="the page's port (default: 8421; 0: any free port)",
    )
    sim.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to bind (default: 127.0.0.1; any other needs the printed token)",
    )
    sim.add_argument("--seed", type=int, help="make the dice reproducible")
    _match_options(sim)
    _seat_options(sim, "person, gnubg, gnubg:LEVEL or demo (default: the config's [seats])")
    _hint_options(sim)
    _remote_seat_options(sim)


def _hint_options(parser: argparse.ArgumentParser) -> None:
    """``--hints SIDE``: who may ask gnubg for hints (a held button), beside the config's."""
    parser.add_argument(
        "--hints",
        choices=("white", "black", "both"),
        help="the side(s) whose player may ask gnubg for hints (default: the config's [seats])",
    )
    parser.add_argument("--hint-level", type=_level, help="gnubg's level for the hints")


def _with_hints(config: Config, args: argparse.Namespace) -> Config:
    """The config with the hints of ``--hints`` and ``--hint-level`` added."""
    seats = config.seats
    if args.hints is not None:
        seats = dataclasses.replace(
            seats,
            white_hints=seats.white_hints or args.hints in ("white", "both"),
            black_hints=seats.black_hints or args.hints in ("black", "both"),
        )
    if args.hint_level is not None:
        seats = dataclasses.replace(seats, hint_level=args.hint_level)
    return dataclasses.replace(config, seats=seats)


def _diagnose_options(check: argparse.ArgumentParser) -> None:
    only = check.add_mutually_exclusive_group()
    for step in ("leds", "switches", "buttons"):
        only.add_argument(
            f"--{step}-only", dest="only", action="store_const", const=step, help=f"only the {step}"
        )
    check.add_argument(
        "--seconds",
        type=float,
        default=60.0,
        help="how long to watch the switches, and to wait for each button (default: 60)",
    )
    check.add_argument(
        "--step", type=float, default=0.2, help="how long each pixel stays lit (default: 0.2)"
    )


def _analyse_options(analyse: argparse.ArgumentParser) -> None:
    analyse.add_argument(
        "--match", type=_bounded(1, None, "a match number"), help="the match (default: the latest)"
    )
    analyse.add_argument(
        "--level",
        type=_level,
        default="expert",
        help="gnubg's level for the analysis (default: expert, 0-ply; worldclass is 2-ply)",
    )
    analyse.add_argument(
        "--timeout",
        type=float,
        default=600.0,
        help="the longest gnubg may take, in seconds (default: 600)",
    )


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--config", metavar="FILE", help="the TOML configuration file")
    common.add_argument("--state-dir", metavar="DIR", help="where the journal lives")
    common.add_argument("-v", "--verbose", action="count", default=0, help="more log lines")

    parser = argparse.ArgumentParser(
        prog="bgpi", description="A wooden backgammon board that enforces the rules."
    )
    parser.add_argument("--version", action="version", version=f"bgpi {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, run: Command, help_text: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, parents=[common], help=help_text, description=help_text)
        sub.set_defaults(run=run)
        return sub

    _run_options(command("run", _run, "run the table on the configured hardware (the service)"))
    demo = command("demo", _demo, "two players play a match on the simulated board")
    demo.add_argument("--seed", type=int, help="make the match reproducible")
    _seat_options(demo, "demo (the built-in player, the default), gnubg or gnubg:LEVEL", "demo")
    _match_options(demo)
    demo.add_argument(
        "--games", type=_bounded(1, None, "a number of games"), help="stop after this many games"
    )
    _remote_options(demo, commands, common)
    _sim_options(command("sim", _sim, "play on the simulated board in the browser"))
    check = command("diagnose", _diagnose, "test the LEDs, reed switches and buttons at the board")
    _diagnose_options(check)
    from bgpi.calibrate.command import HELP, add_arguments  # noqa: PLC0415

    calibrate = command(
        "calibrate", _calibrate, "learn the wiring of the reed switches at the board"
    )
    calibrate.description = HELP
    calibrate.formatter_class = argparse.RawDescriptionHelpFormatter
    add_arguments(calibrate)
    analyse = command("analyse", _analyse, "rate both players' plays and cube decisions (gnubg)")
    _analyse_options(analyse)
    hint_command = command("hint", _hint, "what gnubg would do now: the play, double or take")
    hint_command.add_argument(
        "--level", type=_level, default="expert", help="gnubg's level (default: expert)"
    )
    export = command("export", _export, "write a match as a .mat file for GNU Backgammon")
    export.add_argument(
        "--match", type=_bounded(1, None, "a match number"), help="the match (default: the latest)"
    )
    export.add_argument("-o", "--output", metavar="FILE", help="the file (default: stdout)")
    command("status", _status, "print the current position, Position ID and Match ID")
    config = commands.add_parser("config", help="check or show the configuration")
    config_commands = config.add_subparsers(dest="action", required=True, metavar="ACTION")
    for name, run, text in (
        ("check", _config_check, "check a configuration file and say what is wrong"),
        ("show", _config_show, "print the effective configuration"),
    ):
        sub = config_commands.add_parser(name, parents=[common], help=text, description=text)
        sub.add_argument("file", nargs="?", help="the configuration file (same as --config)")
        sub.set_defaults(run=run)
    flasher = command(
        "flash-scanner",
        _flash_scanner,
        "put the scanner firmware on the connected Pico (mpremote), stopping bgpi.service "
        "while it holds the port",
    )
    flasher.add_argument("--port", help="the Pico's device (default: the config's sensors.port)")
    flasher.add_argument(
        "--firmware", type=Path, metavar="DIR", help="the firmware folder (default: firmware/)"
    )
    plays = command("plays", _plays, "list the legal plays of a roll")
    plays.add_argument("dice", help="the roll, e.g. 31 or 3-1")
    plays.add_argument("--position", help="gnubg Position ID (default: the starting position)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    level = (logging.WARNING, logging.INFO, logging.DEBUG)[min(args.verbose, 2)]
    logging.basicConfig(level=level, format="bgpi: %(levelname)s: %(message)s")
    try:
        config = load(getattr(args, "file", None) or args.config)
    except ConfigError as exc:
        print(f"bgpi: {exc}", file=sys.stderr)
        return USAGE
    try:
        code: int = args.run(config, args)
    except BrokenPipeError:
        return _reader_gone()
    except UsageError as exc:
        print(f"bgpi {args.command}: {exc}", file=sys.stderr)
        return USAGE
    except (CommandError, JournalError, ValueError, LookupError, RuntimeError, OSError) as exc:
        print(f"bgpi {args.command}: {exc}", file=sys.stderr)
        return FAILED
    except Exception as exc:
        # Whatever escapes the commands' own errors is a bug; the user still gets one line,
        # and -vv logs the traceback for the report.
        log.debug("traceback", exc_info=True)
        print(f"bgpi {args.command}: internal error: {one_line(exc)}", file=sys.stderr)
        return FAILED
    return code


def _reader_gone() -> int:
    """The reader of our output went away (``bgpi plays 31 | head``): not an error worth a
    message. stdout is pointed at /dev/null so the interpreter's own flush at exit is quiet."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return FAILED


if __name__ == "__main__":
    sys.exit(main())
