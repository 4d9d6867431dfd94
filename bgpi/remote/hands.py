"""A seat's intents made on the simulated table: the buttons and the hands that make them.

The same hands make either seat's intents: the local player's, decided here by the demo's
player, and the other board's, as they arrive. A play is made move by move and ended with
the mover's ROLL button, checked by the tracker like any other.
"""

from __future__ import annotations

import random

from bgpi.demo import PipPlayer
from bgpi.records import Played
from bgpi.remote.wire import Action, Intent
from bgpi.rules import Move
from bgpi.simtable import SimTable
from bgpi.table import Phase
from bgpi.words import ROLL


class UnmadeIntentError(ValueError):
    """An intent the table here cannot make (its phase does not allow it)."""


def make(sim: SimTable, intent: Intent, player: int) -> None:
    """Press ``player``'s buttons, or move its checkers, as ``intent`` says."""
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
