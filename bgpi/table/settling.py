"""A ROLL that ends the turn, pressed before the board has settled.

A player drops the last checker and slaps ROLL in one motion: the press comes within the
settle window (:mod:`bgpi.sensing.settle`), or while the reed switch under the checker still
bounces, so the table still reads the board as it was before the checker landed. Refused at
once, the press would say the play is not complete, and the player would have to press
again. So ROLL of the player on roll, pressed while moving on a board that changed within
the settle window (a reading not passed on yet, or a contact chattering back and forth),
waits (:attr:`~bgpi.table.phases.Moving.pressed`, the press's time) and is decided by the
same rows as any press (:mod:`bgpi.table.buttons`) once the board has held still: the turn
ends if the board then shows a complete play, else the press is refused in the words of any
refused ROLL. A board still changing :data:`PRESS_WAIT` s past the settle window after the
press (a hand still at the checkers) has the press decided on the board as it last settled,
which drops it with its refusal unless that board already showed the whole play. A repeated
press while one waits adds nothing; any other press of the player drops the one waiting
(they went on to something else, as resigning).

The clock (:mod:`bgpi.table.timing`): the U.S. rules have the player end the turn by
hitting the clock, which ROLL is, so a turn ended by a press that waited ends at the press,
not at the settling: the step's records are timed at the press (the journal's ``Clocked``
says the same, so a replay finds the clock where the live table left it), and while the
press waits a falling flag is judged at the press's time. A press refused after waiting
changes nothing of the clock. Nothing of a waiting press is journaled: after a power cut
the board has long settled, and the player presses again.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Final

from bgpi.base.words import ROLL, ButtonName, Player
from bgpi.table.buttons import Hold
from bgpi.table.events import Step
from bgpi.table.phases import Moving

if TYPE_CHECKING:
    from bgpi.table.core import Table

PRESS_WAIT: Final = 0.25
"""Seconds past the settle window that a ROLL pressed on an unsettled board waits at most:
longer than a checker's landing and its contact's bounce, short enough that a player who
pressed too early hears the refusal as the answer to the press."""


def still_from(table: Table) -> float:
    """When the board will have held still for the settle window, unless it changes again."""
    return table.settle.since + table.settle.settle


def unsettled(table: Table, t: float) -> bool:
    """Whether at ``t`` the board has a change the settle filter has not passed on yet, or
    changed within the settle window: a contact that chatters as the checker lands shows
    the board as it was between its closings, so the settled board may be stale even when
    the last raw reading matches it."""
    return table.settle.deadline() is not None or t < still_from(table)


def waits(table: Table, player: Player, button: ButtonName, hold: Hold, t: float) -> bool:
    """Whether this press, at ``t``, ends the turn only once the board has settled: ROLL
    (short) of the player on roll while moving, pressed while the board is unsettled."""
    return (
        button == ROLL
        and hold is Hold.SHORT
        and player == table.match.turn
        and isinstance(table.at, Moving)
        and unsettled(table, t)
    )


def pressed(table: Table) -> float | None:
    """When the ROLL waiting for the board went down, if one waits."""
    at = table.at
    return at.pressed if isinstance(at, Moving) else None


def wait(table: Table, t: float) -> Table:
    """``table`` holding the ROLL pressed at ``t`` until the board settles (the first press
    kept: it is when the player ended the turn)."""
    at = table.at
    if not isinstance(at, Moving) or at.pressed is not None:
        return table
    return replace(table, at=replace(at, pressed=t))


def dropped(table: Table) -> Table:
    """``table`` with no ROLL waiting."""
    at = table.at
    if not isinstance(at, Moving) or at.pressed is None:
        return table
    return replace(table, at=replace(at, pressed=None))


def bound(table: Table) -> float | None:
    """When the wait of the ROLL waiting is over, however the board goes on changing."""
    t = pressed(table)
    return None if t is None else t + table.config.settle + PRESS_WAIT


def deadline(table: Table) -> float | None:
    """When the ROLL waiting may next be decided, for the shell's timer: once the board has
    held still, or at the bound."""
    end = bound(table)
    return None if end is None else min(end, still_from(table))


def due(table: Table, t: float) -> bool:
    """Whether the ROLL waiting is decided now: the board has settled, or the wait is over."""
    end = bound(table)
    return end is not None and (not unsettled(table, t) or t >= end)


def clock_time(before: Table, step: Step, t: float) -> float:
    """The time the clock takes for ``step``, ``before``'s answer to an event at ``t``: the
    press's, when the step ended the turn with a ROLL that waited or the press still waits;
    else the event's."""
    at = pressed(before)
    if at is not None and (step.records or pressed(step.table) == at):
        return at
    return t
