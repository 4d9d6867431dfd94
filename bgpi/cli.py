"""The ``bgpi`` command line.

Exit status: 0 done, 1 failed, 2 a usage or configuration error. Log lines go to stderr,
quiet unless ``-v``.
"""

from __future__ import annotations

import argparse
import logging
import secrets
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from bgpi import __version__
from bgpi.config import Config, ConfigError, load, show
from bgpi.journalfile import JournalError

log = logging.getLogger("bgpi")

OK, FAILED, USAGE = 0, 1, 2


class CommandError(Exception):
    """A command that cannot do its work: the message says why; exit status 1."""


class UsageError(Exception):
    """Options that do not go together: the message says why; exit status 2."""


def _journal_path(config: Config, args: argparse.Namespace) -> Path:
    from bgpi.app import JOURNAL_NAME  # noqa: PLC0415 (each command loads what it needs)

    return config.state_dir(args.state_dir) / JOURNAL_NAME


def _run(config: Config, args: argparse.Namespace) -> int:
    from bgpi.app import App  # noqa: PLC0415

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
    print(f"bgpi run: the companion page is at {companion.start().url}", flush=True)
    app.observer = companion
    try:
        return app.run()
    finally:
        companion.close()


def _say(text: str) -> None:
    print(text, flush=True)  # at once, even into a pipe


def _say_refused(error: Exception) -> None:
    # At once, though the command goes on showing the fault on the LEDs until stopped.
    print(f"bgpi run: {error}", file=sys.stderr, flush=True)


def _demo(config: Config, args: argparse.Namespace) -> int:
    from bgpi.app import resume_records  # noqa: PLC0415
    from bgpi.demo import play_match  # noqa: PLC0415
    from bgpi.records import MatchStarted  # noqa: PLC0415
    from bgpi.store import Journal  # noqa: PLC0415

    seed = args.seed if args.seed is not None else secrets.randbelow(10_000)
    base = config.match_record()
    length = 0 if args.money else (args.length if args.length is not None else base.length)
    match = MatchStarted(
        length,
        base.crawford,
        base.jacoby if not length else False,
        base.beaver if not length else False,
        base.automatic_doubles if not length else 0,
        base.cube_limit,
        base.names,
    )
    games = args.games if args.games is not None else (3 if not length else None)
    print(f"bgpi demo, seed {seed}")
    if args.state_dir is None and not config.state.dir:
        sim = play_match(match, seed=seed, games=games)
    else:
        path = _journal_path(config, args)
        path.parent.mkdir(parents=True, exist_ok=True)
        with Journal.open(path) as journal:
            records = journal.records() if journal.matches() else []
            if records and not journal.matches()[-1].finished:
                _, records = resume_records(config, journal)
            ongoing = records and not journal.matches()[-1].finished
            start = records if ongoing else match
            sim = play_match(start, seed=seed, games=games, journal=journal)
    score = sim.match.score
    print(f"\nfinal score: {sim.table.names[0]} {score[0]}, {sim.table.names[1]} {score[1]}")
    return OK


def _sim(config: Config, args: argparse.Namespace) -> int:
    from bgpi.web.run import run_sim  # noqa: PLC0415

    seed = args.seed if args.seed is not None else secrets.randbelow(10_000)
    keep = args.state_dir is not None or bool(config.state.dir)
    state_dir = config.state_dir(args.state_dir) if keep else None
    return run_sim(config, host=args.host, port=args.port, seed=seed, state_dir=state_dir)


def _diagnose(config: Config, args: argparse.Namespace) -> int:
    from bgpi.diagnose import diagnose  # noqa: PLC0415

    return diagnose(config, args.only, seconds=args.seconds, step=args.step)


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

    pos = Position.from_id(args.position) if args.position else Position.initial()
    roll = parse_roll(args.dice)
    print(pos)
    plays = legal_plays(pos, roll)
    print(f"{len(plays)} legal plays of {roll[0]}-{roll[1]}:")
    for play in plays:
        print(f"  {play}")
    return OK


Command = Callable[[Config, argparse.Namespace], int]


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

    service = command("run", _run, "run the table on the configured hardware (the service)")
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
    demo = command("demo", _demo, "two built-in players play a match on the simulated board")
    demo.add_argument("--seed", type=int, help="make the match reproducible")
    demo.add_argument("--length", type=int, help="match length (default: the config's)")
    demo.add_argument("--money", action="store_true", help="a money session instead")
    demo.add_argument("--games", type=int, help="stop after this many games")
    sim = command("sim", _sim, "play on the simulated board in the browser")
    sim.add_argument("--port", type=int, default=8421, help="the page's port (default: 8421)")
    sim.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to bind (default: 127.0.0.1; any other needs the printed token)",
    )
    sim.add_argument("--seed", type=int, help="make the dice reproducible")
    check = command("diagnose", _diagnose, "test the LEDs, reed switches and buttons at the board")
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
    export = command("export", _export, "write a match as a .mat file for GNU Backgammon")
    export.add_argument("--match", type=int, help="the match number (default: the latest)")
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
    except UsageError as exc:
        print(f"bgpi {args.command}: {exc}", file=sys.stderr)
        return USAGE
    except (CommandError, JournalError, ValueError, RuntimeError, OSError) as exc:
        print(f"bgpi {args.command}: {exc}", file=sys.stderr)
        return FAILED
    return code


if __name__ == "__main__":
    sys.exit(main())
