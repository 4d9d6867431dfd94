"""Seats that are not a person at this board: what the table asks of them and what they say.

Each side of the board is a seat (:class:`~bgpi.journal.records.Seat`, chosen with the
match and journaled in its :class:`~bgpi.journal.records.MatchStarted`): a person here, the
engine, or a remote board. The buttons of a seat that is not a person here do nothing and are
not lit; instead:

**The table asks.** Every :class:`~bgpi.table.events.Step` whose table waits for a decision
of a non-person seat that the table before it did not wait for carries a
:class:`DecisionRequest` ``(player, ask)``; :func:`waiting` says the same of any table, for a
shell that starts on a journal mid-game. The asks:

============== ============================= ======================================
ask            when                          answered by
============== ============================= ======================================
OPENING_ROLL   the opening die is due        ``Decided(player, Intent.OPENING_ROLL)``
TURN           on roll, before rolling       ``Decided(player, Intent.ROLL)`` or
               (after a person's play, once  ``Decided(player, Intent.DOUBLE)``
               the table has waited for a
               takeback: ``computer_waits``)
CUBE           doubled by the other          ``Decided`` with ``TAKE``, ``BEAVER``, ``DROP``
PLAY           rolled: the play is due       ``Chosen(player, moves)``
RESIGN         the other offers to resign    ``Decided`` with ``ACCEPT_RESIGN`` or
                                             ``DECLINE_RESIGN``
ILLEGAL        the other ended the turn on   ``Decided`` with ``ACCEPT_ILLEGAL`` (only
               an illegal play               when readable) or ``DEMAND_CORRECTION``
START          the next match is chosen and  ``Decided(player, Intent.START_MATCH)``:
               no seat is a person here      the match as shown (White's seat is asked)
============== ============================= ======================================

**The seat answers** with an event into :meth:`Table.handle`: :class:`Decided` for a
decision (the same :class:`~bgpi.table.buttons.Intent` a press of a person's button has,
allowed by the same rows; ``Intent.RESIGN`` with its ``result`` offers that resignation at
once, on the seat's turn), :class:`Chosen` for the play of the current roll (its moves in
the mover's numbering, in the order to make them). An answer the table cannot take now is
refused: the step changes nothing and its ``refused`` says why, in one line.

**A chosen play is lit move by move** (the phase :class:`~bgpi.table.phases.Guided`): the
checker to lift blinks on its point, its destination shows; once the board shows that move,
the next one is lit. A checker put elsewhere is shown as a wrong board against the move lit,
until it is corrected. A move the sensors cannot see (a point holding more checkers than
it has switches, a checker borne off without tray sensors: the board reads the same before
and after it) is lit like any other but never counted as made by the board alone: a person
at this board says it is made with a short ROLL (the row in :mod:`bgpi.table.buttons`);
with no person here, the table counts it made once the board has held still on it for
:data:`~bgpi.table.phases.UNSEEN_WAIT` seconds. When every move is made and the board shows
the whole play (read by the tracker, like any play) the table commits it: the turn passes
without a press.

Dice are rolled by this table's shell for every seat (``DiceRequest``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import TYPE_CHECKING, Final

from bgpi.base.words import PLAYERS, WHITE, Player
from bgpi.journal.records import Seat
from bgpi.rules import GameResult, Move
from bgpi.table.buttons import Intent, Who, may_take_back
from bgpi.table.phases import (
    BeforeRoll,
    Choosing,
    Doubled,
    Illegal,
    Moving,
    Opening,
    ResignPending,
)

if TYPE_CHECKING:
    from bgpi.table.core import Table


class Ask(Enum):
    OPENING_ROLL = "opening roll"
    TURN = "roll or double"
    CUBE = "take, beaver or drop"
    PLAY = "play"
    RESIGN = "accept or decline a resignation"
    ILLEGAL = "accept an illegal play or demand its correction"
    START = "start the match shown"


@dataclass(frozen=True, slots=True)
class DecisionRequest:
    """The table waits for ``player``'s seat (not a person here) to decide ``ask``."""

    player: Player
    ask: Ask


@dataclass(frozen=True, slots=True)
class Decided:
    """A non-person seat's decision: what a press of its player's button would have meant."""

    player: Player
    intent: Intent
    t: float
    result: GameResult | None = None  # the level, for Intent.RESIGN (offered at once)


@dataclass(frozen=True, slots=True)
class Chosen:
    """A non-person seat's play for the current roll, in the mover's numbering, in order."""

    player: Player
    moves: tuple[Move, ...]
    t: float


# The phases where a seat is asked: which side (as the rows say whose button) and what.
_ASKS: Final[dict[type, tuple[Who, Ask]]] = {
    BeforeRoll: (Who.ON_ROLL, Ask.TURN),
    Doubled: (Who.OTHER, Ask.CUBE),
    Moving: (Who.ON_ROLL, Ask.PLAY),
    ResignPending: (Who.OTHER, Ask.RESIGN),
    Illegal: (Who.OTHER, Ask.ILLEGAL),
}


def computer_waits(table: Table) -> bool:
    """Whether the computer, on roll after a person's play, waits before it is asked to roll
    or double: the person may still ask to take the play back (the computer agrees at
    once), and a held ROLL takes longer than the computer's answer would."""
    at, turn = table.at, table.match.turn
    if not isinstance(at, BeforeRoll) or at.undo is None or turn is None:
        return False
    if table.config.takeback_wait <= 0:  # the shell asks the computer at once
        return False
    return table.seats[turn] is Seat.ENGINE and may_take_back(table, at.undo.player)


def takeback_wait(table: Table, t: float) -> Table:
    """The computer's wait for a takeback, started or ended by the clock at ``t``: once it
    is over the play stands and the computer is asked (:func:`waiting`)."""
    at = table.at
    if not isinstance(at, BeforeRoll) or not computer_waits(table):
        return table
    if at.since is None:
        return replace(table, at=replace(at, since=t))
    if t - at.since < table.config.takeback_wait:
        return table
    return replace(table, at=BeforeRoll())


def waiting(table: Table) -> DecisionRequest | None:
    """The decision the table waits for from a seat that is not a person here, if any."""
    at, turn = table.at, table.match.turn
    if computer_waits(table):
        return None
    if isinstance(at, Opening):
        due = [p for p in PLAYERS if at.dice[p] is None and table.seats[p] is not Seat.PERSON]
        return DecisionRequest(due[0], Ask.OPENING_ROLL) if due else None
    if isinstance(at, Choosing):
        # Nobody here to press: the seats start the match as shown (a person chooses).
        alone = Seat.PERSON not in table.seats
        return DecisionRequest(WHITE, Ask.START) if alone else None
    asked = _ASKS.get(type(at))
    if turn is None or asked is None:
        return None
    who, ask = asked
    player = turn if who is Who.ON_ROLL else turn.other
    return DecisionRequest(player, ask) if table.seats[player] is not Seat.PERSON else None


SeatAnswer = Intent | tuple[Move, ...] | GameResult
"""What a seat that is not a person here answers: a decision, the play of the roll (moves in
the mover's numbering, in order) or, before its roll, the level it resigns."""


def answered(player: Player, answer: SeatAnswer, t: float) -> Decided | Chosen:
    """``player``'s seat's answer as the event the table takes: a play is :class:`Chosen`, a
    level resigned ``Decided(player, Intent.RESIGN, t, level)``, a decision :class:`Decided`.
    One conversion for every shell (``bgpi run``'s engine thread, the simulator's seats), so
    a resignation goes the same way everywhere."""
    if isinstance(answer, GameResult):
        return Decided(player, Intent.RESIGN, t, answer)
    if isinstance(answer, tuple):
        return Chosen(player, answer, t)
    return Decided(player, answer, t)
