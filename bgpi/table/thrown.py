"""Dice thrown by hand and read from two GoDice: the throw judged as the rule sheets judge it,
and the fall back on entered dice while a die is down.

The table waits for a throw in :class:`~bgpi.table.phases.Rolling` with a
:class:`~bgpi.sensing.godice.PairReading`; each die's word (:class:`DieRested`) feeds it. A
throw that counts is the roll (journaled with the source ``godice``); a die cocked or moved
means both dice are thrown again, journaled as :class:`~bgpi.journal.records.Rethrown` so a
director reading the journal sees it. A die gone or low on battery (a fault of
:attr:`~bgpi.base.faults.FaultSource.GODICE`) turns the wait into entering the dice by hand;
once the pair is back, a roll not yet begun on the buttons is read from the dice again. A die
that answers but cannot be used (under the sofa, cocked throw after throw) is no fault: the
thrower's held CUBE (:func:`by_hand`) enters that one roll instead, whatever the pair does
meanwhile; the page may enter it for him where that press may (:func:`entered_instead`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Final

from bgpi.base.faults import FaultSource
from bgpi.base.words import Player
from bgpi.journal.records import DiceSource, Rethrown, Unfit
from bgpi.sensing.godice import Again, PairReading, Rest
from bgpi.table.buttons import Intent, intents_of, thrower
from bgpi.table.errors import TableError
from bgpi.table.events import DieRested, Step
from bgpi.table.phases import BeforeRoll, Entering, Opening, Rolling

if TYPE_CHECKING:
    from bgpi.table.core import Table

UNFIT: Final = {Rest.TILT_STABLE: Unfit.COCKED, Rest.MOVE_STABLE: Unfit.MOVED}


def waiting_throw(player: Player, count: int, back: Opening | BeforeRoll) -> Rolling:
    """The wait for ``player``'s throw of ``count`` GoDice."""
    return Rolling(player, count, back, reading=PairReading(count))


def rested(table: Table, event: DieRested) -> Step:
    """A die's word: fed to the throw awaited (ignored otherwise: a die handled between
    rolls is no roll); the throw it completes counted, or thrown again."""
    at = table.at
    if not isinstance(at, Rolling) or at.reading is None or event.die not in (0, 1):
        return Step(table)
    reading, outcome = at.reading.feed(event.die, event.rest, event.value)
    if outcome is None:
        return Step(replace(table, at=replace(at, reading=reading)))
    if isinstance(outcome, Again):
        why = UNFIT[outcome.rest]
        return table.decide(Rethrown(at.player, outcome.die + 1, why, outcome.value))
    return table.rolled(at.player, outcome.dice, DiceSource.GODICE)


def by_hand(table: Table) -> Table:
    """The throw awaited turned to this one roll entered by hand, as a person here chose."""
    at = table.at
    if not isinstance(at, Rolling) or not at.thrown:
        raise TableError(f"no GoDice throw is awaited in phase {table.phase.value}")
    return replace(table, at=Entering(at.player, at.count, at.back, chosen=True))


def entered_instead(table: Table) -> Table:
    """The table that takes dice entered on the page: while a throw is awaited, the one the
    thrower's held CUBE would leave (this roll entered by hand), if the rows let him do that
    now; else the table as it stands. So the phone at a board offers nothing the buttons
    do not."""
    hand = thrower(table)
    if hand is None or Intent.ENTER_BY_HAND not in intents_of(table, hand):
        return table
    return by_hand(table)


def after_fault(table: Table) -> Table:
    """The wait for a throw turned to entering the dice while the pair is down, and back once
    it is up again (unless a person here began entering them)."""
    at = table.at
    if table.dice is not DiceSource.GODICE:
        return table
    down = table.down(FaultSource.GODICE) is not None
    if down and isinstance(at, Rolling) and at.thrown:
        return replace(table, at=Entering(at.player, at.count, at.back))
    # As it began, and not by a person's choice (a die he cannot use stays so).
    untouched = isinstance(at, Entering) and not (at.entered or at.chosen) and at.shown == 1
    if not down and isinstance(at, Entering) and untouched:
        return replace(table, at=waiting_throw(at.player, at.count, at.back))
    return table
