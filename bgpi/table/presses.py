"""A person's press of a button at the table: the button going down and coming up, told
short from held, decided by the rows (:mod:`bgpi.table.buttons`) now or, a ROLL pressed on a
board not yet settled (:mod:`bgpi.table.settling`), once it has (:func:`waited`); or refused,
ROLL while moving saying why.

A button with a held meaning waits for its release to tell short from held (its short
meaning then acts on release); every other button acts when it goes down. The table keeps
the buttons down (:class:`Held`) between the two events.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from bgpi.base.i18n import _
from bgpi.base.words import ROLL, ButtonName, Player
from bgpi.journal.records import Seat
from bgpi.sensing.mistakes import mistake_words, refusal
from bgpi.table import settling
from bgpi.table.buttons import Hold, enterer, rows_of
from bgpi.table.events import Press, Step
from bgpi.table.phases import Moving, Phase, Said

if TYPE_CHECKING:
    from bgpi.table.core import Table


@dataclass(frozen=True, slots=True)
class Held:
    """A button down since ``since``; ``waiting`` if it acts on release (short or held)."""

    player: Player
    button: ButtonName
    since: float
    waiting: bool
    phase: Phase  # the phase it went down in, where a press acting on release is meant


def press(table: Table, event: Press) -> Step:
    """A button down or up: acted on as it goes down, or on release if it has a held
    meaning now."""
    player, button = event.player, event.button
    if table.seats[player] is not Seat.PERSON and player != enterer(table):
        return Step(table)  # that seat decides for itself: its buttons here do nothing
    if event.pressed:
        rows = rows_of(table, player, button)
        # A button with a held meaning waits for its release to tell short from held.
        waiting = Hold.HELD in rows
        going = Held(player, button, event.t, waiting, table.phase)
        table = replace(table, held=(*table.held, going))
        return Step(table) if waiting else _acted(table, player, button, Hold.SHORT, event.t)
    down = next((h for h in table.held if (h.player, h.button) == (player, button)), None)
    after = replace(table, held=tuple(h for h in table.held if h is not down))
    if down is None or not down.waiting:
        return Step(after)
    if down.phase is not table.phase:
        # The other player acted meanwhile (doubled while a takeback was being asked):
        # the gesture was meant for the phase it began in, and means nothing in this one.
        return Step(after)
    long = event.t - down.since >= table.config.long_press
    return _acted(after, player, button, Hold.HELD if long else Hold.SHORT, event.t)


def _acted(table: Table, player: Player, button: ButtonName, hold: Hold, t: float) -> Step:
    """A gesture told short or held: decided now, or once the board has settled."""
    if table.sensors_down:
        # The board cannot be read: its last reading may be stale, so no button decides
        # anything (no play, roll or cube) until the sensors answer again.
        return Step(table)
    if settling.waits(table, player, button, hold, t):
        return Step(settling.wait(table, t))  # decided once the board settles
    return decided(table, player, button, hold)


def decided(table: Table, player: Player, button: ButtonName, hold: Hold) -> Step:
    """What the rows make of the press now: its intent done, or the press refused."""
    table = settling.dropped(table) if player == table.match.turn else table
    rows = rows_of(table, player, button)
    row = rows.get(hold) or rows.get(Hold.SHORT)
    if row is None:
        return _refused(table, player, button)
    return table.intend(player, row.intent)


def waited(table: Table, step: Step, t: float) -> Step:
    """``step`` (``table`` its table, as the clock found it) with the ROLL that waited for
    the board decided, once the board has settled or the wait is over."""
    if not settling.due(table, t):
        return replace(step, table=table)
    table = settling.dropped(table)
    if table.sensors_down:  # as any press: a board that cannot be read decides nothing
        return replace(step, table=table)
    roll = decided(table, table.on_roll, ROLL, Hold.SHORT)
    return replace(roll, records=step.records + roll.records)


def _refused(table: Table, player: Player, button: ButtonName) -> Step:
    """A press that does nothing now (its light is dark): ROLL of the player on roll
    while moving says why the turn cannot end, on the page and in the log."""
    at, seen = table.at, table.observation
    if button != ROLL or player != table.match.turn or not isinstance(at, Moving):
        return Step(table)
    if at.reading is None or seen is None:
        return Step(table)
    mistake = refusal(at.tracker, seen, at.reading, at.near)
    why = _("{name}'s ROLL does nothing: {why}").format(
        name=table.names[player], why=mistake_words(mistake)
    )
    return Step(replace(table, at=replace(at, said=Said(mistake))), refused=why)
