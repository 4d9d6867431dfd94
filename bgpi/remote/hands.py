"""A seat's intents made on the simulated table: the buttons and the hands that make them.

The same hands make either seat's intents: the local player's, decided here by the demo's
player, and the other board's, as they arrive. My play is made move by move and ended with my ROLL
button, checked by the tracker like any other; the other board's play is lit move by move
and the hands make it in that order, giving their word with my ROLL for a move the sensors
cannot see (:func:`bgpi.sim.demo.give_word`).
"""

from __future__ import annotations

import random
from typing import Final

from bgpi.base.errors import BgpiError
from bgpi.base.words import ROLL, Player
from bgpi.journal.records import Played
from bgpi.remote.wire import Action, Intent
from bgpi.rules import GameResult, Move
from bgpi.sim.demo import PipPlayer, give_word
from bgpi.sim.simtable import SimTable
from bgpi.table import Chosen, Decided, Guided, Phase
from bgpi.table import Intent as TableIntent


class UnmadeIntentError(BgpiError, ValueError):
    """An intent the table here cannot make (its phase does not allow it)."""


_DECISIONS: Final = {
    Action.OPENING: TableIntent.OPENING_ROLL,
    Action.ROLL: TableIntent.ROLL,
    Action.DOUBLE: TableIntent.DOUBLE,
    Action.TAKE: TableIntent.TAKE,
    Action.BEAVER: TableIntent.BEAVER,
    Action.DROP: TableIntent.DROP,
    Action.RESIGN: TableIntent.RESIGN,
    Action.ACCEPT: TableIntent.ACCEPT_RESIGN,
    Action.REJECT: TableIntent.DECLINE_RESIGN,
}


def decided(intent: Intent, player: Player, t: float) -> Decided | None:
    """The other board's decision as its seat's answer to the table (None: a play)."""
    if intent.action not in _DECISIONS:
        return None
    level = GameResult(intent.result) if intent.action is Action.RESIGN else None
    return Decided(player, _DECISIONS[intent.action], t, level)


def make(sim: SimTable, intent: Intent, player: Player) -> None:
    """My seat's intent: press my buttons, or make my play and end the turn with ROLL."""
    action = intent.action
    if action in (Action.OPENING, Action.ROLL, Action.TAKE):
        sim.roll(player)
    elif action in (Action.DOUBLE, Action.DROP):
        sim.cube(player)
    elif action is Action.BEAVER:
        sim.press(player, ROLL, hold=sim.table.config.long_press + 0.2)
    elif action is Action.ACCEPT:
        sim.roll(player)
    elif action is Action.REJECT:
        sim.cube(player)
    elif action is Action.PLAY:
        moves = Played(player, intent.moves).move_values()
        if sim.phase is not Phase.MOVING:
            raise UnmadeIntentError(f"a play came in phase {sim.phase.value}")
        sim.make_play(player, moves)
        sim.roll(player)
        confirm(sim, player, moves)
    else:
        raise UnmadeIntentError(f"{action.value}: the demo's player never resigns")


def make_theirs(sim: SimTable, intent: Intent, player: Player) -> None:
    """The other board's intent, for a seat that is not a person here: a decision goes to
    the table as the seat's answer; a play is lit move by move and the hands here follow
    the lights until the table commits it."""
    action = intent.action
    decision = decided(intent, player, sim.clock())
    if decision is not None:
        sim.driver.dispatch(decision)
        sim.advance()
    elif action is Action.PLAY:
        moves = Played(player, intent.moves).move_values()
        sim.driver.dispatch(Chosen(player, moves, sim.clock()))
        sim.advance()
        # The hands make the play as chosen, in the order the table lights it; a move the
        # sensors cannot see gets the word of the person here (ROLL), so the table never
        # counts it made, nor commits the play, before its checker moved.
        for index, move in enumerate(moves):
            at = sim.table.at
            if not isinstance(at, Guided):
                break
            sim.make_move(player, move)
            if index in at.unseen:
                give_word(sim)
        sim.advance(0.5)  # the board holds still: the tracker reads the whole play
    else:
        raise UnmadeIntentError(f"{action.value}: not a seat's intent")


def confirm(sim: SimTable, player: Player, moves: tuple[Move, ...]) -> None:
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


def decide(sim: SimTable, player: PipPlayer, side: Player, at: int, rng: random.Random) -> Intent:
    """What the demo's player does for ``side`` now (a play: its moves, not yet made)."""
    phase, match = sim.phase, sim.match
    if phase is Phase.OPENING:
        return Intent(at, Action.OPENING)
    if phase is Phase.BEFORE_ROLL:
        wants = match.may_double(side) and player.doubles(sim.table.mover_view_of(side), match)
        return Intent(at, Action.DOUBLE if wants else Action.ROLL)
    if phase is Phase.RESIGN_OFFERED:  # the demo's player takes a resignation offered
        return Intent(at, Action.ACCEPT)
    if phase is Phase.DOUBLED:
        beaver = match.rules.beaver and match.cube * 4 <= match.rules.cube_limit
        answer = player.answer(sim.table.mover_view_of(side), match, beaver)
        return Intent(at, Action(answer))
    if phase is Phase.MOVING and match.dice is not None:
        choice = player.choose(sim.table.mover_view, match, rng)
        return Intent(at, Action.PLAY, Played.of(side, choice.moves).moves)
    raise UnmadeIntentError(f"nothing to decide in phase {phase.value}")
