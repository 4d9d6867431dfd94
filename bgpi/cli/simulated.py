"""The simulated board: ``bgpi demo`` (players through simulated hands), ``bgpi sim`` (a
person in the browser), each also against another board over MQTT, and ``bgpi club``."""

from __future__ import annotations

import argparse
import dataclasses
import functools
import secrets
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from bgpi.base.i18n import N_, _
from bgpi.cli.arguments import (
    Commands,
    add_command,
    bounded,
    chosen_match,
    journal_path,
    level,
    match_options,
    seat_options,
    share,
)
from bgpi.cli.errors import OK, CommandError, UsageError
from bgpi.service.config import Config

if TYPE_CHECKING:
    from bgpi.engine import Engine
    from bgpi.journal.records import MatchStarted, Record
    from bgpi.sim.demo import Side
    from bgpi.sim.simtable import SimTable


def add_commands(commands: Commands, common: argparse.ArgumentParser) -> None:
    demo = add_command(
        commands, common, "demo", _demo, "two players play a match on the simulated board"
    )
    demo.add_argument("--seed", type=int, help="make the match reproducible")
    seat_options(demo, "demo (the built-in player, the default), gnubg or gnubg:LEVEL", "demo")
    match_options(demo)
    demo.add_argument(
        "--games", type=bounded(1, None, N_("a number of games")), help="stop after this many games"
    )
    demo.add_argument(
        "--slips",
        type=share,
        default=0.0,
        metavar="RATE",
        help="the built-in player makes an illegal play in this share of its plays (0 to 1; "
        "seeded), for the opponent to accept or have corrected",
    )
    demo.add_argument(
        "--takebacks",
        type=share,
        default=0.0,
        metavar="RATE",
        help="the built-in player asks to take back this share of its plays (0 to 1; seeded), "
        "before the other rolls; the other agrees unless the play hit it",
    )
    _remote_seat_options(demo)
    _club_options(commands, common)
    sim = add_command(commands, common, "sim", _sim, "play on the simulated board in the browser")
    _sim_options(sim)


def _demo_match(
    config: Config, args: argparse.Namespace, seed: int, sides: tuple[Side, Side]
) -> SimTable:
    """The demo's match played (or resumed from the state directory's journal)."""
    from bgpi.journal.store import Journal  # noqa: PLC0415
    from bgpi.service.app import replays, table_config  # noqa: PLC0415 (what it needs)
    from bgpi.service.resume import unfinished  # noqa: PLC0415
    from bgpi.sim.demo import demo_table, play_on  # noqa: PLC0415

    match = chosen_match(config, args)
    games = args.games if args.games is not None else (3 if not match.length else None)
    wait = config.seats.takeback_wait_s  # the computer waits at the demo as at the board
    if args.state_dir is None and not config.state.dir:
        sim, played = demo_table(match, seed=seed, sides=sides, takeback_wait=wait)
        return play_on(sim, played, seed=seed, games=games)
    path = journal_path(config, args)
    path.parent.mkdir(parents=True, exist_ok=True)
    with Journal.open(path, check=replays(config)) as journal:
        start = unfinished(table_config(config), journal) or match
        sim, played = demo_table(start, seed=seed, journal=journal, sides=sides, takeback_wait=wait)
        return play_on(sim, played, seed=seed, games=games)


def _demo(config: Config, args: argparse.Namespace) -> int:
    from bgpi.engine import EngineError  # noqa: PLC0415
    from bgpi.sim.demo import open_sides  # noqa: PLC0415

    if args.remote is not None:
        return _remote_demo(config, args)
    config = _with_club(config, args)
    seed = args.seed if args.seed is not None else secrets.randbelow(10_000)
    say = functools.partial(print, "bgpi demo:", file=sys.stderr, flush=True)
    try:
        sides, engines = open_sides(
            (args.white, args.black),
            say=say,
            timeout=config.seats.timeout_s,
            slips=args.slips,
            takebacks=args.takebacks,
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    _hands_for_dice(chosen_match(config, args), sides, engines)
    print("bgpi demo, " + _("seed {seed}").format(seed=seed))
    try:
        sim = _demo_match(config, args, seed, sides)
    except EngineError as exc:
        raise CommandError(str(exc)) from None
    finally:
        for engine in engines:
            engine.close()
    sim.close()
    score = sim.match.score
    final = _("final score: {white} {white_score}, {black} {black_score}")
    (white, black) = sim.table.names
    print()
    print(final.format(white=white, white_score=score[0], black=black, black_score=score[1]))
    if args.club:
        _publish(config, args, sim.driver.log)
    return OK


def _hands_for_dice(match: MatchStarted, sides: tuple[Side, Side], engines: list[Engine]) -> None:
    """Refuse dice thrown by hand where no hands would throw them: both sides engines."""
    from bgpi.present.phrases import NOBODY_DICE  # noqa: PLC0415
    from bgpi.sim.demo import PipPlayer  # noqa: PLC0415

    if match.dice.physical and not any(isinstance(side, PipPlayer) for side in sides):
        for engine in engines:
            engine.close()
        raise UsageError(_(NOBODY_DICE))


def _publish(config: Config, args: argparse.Namespace, records: Sequence[Record]) -> None:
    """``bgpi demo --club NAME``: the demo's result to the club, on the config's broker."""
    from bgpi.remote.commands import board_name, broker_of, journaled_header, publish  # noqa: PLC0415

    state_dir = None
    if args.state_dir is not None or config.state.dir:
        state_dir = journal_path(config, args).parent
    header = journaled_header(state_dir, board_name())
    publish(broker_of(config, None), args.club, records, header)


def _remote_demo(config: Config, args: argparse.Namespace) -> int:
    from bgpi.remote.commands import remote_demo, remote_game  # noqa: PLC0415

    try:
        game = remote_game(config, args)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return remote_demo(game, chosen_match(config, args), args)


def _club_results(config: Config, args: argparse.Namespace) -> int:
    from bgpi.remote.commands import club_of, club_results  # noqa: PLC0415

    folder = None if args.save is None else Path(args.save)
    if folder is not None and not folder.is_dir():  # said before the broker is asked
        raise UsageError(
            _("no folder {folder}: --save writes into one that exists").format(folder=folder)
        )
    try:
        broker, club = club_of(config, args)
    except ValueError as exc:  # no club, or a broker that is no URL: a usage error
        raise UsageError(str(exc)) from None
    return club_results(broker, club, folder)


def _remote_seat_options(parser: argparse.ArgumentParser) -> None:
    """``--remote``: play one seat against another board over an MQTT broker."""
    parser.add_argument("--remote", metavar="URL", help="play one seat against another board")
    parser.add_argument("--match", metavar="CODE", help="with --remote: the pairing's code")
    parser.add_argument("--side", choices=("white", "black"), help="with --remote: my seat")
    parser.add_argument(
        "--club",
        help="publish the result to this club on the broker (--remote's, else the config's)",
    )
    parser.add_argument(
        "--patience",
        type=bounded(1, None, N_("a number of seconds")),
        help="with --remote: claim the match by forfeit after this long without word while"
        " the other board owes it (default: [remote] patience, 300 s)",
    )


def _club_options(commands: Commands, common: argparse.ArgumentParser) -> None:
    """``club results``: the results a club's boards published on an MQTT broker."""
    club = commands.add_parser("club", help="a club's results on an MQTT broker")
    actions = club.add_subparsers(dest="action", required=True, metavar="ACTION")
    text = "list the results the club's boards published"
    results = actions.add_parser("results", parents=[common], help=text, description=text)
    results.add_argument("--broker", metavar="URL", help="the broker (default: the config's)")
    results.add_argument("--club", help="the club's name (default: the config's)")
    results.add_argument(
        "--save", metavar="DIR", help="also write each match's .mat into this folder"
    )
    results.set_defaults(run=_club_results)


def _remote_sim(config: Config, args: argparse.Namespace) -> int:
    from bgpi.remote.browser import run_remote_sim  # noqa: PLC0415
    from bgpi.remote.commands import remote_game  # noqa: PLC0415

    try:
        game = remote_game(config, args)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    state_dir = config.state_dir(args.state_dir)
    match = chosen_match(config, args)
    config = _with_club(config, args)
    return run_remote_sim(config, game, match, host=args.host, port=args.port, state_dir=state_dir)


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
    config = with_hints(config, args)
    config = _with_club(config, args)
    # Like `bgpi run`, the simulator keeps its match in the state directory, so `bgpi status`
    # and `bgpi export` find it and Ctrl-C loses nothing.
    return run_sim(
        config,
        host=args.host,
        port=args.port,
        seed=seed,
        state_dir=config.state_dir(args.state_dir),
        match=chosen_match(config, args),
    )


def _with_club(config: Config, args: argparse.Namespace) -> Config:
    """The config with ``--club``'s club (none without it: a match played here is published
    only when asked), its broker (``--remote``'s, else the config's) and club checked before
    anything is played."""
    from bgpi.remote.club import club_topic  # noqa: PLC0415
    from bgpi.remote.commands import broker_of  # noqa: PLC0415

    if args.club:
        try:
            broker_of(config, args.remote)
            club_topic(args.club)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    remote = dataclasses.replace(config.remote, club=args.club or "")
    return dataclasses.replace(config, remote=remote)


def _sim_options(sim: argparse.ArgumentParser) -> None:
    sim.add_argument(
        "--port",
        type=bounded(0, 65535, N_("a port")),
        default=8421,
        help="the page's port (default: 8421; 0: any free port)",
    )
    sim.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to bind (default: 127.0.0.1; any other needs the printed token)",
    )
    sim.add_argument("--seed", type=int, help="make the dice reproducible")
    match_options(sim)
    seat_options(sim, "person, gnubg, gnubg:LEVEL or demo (default: the config's [seats])")
    _hint_options(sim)
    _remote_seat_options(sim)


def _hint_options(parser: argparse.ArgumentParser) -> None:
    """``--hints SIDE``: who may ask gnubg for hints (a held button), beside the config's."""
    parser.add_argument(
        "--hints",
        choices=("white", "black", "both"),
        help="the side(s) whose player may ask gnubg for hints (default: the config's [seats])",
    )
    parser.add_argument("--hint-level", type=level, help="gnubg's level for the hints")


def with_hints(config: Config, args: argparse.Namespace) -> Config:
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
