"""Whose move it is in a remote match, and what a board does next: a pure function of the
table, its records and both sides' intents.

Each side acts only for its own seat: it sends an intent, then makes it at its board (a
play is sent once it is committed). The other board makes the same intent with its hands
once its journal has reached the intent's record. The opening roll is serialized (White's
die, then Black's) so that both journals hold the same records in the same order and each
draw of the dice has the same number on both boards. Setting up and starting the next game
are each board's own business.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from bgpi.base.errors import BgpiError
from bgpi.base.words import BLACK, WHITE, Player
from bgpi.journal.records import (
    CubeAction,
    OpeningDie,
    Played,
    Record,
    ResignAnswered,
    ResignOffered,
    Rolled,
)
from bgpi.remote.wire import Action, Intent
from bgpi.table import Phase, Rolling, Table


class Todo(Enum):
    SET_UP = "set up the board"
    NEXT_GAME = "start the next game"
    DONE = "the match is over"
    DECIDE = "decide for my seat"
    REDO_MINE = "make my intent sent before a restart"
    SEND_OWED = "send what my seat did: a committed play, a cube action made by a press"
    MAKE_THEIRS = "make the other seat's intent"
    WAIT = "wait for the other board"


@dataclass(frozen=True, slots=True)
class Next:
    todo: Todo
    intent: Intent | None = None
    at: int = 0


class OutOfStepError(BgpiError, ValueError):
    """The boards' journals disagree."""


def decider(table: Table) -> Player | None:
    """The seat whose decision the table waits for (None: each board's own business)."""
    phase, turn, at = table.phase, table.match.turn, table.at
    if isinstance(at, Rolling):
        return at.player
    if phase is Phase.OPENING:
        return WHITE if table.opening[WHITE] is None else BLACK
    if phase in (Phase.BEFORE_ROLL, Phase.MOVING, Phase.CONFIRM, Phase.GUIDED):
        return turn
    if phase in (Phase.DOUBLED, Phase.RESIGN_OFFERED) and turn is not None:
        return turn.other
    if phase is Phase.RESIGNING:
        return turn
    return None


def next_step(
    table: Table,
    records: Sequence[Record],
    side: Player,
    mine: Sequence[Intent],
    theirs: Sequence[Intent],
) -> Next:
    at = len(records)
    sent = {i.at for i in mine}
    for index, record in enumerate(records):
        owed = intent_of(record, index, side)
        if owed is not None and index not in sent:
            return Next(Todo.SEND_OWED, owed, index)
    if table.phase is Phase.ROLLING:
        return Next(Todo.WAIT, at=at)  # the dice are drawn with the other board: no intent
    pending = [i for i in mine if i.at == at and i.action is not Action.PLAY]
    if pending:
        return Next(Todo.REDO_MINE, pending[-1], at)
    return _turn_step(table, at, side, theirs)


def _turn_step(table: Table, at: int, side: Player, theirs: Sequence[Intent]) -> Next:
    """What is next once nothing is owed or to be made again."""
    local = {Phase.SETUP: Todo.SET_UP, Phase.GAME_OVER: Todo.NEXT_GAME, Phase.MATCH_OVER: Todo.DONE}
    if table.phase in local:
        return Next(local[table.phase], at=at)
    seat = decider(table)
    if seat == side:
        return Next(Todo.DECIDE, at=at)
    for intent in theirs:
        if intent.at == at:
            return Next(Todo.MAKE_THEIRS, intent, at)
    return Next(Todo.WAIT, at=at)


def intent_of(record: Record, index: int, side: Player) -> Intent | None:
    """The intent of ``side``'s seat that record ``index`` is the first record of, if any."""
    if getattr(record, "player", None) != side:
        return None
    if isinstance(record, Played):
        return Intent(index, Action.PLAY, record.moves)
    if isinstance(record, ResignOffered):
        return Intent(index, Action.RESIGN, result=record.result)
    action = _action_of(record)
    return Intent(index, action) if action is not None else None


def _action_of(record: Record) -> Action | None:
    if isinstance(record, CubeAction):
        return Action(record.action)
    if isinstance(record, ResignAnswered):
        return Action.ACCEPT if record.accepted else Action.REJECT
    return {OpeningDie: Action.OPENING, Rolled: Action.ROLL}.get(type(record))


def expected(intent: Intent) -> tuple[type, str]:
    """The kind of record an intent makes first, and its action word, for checking."""
    kinds = {
        Action.OPENING: (OpeningDie, ""),
        Action.ROLL: (Rolled, ""),
        Action.PLAY: (Played, ""),
        Action.RESIGN: (ResignOffered, ""),
        Action.ACCEPT: (ResignAnswered, ""),
        Action.REJECT: (ResignAnswered, ""),
    }
    return kinds.get(intent.action, (CubeAction, intent.action.value))


def check_made(
    records: Sequence[Record], intent: Intent, player: Player, *, mine: bool, phase: Phase
) -> None:
    """``OutOfStepError`` unless the record at the intent's place is what it makes. My own
    play is what my board recorded (it is sent from the record); the other's must have the
    same moves here, so that both journals export the same match."""
    if intent.at >= len(records):
        raise OutOfStepError(
            f"{intent.action.value} at record {intent.at} made no record here ({phase.value})"
        )
    record = records[intent.at]
    kind, action = expected(intent)
    ok = isinstance(record, kind) and getattr(record, "player", player) == player
    if isinstance(record, CubeAction):
        ok = ok and record.action == action
    if isinstance(record, ResignOffered):
        ok = ok and record.result == intent.result
    if isinstance(record, ResignAnswered):
        ok = ok and record.accepted == (intent.action is Action.ACCEPT)
    if isinstance(record, Played) and not mine:
        ok = ok and sorted(record.moves) == sorted(intent.moves)
    if not ok:
        raise OutOfStepError(
            f"{intent.action.value} at record {intent.at} made {record} here, not the same"
        )


__all__ = ["BLACK", "WHITE", "Next", "OutOfStepError", "Todo", "check_made", "decider", "next_step"]
