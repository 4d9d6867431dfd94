"""The answers of seats that are not a person here (what the table asks of them is in
:mod:`bgpi.table.seats`): a decision goes the way a press of a person's button would, and a
play is made by the hands here, lit move by move (the phase :class:`Guided`), then committed
once the board shows all of it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from bgpi.base.words import WHITE, Player
from bgpi.journal.records import ResignOffered, Seat
from bgpi.rules import Position, legal_plays
from bgpi.sensing.board import Observation, observe
from bgpi.table.board import shows, steps_of, white_view
from bgpi.table.buttons import SEAT_INTENTS, Intent, intents_of, unseen_lit
from bgpi.table.errors import TableError
from bgpi.table.events import Step
from bgpi.table.phases import UNSEEN_WAIT, Guided, Moving
from bgpi.table.seats import Chosen, Decided

if TYPE_CHECKING:
    from bgpi.base.words import Player
    from bgpi.table.core import Table


def refuse(table: Table, player: Player, why: str) -> Step:
    """An answer of ``player``'s seat the table cannot take now, and why."""
    return Step(table, refused=f"{table.names[player]}'s seat: {why}")


def decided(table: Table, event: Decided) -> Step:
    """A seat's decision: allowed by the same rows as a press of its player's button."""
    player, intent = event.player, event.intent
    if table.seats[player] is Seat.PERSON:
        return refuse(table, player, "a person at this board decides with the buttons")
    if intent not in SEAT_INTENTS or intent not in intents_of(table, player):
        return refuse(table, player, f"{intent.value} is not open in phase {table.phase.value}")
    if intent is Intent.RESIGN:
        if event.result is None:
            return refuse(table, player, "a resignation names its level")
        return table.decide(ResignOffered(player, int(event.result)))
    return table.intend(player, intent)


def chosen(table: Table, event: Chosen) -> Step:
    """A seat's play for the roll: lit move by move for the hands here to make."""
    player, at, dice = event.player, table.at, table.match.dice
    if table.seats[player] is Seat.PERSON:
        return refuse(table, player, "a person at this board makes the play by hand")
    if not isinstance(at, Moving) or player != table.match.turn or dice is None:
        return refuse(table, player, f"no play is due in phase {table.phase.value}")
    steps = steps_of(table.position, event.moves, player)
    legal = {play.result: len(play.moves) for play in legal_plays(table.mover_view, dice)}
    if steps is None or legal.get(white_view(steps[-1], player)) != len(event.moves):
        return refuse(table, player, f"{event.moves} is not a legal play of {dice}")
    unseen = frozenset(k for k in range(len(event.moves)) if _alike(table, *steps[k : k + 2]))
    guided = replace(table, at=Guided(at.tracker, event.moves, steps, unseen=unseen))
    return done(guided.read_board())


def _alike(table: Table, before: Position, after: Position) -> bool:
    """Whether the sensors read the two positions (White's view) the same."""
    caps = table.config.caps
    return observe(before, WHITE, caps) == observe(after, WHITE, caps)


def read(table: Table, at: Guided, seen: Observation) -> Table:
    """Count the lit move made once the board shows the step after it, if the sensors
    can see that move: one the sensors cannot see waits for the hands' word (or the
    wait), never counted because the board already looks like the step after it.

    One move at a time, never to a later step the board seems to show: visible moves
    can add up to a change the sensors cannot see (6/4 then 4/off from a point fuller
    than its switches reads as the start; 6/4* then 4/off as the hit blot on the bar
    with the hitter still in the hand; 8/5 then 5/off as the checker from the 8-point
    in the hand). A board that looks like a later
    step is no sign the hands got there; counting it committed the play before its
    checkers moved, and the board and the journal parted for good (a remote match then
    stopped at a later play that no board could show)."""
    following = at.done + 1
    if at.done in at.unseen or following >= len(at.steps):
        return table
    if not shows(seen, at.steps[following], table.config.caps):
        return table
    return replace(table, at=replace(at, done=following, since=None))


def move_made(table: Table, at: Guided, player: Player) -> Step:
    """The hands' word (a person's ROLL) that the lit move, one the sensors cannot see, is
    made."""
    return _made(table, at)


def _made(table: Table, at: Guided) -> Step:
    if not at.needs_word:
        raise TableError(f"move {at.done + 1} of the guided play is one the sensors see: no word")
    return done(replace(table, at=replace(at, done=at.done + 1, since=None)).read_board())


def wait(table: Table, at: Guided, t: float) -> Step:
    """Where no person here can give the word, an unseen move lit and held on the board
    for :data:`UNSEEN_WAIT` seconds counts as made."""
    if Seat.PERSON in table.seats or not unseen_lit(table):
        return Step(table if at.since is None else replace(table, at=replace(at, since=None)))
    if at.since is None:
        return Step(replace(table, at=replace(at, since=t)))
    if t - at.since < UNSEEN_WAIT:
        return Step(table)
    return _made(table, at)


def unshown(table: Table) -> Step:
    """The guided play journaled as its seat chose it, though the hands here have not made
    it all: for a match ended by forfeit while they made it (this board fell silent, its
    person gone). The other board chose that play, the rules allowed it (:func:`chosen`
    checked it) and that board journaled it before it waited and claimed; so the game was
    played so, and journaled here too, before the end, both boards' journals and ``.mat``
    hold one match. No play follows the end, so the board need not show it."""
    at = table.at
    if not isinstance(at, Guided):
        raise TableError(f"no guided play to journal in phase {table.phase.value}")
    return table.commit(at.moves, white_view(at.steps[-1], at.tracker.mover))


def done(table: Table) -> Step:
    """A guided play is committed once every move is made (seen, or given the word) and
    the board shows all of it, read by the tracker."""
    at, seen = table.at, table.observation
    if not isinstance(at, Guided) or at.next_move is not None or seen is None:
        return Step(table)
    reading = at.tracker.read(seen)
    final = white_view(at.steps[-1], at.tracker.mover)
    if not any(at.tracker.node(node).result == final for node in reading.complete):
        return Step(table)
    return table.commit(at.moves, final)
