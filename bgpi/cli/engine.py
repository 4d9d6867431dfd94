"""GNU Backgammon's word on the journal's matches: ``bgpi analyse`` and ``bgpi hint``."""

from __future__ import annotations

import argparse

from bgpi.base.i18n import N_, _
from bgpi.cli.arguments import Commands, add_command, bounded, journal_path, level
from bgpi.cli.errors import OK, CommandError
from bgpi.cli.journal import replayed
from bgpi.present.phrases import PHASES, player
from bgpi.service.config import Config


def add_commands(commands: Commands, common: argparse.ArgumentParser) -> None:
    analyse = add_command(
        commands,
        common,
        "analyse",
        _analyse,
        "rate both players' plays and cube decisions (gnubg)",
    )
    analyse.add_argument(
        "--match",
        type=bounded(1, None, N_("a match number")),
        help="the match (default: the latest)",
    )
    analyse.add_argument(
        "--level",
        type=level,
        default="expert",
        help="gnubg's level for the analysis (default: expert, 0-ply; worldclass is 2-ply)",
    )
    analyse.add_argument(
        "--timeout",
        type=float,
        default=600.0,
        help="the longest gnubg's analysis may take, in seconds (default: 600)",
    )
    hint = add_command(
        commands, common, "hint", _hint, "what gnubg would do now: the play, double or take"
    )
    hint.add_argument(
        "--level", type=level, default="expert", help="gnubg's level (default: expert)"
    )


def _analyse(config: Config, args: argparse.Namespace) -> int:
    from bgpi.engine import EngineError, GnubgEngine, Level  # noqa: PLC0415
    from bgpi.engine.analysis import AnalysisStore, analysed, report  # noqa: PLC0415

    path = journal_path(config, args)
    if not path.exists():
        raise CommandError(
            _("no journal at {path}: nothing has been played there").format(path=path)
        )
    match = replayed(config, path, args.match)  # checked before the store may write to it
    if match is None:
        raise CommandError(_("the journal {path} holds no match yet").format(path=path))
    match_id, records = match.id, match.records
    chosen = Level.parse(args.level)
    engine = GnubgEngine(chosen, analysis_level=chosen, timeout=config.seats.timeout_s)
    engine.analysis_timeout = args.timeout  # started and ended as for a seat: only this is long
    try:
        analysis, fresh = analysed(AnalysisStore(path), match_id, records, engine)
    except EngineError as exc:
        raise CommandError(str(exc)) from None
    finally:
        engine.close()
    heading = _("match {id}") if fresh else _("match {id} (stored analysis)")
    print(heading.format(id=match_id))
    for line in report(analysis):
        print(line)
    return OK


def _hint(config: Config, args: argparse.Namespace) -> int:
    from bgpi.engine import EngineError, GnubgEngine, Level  # noqa: PLC0415
    from bgpi.engine.hints import hint  # noqa: PLC0415

    path = journal_path(config, args)
    if not path.exists():
        raise CommandError(
            _("no journal at {path}: nothing has been played there").format(path=path)
        )
    match = replayed(config, path)  # read-only: bgpi run may be writing it
    if match is None:
        raise CommandError(_("{path} holds no match yet").format(path=path))
    table = match.table
    engine = GnubgEngine(Level.parse(args.level), timeout=config.seats.timeout_s)
    try:
        given = hint(table, engine)
    except EngineError as exc:
        raise CommandError(str(exc)) from None
    finally:
        engine.close()
    if given is None:
        print(_("no hint now: {phase}").format(phase=_(PHASES[table.phase])))
    else:
        print(f"{player(table.names[given.player])}: {given.words}")
    return OK
