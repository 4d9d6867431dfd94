"""A seat's intents made on the simulated table: the buttons and the hands that make them.

The same hands make either seat's intents: the local player's, decided here by the demo's
player, and the other board's, as they arrive. A play is made move by move and ended with
the mover's ROLL button, checked by the tracker like any other.
"""

from __future__ import annotations

import random
from typing import Final

from bgpi.demo import PipPlayer
from bgpi.records import Played
from bgpi.remote.wire import Action, Intent
from bgpi.rules import Move
from bgpi.simtable import SimTable
from bgpi.table import Chosen, Decided, Phase
from bgpi.table import Intent as TableIntent
from bgpi.words import ROLL


class UnmadeIntentError(ValueError):
    """An intent the table here cannot make (its phase does not allow it)."""


_DECISIONS: Final = {
    Action.OPENING: TableIntent.OPENING_ROLL,
    Action.ROLL: TableIntent.ROLL,
    Action.DOUBLE: TableIntent.DOUBLE,
    Action.TAKE: TableIntent.TAKE,
    Action.BEAVER: TableIntent.BEAVER,
    Action.DROP: TableIntent.DROP,
}


def make(sim: SimTable, intent: Intent, player: int) -> None:
    """My seat's intent: press my buttons, or make my play and end the turn with ROLL."""
    action = intent.action
    if action in (Action.OPENING, Action.ROLL, Action.TAKE):
        sim.roll(player)
    elif action in (Action.DOUBLE, Action.DROP):
        sim.cube(player)
    elif action is Action.BEAVER:
        sim.press(player, ROLL, hold=sim.table.config.long_press + 0.2)
    elif action is Action.PLAY:
        moves = Played(player, intent.moves).move_values()
        if sim.phase is not Phase.MOVING:
            raise UnmadeIntentError(f"a play came in phase {sim.phase.value}")
        sim.make_play(player, moves)
        sim.roll(player)
        confirm(sim, player, moves)
    else:
        raise UnmadeIntentError(f"{action.value}: resignations are not yet made at the table")


def make_theirs(sim: SimTable, intent: Intent, player: int) -> None:
    """The other board's intent, for a seat that is not a person here: a decision goes to
    the table as the seat's answer; a play is lit move by move and the hands here follow
    the lights until the table commits it."""
    action = intent.action
    if action in _DECISIONS:
        sim.driver.dispatch(Decided(player, _DECISIONS[action], sim.clock()))
        sim.advance()
    elif action is Action.PLAY:
        moves = Played(player, intent.moves).move_values()
        before = len(sim.driver.log)
        sim.driver.dispatch(Chosen(player, moves, sim.clock()))
        sim.advance()
        # The hands make the play as chosen, move by move in the order the table lights them,
        # also when the table has already committed it: where points hold more checkers than
        # they have switches, the board can show the play's end before any checker moved (the
        # table then counts moves unseen as made), and the checkers must still be moved.
        if sim.phase is Phase.GUIDED or len(sim.driver.log) > before:
            sim.make_play(player, moves)
        sim.advance(0.5)  # the board holds still: the tracker reads the whole play
    else:
        raise UnmadeIntentError(f"{action.value}: resignations are not yet made at the table")


def confirm(sim: SimTable, player: int, moves: tuple[Move, ...]) -> None:
    """Several plays look the same to the sensors: step to the one made, and confirm it."""
    wanted = Played.of(player, moves).moves
    for _ in range(len(sim.table.candidates)):
        if sim.phase is not Phase.CONFIRM:
            return
        tracker = sim.table.tracker
        assert tracker is not None
        shown = tracker.play(sim.table.candidates[sim.table.candidate])
        if sorted(Played.of(player, shown.moves).moves) == sorted(wanted):
            sim.roll(player)
            return
        sim.cube(player)


def decide(sim: SimTable, player: PipPlayer, side: int, at: int, rng: random.Random) -> Intent:
    """What the demo's player does for ``side`` now (a play: its moves, not yet made)."""
    phase, match = sim.phase, sim.match
    if phase is Phase.OPENING:
        return Intent(at, Action.OPENING)
    if phase is Phase.BEFORE_ROLL:
        wants = match.may_double(side) and player.doubles(sim.table.mover_view_of(side), match)
        return Intent(at, Action.DOUBLE if wants else Action.ROLL)
    if phase is Phase.DOUBLED:
        beaver = match.rules.beaver and match.cube * 4 <= match.rules.cube_limit
        answer = player.answer(sim.table.mover_view_of(side), match, beaver)
        return Intent(at, Action(answer))
    if phase is Phase.MOVING and match.dice is not None:
        choice = player.choose(sim.table.mover_view, match, rng)
        return Intent(at, Action.PLAY, Played.of(side, choice.moves).moves)
    raise UnmadeIntentError(f"nothing to decide in phase {phase.value}")
