"""Resuming a match from its journal, even one a power cut left in the middle of a step: the
one place the shell (``bgpi run``, ``bgpi sim``, ``bgpi demo``, the remote demo, ``bgpi
status``, ``bgpi hint``) turns a journal back into the table.

Since every step's records are journaled in one transaction, a journal always ends between
two steps. A journal written by an older bgpi may not: it journaled a step's records one
commit each, so a power cut could leave

- both opening dice, not the opening roll they make;
- the winning play, not the end of the game it won;
- a drop, not the end of the game it gave away.

Each of these replays to a table that no press moves on. The records still owed follow from
the table alone, so :func:`owed` names them and :func:`complete` journals them (in one
transaction) before play goes on: the match then continues exactly as it would have.

A journal that does not replay by the rules is a damaged one: :func:`resume`, :func:`unfinished`
and :func:`read` say so as a CorruptJournalError naming the file.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bgpi.journal.records import GameEnded, MatchStarted, OpeningRolled, Record
from bgpi.journal.store import Journal, corrupt
from bgpi.rules import GameState, game_result
from bgpi.table import Phase, Table, TableConfig


class Appender(Protocol):
    def append_all(self, records: Sequence[Record]) -> None: ...


def owed(table: Table) -> tuple[Record, ...]:
    """The records that finish the step ``table`` was replayed into the middle of; none if
    it stands between two steps."""
    match = table.match
    white, black = table.opening
    if table.phase is Phase.OPENING and white is not None and black is not None:
        return (OpeningRolled(white, black),)
    if table.phase is Phase.ENDING and match.turn is not None:
        result = game_result(table.mover_view)
        if result is not None:
            return (GameEnded(match.turn, int(result), match.points_for(result)),)
    winner = match.game_winner
    if table.phase is Phase.DOUBLED and match.state is GameState.DROPPED and winner is not None:
        return (GameEnded(winner, 1, match.cube, dropped=True),)
    return ()


def replay(config: TableConfig, records: Sequence[Record]) -> tuple[Table, tuple[Record, ...]]:
    """The table ``records`` lead to, with the step they end in the middle of finished; and
    the records that finished it, which the caller must journal before going on."""
    table = Table.replay(config, records)
    missing = owed(table)
    for record in missing:
        table = table.apply(record)
    return table, missing


def complete(
    config: TableConfig, records: Sequence[Record], journal: Appender
) -> tuple[Table, list[Record]]:
    """:func:`replay`, journaling what it owed: the table and the match's records now."""
    table, missing = replay(config, records)
    journal.append_all(missing)
    return table, [*records, *missing]


def resume(config: TableConfig, journal: Journal, fresh: MatchStarted) -> Table:
    """The table the journal leads to; on a journal that holds no match, a fresh board where
    the players choose the first one, ``fresh`` shown as the defaults."""
    if not journal.matches():
        return Table.choose(config, fresh)
    return _resumed(config, journal)[0]


def unfinished(config: TableConfig, journal: Journal) -> list[Record] | None:
    """The records of the journal's latest match, if it is not over, with what they owed
    journaled; None if there is none to go on with."""
    matches = journal.matches()
    if not matches or matches[-1].finished:
        return None
    return _resumed(config, journal)[1]


def _resumed(config: TableConfig, journal: Journal) -> tuple[Table, list[Record]]:
    """The latest match's table and records, what they owed journaled."""
    try:
        return complete(config, journal.records(), journal)
    except ValueError as exc:
        raise corrupt(f"{journal.path}: {exc}") from None
