"""What the journal holds: ``bgpi export`` (a ``.mat`` for GNU Backgammon) and
``bgpi status``."""

from __future__ import annotations

import argparse
import logging
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from bgpi.base.i18n import N_, _
from bgpi.cli.arguments import Commands, add_command, bounded, journal_path
from bgpi.cli.errors import OK, CommandError
from bgpi.present.phrases import PHASES, players
from bgpi.service.config import Config

if TYPE_CHECKING:
    from bgpi.journal.records import Record
    from bgpi.table import Table

log = logging.getLogger("bgpi")


def add_commands(commands: Commands, common: argparse.ArgumentParser) -> None:
    export = add_command(
        commands, common, "export", _export, "write a match as a .mat file for GNU Backgammon"
    )
    export.add_argument(
        "--match",
        type=bounded(1, None, N_("a match number")),
        help="the match (default: the latest)",
    )
    export.add_argument("-o", "--output", metavar="FILE", help="the file (default: stdout)")
    export.add_argument(
        "--format",
        choices=("mat", "sgf"),
        default="mat",
        help="mat (default), or gnubg's own SGF, saved by gnubg from the .mat",
    )
    export.add_argument(
        "--times",
        action="store_true",
        help="comments at the top, for each line of each game: when each action was made and "
        "how long it took",
    )
    export.add_argument(
        "--site", help="the [Site] header line (default: the config's [players] site)"
    )
    add_command(
        commands, common, "status", _status, "print the current position, Position ID and Match ID"
    )


def _export(config: Config, args: argparse.Namespace) -> int:
    from bgpi.journal.export import MatHeader, export_mat  # noqa: PLC0415 (each loads its own)
    from bgpi.journal.store import Journal, corrupt  # noqa: PLC0415

    path = journal_path(config, args)
    match = replayed(config, path, args.match)
    if match is None:  # a fresh board: its first match is still being chosen
        raise CommandError(f"{path} holds no match yet")
    site = config.players.site if args.site is None else args.site
    with Journal.open(path, read_only=True) as journal:  # the header's date and the times
        header = MatHeader.journaled(journal, site, match.id)
        stamps = journal.stamps(match.id) if args.times else None
    try:
        text = export_mat(match.records, header, stamps)
    except ValueError as exc:  # a record the rules refuse: the journal is damaged
        raise corrupt(f"{path}: {exc}") from None
    if args.format == "sgf":
        from bgpi.engine.sgf import sgf_of  # noqa: PLC0415

        text = sgf_of(text)
    if args.output in (None, "-"):
        sys.stdout.write(text)
    else:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:  # no such folder, no permission, a full disk: said in words
            why = exc.strerror or type(exc).__name__
            raise CommandError(
                _("cannot write {file}: {why}").format(file=args.output, why=why)
            ) from None
        log.info("wrote %s", args.output)
    return OK


def _status(config: Config, args: argparse.Namespace) -> int:
    from bgpi.present.diagram import board_text, match_text  # noqa: PLC0415
    from bgpi.rules.xgid import xgid  # noqa: PLC0415

    path = journal_path(config, args)
    match = replayed(config, path)
    if match is None:
        raise CommandError(_("{path} holds no match yet").format(path=path))
    # The IDs are gnubg's (the position as the player on roll sees it); the rest is what
    # a player at the board reads: names, colours and the board's printed numbers.
    table = match.table
    view = table.mover_view if table.match.turn is not None else table.position
    for line in match_text(table.match, players(table.names)):
        print(line)
    print(_("phase: {phase}").format(phase=_(PHASES[table.phase])))
    print(f"Position ID: {view.id()}")
    print(f"Match ID: {table.match.id()}")
    print(xgid(table.position, table.match))  # White's side, as the board is printed
    if table.clock is not None:  # as the last step left it (a running move counts on)
        white, black = (f"{int(left) // 60}:{int(left) % 60:02d}" for left in table.clock.reserve)
        names = players(table.names)
        line = _("clock: {white} {white_time}, {black} {black_time}")
        print(line.format(white=names[0], white_time=white, black=names[1], black_time=black))
    print(board_text(table.position, players(table.names)))
    return OK


@dataclass(frozen=True, slots=True)
class Replayed:
    """A match of the journal: its id, its records and the table they replay to."""

    id: int
    records: list[Record]
    table: Table


def replayed(config: Config, path: Path, match_id: int | None = None) -> Replayed | None:
    """A match of the journal at ``path`` (the latest by default), read without a byte of it
    changing, and the table its records replay to: as a restart would resume it, but
    journaling nothing. None if the journal holds no match yet. Records the rules refuse are
    a damaged journal (CorruptJournalError), named before anything is made of them."""
    from bgpi.journal.store import Journal, corrupt  # noqa: PLC0415
    from bgpi.service.app import table_config  # noqa: PLC0415
    from bgpi.service.resume import replay  # noqa: PLC0415

    with Journal.open(path, read_only=True) as journal:  # bgpi run may be writing it
        if match_id is None:
            listed = journal.matches()
            if not listed:
                return None
            match_id = listed[-1].id
        records = journal.records(match_id)
    try:
        table, _owed = replay(table_config(config), records)
    except ValueError as exc:
        raise corrupt(f"{path}: {exc}") from None
    return Replayed(match_id, records, table)
