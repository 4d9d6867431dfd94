"""What every button does in every phase: one table of rows, read by everything.

A row says: in this phase, this player's button, pressed short or held, means this
(:class:`Intent`, what the table does; :class:`~bgpi.lights.scene.Meaning`, the light at the
button; ``words``, the page's status line), when ``when`` allows it. Pressing
(:meth:`bgpi.table.core.Table.handle`), the prompts in the scene (:mod:`bgpi.view`) and the
status line (:mod:`bgpi.web.view`) all read :func:`active_rows`, so a new gesture is one row
and a prompt cannot say what a press does not do.

A button whose held row is active waits for its release to tell short from held (its short
meaning then acts on release); every other button acts when it goes down.

========== =========== ====== ===== ============================== =====================
phase      player      button hold  intent                         when
========== =========== ====== ===== ============================== =====================
opening    either      ROLL   short roll my opening die            not rolled yet
before     on roll     ROLL   short roll
before     on roll     CUBE   short double                         the rules allow it
doubled    the other   ROLL   short take
doubled    the other   ROLL   held  beaver                         the rules allow it
doubled    the other   CUBE   short drop
moving     on roll     ROLL   short end the turn                   a complete play shown
confirm    on roll     ROLL   short confirm the play lit
confirm    on roll     CUBE   short light the next candidate
game over  either      ROLL   short next game
match over either      ROLL   short new match
========== =========== ====== ===== ============================== =====================
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Final

from bgpi.lights.scene import Meaning
from bgpi.records import Seat
from bgpi.rules.errors import IllegalCubeActionError
from bgpi.sensing.tracker import Kind
from bgpi.table.phases import Moving, Opening, Phase
from bgpi.words import CUBE, PLAYERS, ROLL, ButtonName

if TYPE_CHECKING:
    from bgpi.table.core import Table


class Who(Enum):
    """Whose button a row is, relative to the turn."""

    EITHER = "either player"
    ON_ROLL = "the player on roll"
    OTHER = "the other player"


class Hold(Enum):
    SHORT = "short"
    HELD = "held"


class Intent(Enum):
    """What a player wants the table to do: from a press here, or sent by a seat."""

    OPENING_ROLL = "opening roll"
    ROLL = "roll"
    DOUBLE = "double"
    TAKE = "take"
    BEAVER = "beaver"
    DROP = "drop"
    END_TURN = "end turn"
    CONFIRM = "confirm"
    NEXT_CANDIDATE = "next candidate"
    NEXT_GAME = "next game"


SEAT_INTENTS: Final = frozenset(
    {
        Intent.OPENING_ROLL,
        Intent.ROLL,
        Intent.DOUBLE,
        Intent.TAKE,
        Intent.BEAVER,
        Intent.DROP,
        Intent.NEXT_GAME,
    }
)
"""What a seat that is not a person here may decide (it gives its play as moves instead)."""

Guard = Callable[["Table", int], bool]


def _always(table: Table, player: int) -> bool:
    return True


@dataclass(frozen=True, slots=True)
class Row:
    phase: Phase
    who: Who
    button: ButtonName
    hold: Hold
    intent: Intent
    meaning: Meaning
    words: str  # for the status line, e.g. "rolls (ROLL)"
    when: Guard = _always


def _opening_die_due(table: Table, player: int) -> bool:
    return isinstance(table.at, Opening) and table.at.dice[player] is None


def _may_double(table: Table, player: int) -> bool:
    return table.match.may_double(player)


def _may_beaver(table: Table, player: int) -> bool:
    try:
        table.match.beaver()  # the rules say whether a beaver is allowed here
    except IllegalCubeActionError:
        return False  # no beaver in these rules, or past the cube's limit
    return True


def _complete(table: Table) -> bool:
    at = table.at
    if not isinstance(at, Moving) or at.reading is None:
        return False
    return at.reading.kind is Kind.AT_NODE and bool(at.reading.complete)


def _can_move(table: Table) -> bool:
    at = table.at
    assert isinstance(at, Moving) and at.reading is not None
    return bool(at.tracker.tree.nodes[at.reading.nodes[0]].moves)


def _played(table: Table, player: int) -> bool:
    return _complete(table) and _can_move(table)


def _cannot_move(table: Table, player: int) -> bool:
    return _complete(table) and not _can_move(table)


S, H = Hold.SHORT, Hold.HELD
P = Phase

ROWS: Final = (
    Row(P.OPENING, Who.EITHER, ROLL, S, Intent.OPENING_ROLL, Meaning.ROLL, "presses ROLL",
        _opening_die_due),
    Row(P.BEFORE_ROLL, Who.ON_ROLL, ROLL, S, Intent.ROLL, Meaning.ROLL, "rolls (ROLL)"),
    Row(P.BEFORE_ROLL, Who.ON_ROLL, CUBE, S, Intent.DOUBLE, Meaning.DOUBLE, "doubles (CUBE)",
        _may_double),
    Row(P.DOUBLED, Who.OTHER, ROLL, S, Intent.TAKE, Meaning.TAKE, "takes (ROLL)"),
    Row(P.DOUBLED, Who.OTHER, ROLL, H, Intent.BEAVER, Meaning.BEAVER, "beavers (hold ROLL)",
        _may_beaver),
    Row(P.DOUBLED, Who.OTHER, CUBE, S, Intent.DROP, Meaning.DROP, "drops (CUBE)"),
    Row(P.MOVING, Who.ON_ROLL, ROLL, S, Intent.END_TURN, Meaning.END_TURN, "ROLL ends the turn",
        _played),
    Row(P.MOVING, Who.ON_ROLL, ROLL, S, Intent.END_TURN, Meaning.ACKNOWLEDGE, "ROLL to pass",
        _cannot_move),
    Row(P.CONFIRM, Who.ON_ROLL, ROLL, S, Intent.CONFIRM, Meaning.CONFIRM,
        "ROLL confirms the one lit"),
    Row(P.CONFIRM, Who.ON_ROLL, CUBE, S, Intent.NEXT_CANDIDATE, Meaning.NEXT,
        "CUBE shows the next"),
    Row(P.GAME_OVER, Who.EITHER, ROLL, S, Intent.NEXT_GAME, Meaning.NEW_GAME,
        "ROLL: the next game"),
    Row(P.MATCH_OVER, Who.EITHER, ROLL, S, Intent.NEXT_GAME, Meaning.NEW_GAME,
        "ROLL starts a new one"),
)  # fmt: skip


def _whose(row: Row, table: Table) -> tuple[int, ...]:
    turn = table.match.turn
    if row.who is Who.EITHER:
        return PLAYERS
    if turn is None:
        return ()
    return (turn,) if row.who is Who.ON_ROLL else (1 - turn,)


def active_rows(table: Table, *, people_only: bool = True) -> tuple[tuple[int, Row], ...]:
    """The rows that apply now, each with the player whose button it is, in table order:
    only the buttons of people at this board, unless ``people_only`` is False."""
    return tuple(
        (player, row)
        for row in ROWS
        if row.phase is table.phase
        for player in _whose(row, table)
        if (not people_only or table.seats[player] is Seat.PERSON) and row.when(table, player)
    )


def rows_of(table: Table, player: int, button: str) -> dict[Hold, Row]:
    """What ``player``'s ``button`` does now, short and held (whatever the seat: the caller
    knows who may press)."""
    return {
        row.hold: row
        for who, row in active_rows(table, people_only=False)
        if (who, row.button) == (player, button)
    }


def intents_of(table: Table, player: int) -> frozenset[Intent]:
    """What ``player`` may want now, whatever the seat and the button."""
    return frozenset(
        row.intent for who, row in active_rows(table, people_only=False) if who == player
    )
