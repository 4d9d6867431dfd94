"""Seats that are not a person at this board: what the table asks of them and what they say.

Each side of the board is a seat (:class:`~bgpi.records.Seat`, chosen with the match and
journaled in its :class:`~bgpi.records.MatchStarted`): a person here, the engine, or a remote
board. The buttons of a seat that is not a person here do nothing and are not lit; instead:

**The table asks.** Every :class:`~bgpi.table.events.Step` whose table waits for a decision
of a non-person seat that the table before it did not wait for carries a
:class:`DecisionRequest` ``(player, ask)``; :func:`waiting` says the same of any table, for a
shell that starts on a journal mid-game. The asks:

============== ============================= ======================================
ask            when                          answered by
============== ============================= ======================================
OPENING_ROLL   the opening die is due        ``Decided(player, Intent.OPENING_ROLL)``
TURN           on roll, before rolling       ``Decided(player, Intent.ROLL)`` or
                                             ``Decided(player, Intent.DOUBLE)``
CUBE           doubled by the other          ``Decided`` with ``TAKE``, ``BEAVER``, ``DROP``
PLAY           rolled: the play is due       ``Chosen(player, moves)``
============== ============================= ======================================

**The seat answers** with an event into :meth:`Table.handle`: :class:`Decided` for a
decision (the same :class:`~bgpi.table.buttons.Intent` a press of a person's button has,
allowed by the same rows), :class:`Chosen` for the play of the current roll (its moves in
the mover's numbering, in the order to make them). An answer the table cannot take now is
refused: the step changes nothing and its ``refused`` says why, in one line.

**A chosen play is lit move by move** (the phase :class:`~bgpi.table.phases.Guided`): the
checker to lift blinks on its point, its destination shows; once the board shows that move,
the next one is lit. A checker put elsewhere is shown as a wrong board against the move lit,
until it is corrected. When the board shows the whole play (read by the tracker, like any
play) the table commits it: the turn passes without a press.

Dice are rolled by this table's shell for every seat (``DiceRequest``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from bgpi.records import Seat
from bgpi.rules import Move
from bgpi.table.phases import BeforeRoll, Doubled, Moving, Opening

if TYPE_CHECKING:
    from bgpi.table.buttons import Intent
    from bgpi.table.core import Table


class Ask(Enum):
    OPENING_ROLL = "opening roll"
    TURN = "roll or double"
    CUBE = "take, beaver or drop"
    PLAY = "play"


@dataclass(frozen=True, slots=True)
class DecisionRequest:
    """The table waits for ``player``'s seat (not a person here) to decide ``ask``."""

    player: int
    ask: Ask


@dataclass(frozen=True, slots=True)
class Decided:
    """A non-person seat's decision: what a press of its player's button would have meant."""

    player: int
    intent: Intent
    t: float


@dataclass(frozen=True, slots=True)
class Chosen:
    """A non-person seat's play for the current roll, in the mover's numbering, in order."""

    player: int
    moves: tuple[Move, ...]
    t: float


def waiting(table: Table) -> DecisionRequest | None:
    """The decision the table waits for from a seat that is not a person here, if any."""
    at, turn = table.at, table.match.turn
    if isinstance(at, Opening):
        due = [p for p in (0, 1) if at.dice[p] is None and table.seats[p] is not Seat.PERSON]
        return DecisionRequest(due[0], Ask.OPENING_ROLL) if due else None
    if turn is None:
        return None
    if isinstance(at, BeforeRoll) and table.seats[turn] is not Seat.PERSON:
        return DecisionRequest(turn, Ask.TURN)
    if isinstance(at, Doubled) and table.seats[1 - turn] is not Seat.PERSON:
        return DecisionRequest(1 - turn, Ask.CUBE)
    if isinstance(at, Moving) and table.seats[turn] is not Seat.PERSON:
        return DecisionRequest(turn, Ask.PLAY)
    return None
