"""Whose move it is in a remote match, and the other seat's intents made at this board through
the table's seat path: a pure planner and a simulated table, no broker."""

from __future__ import annotations

import random

from bgpi.base.words import BLACK, WHITE
from bgpi.journal.records import (
    GameEnded,
    GameStarted,
    MatchStarted,
    OpeningDie,
    OpeningRolled,
    Played,
    ResignAnswered,
    ResignOffered,
    Rolled,
)
from bgpi.remote.demo import seats_of
from bgpi.remote.hands import decide, make, make_theirs
from bgpi.remote.turns import Next, OutOfStepError, Todo, check_made, intent_of, next_step
from bgpi.remote.wire import Action, Intent
from bgpi.sim.demo import PipPlayer
from bgpi.sim.simtable import SimTable
from bgpi.table import Phase
from tests.table.arrange import fixed_dice

OPENING_31 = ((8, 5, 3, False), (6, 5, 1, False))
REPLY_64 = ((24, 18, 6, False), (13, 9, 4, False))


def board(side: int) -> SimTable:
    sim = SimTable(MatchStarted(3, seats=seats_of(side)))
    sim.setup()
    return sim


def plan(sim: SimTable, side: int, mine: list[Intent], theirs: list[Intent]) -> Next:
    return next_step(sim.table, sim.driver.log, side, mine, theirs)


def test_a_new_board_sets_up_and_white_opens_while_black_waits() -> None:
    fresh = SimTable(MatchStarted(3, seats=seats_of(WHITE)))
    assert plan(fresh, WHITE, [], []).todo is Todo.SET_UP
    white, black = board(WHITE), board(BLACK)
    assert plan(white, WHITE, [], []) == Next(Todo.DECIDE, at=2)
    assert plan(black, BLACK, [], []) == Next(Todo.WAIT, at=2)
    opening = Intent(2, Action.OPENING)
    assert plan(black, BLACK, [], [opening]) == Next(Todo.MAKE_THEIRS, opening, 2)


def test_the_other_seats_opening_roll_and_play_are_made_here_without_its_buttons() -> None:
    sim = board(BLACK)  # this board seats Black; White is the remote board's
    fixed_dice(sim, 3, 1, 6, 4)
    pressed: list[int] = []
    press = sim.buttons.press
    sim.buttons.press = lambda player, button: (pressed.append(player), press(player, button))  # type: ignore[method-assign]
    make_theirs(sim, Intent(2, Action.OPENING), WHITE)
    make(sim, Intent(3, Action.OPENING), BLACK)
    assert sim.driver.log[1:] == [GameStarted(), OpeningDie(WHITE, 3), OpeningDie(BLACK, 1),
                                  OpeningRolled(3, 1)]  # fmt: skip
    assert sim.phase is Phase.MOVING and sim.match.turn == WHITE
    play = Intent(5, Action.PLAY, OPENING_31)
    make_theirs(sim, play, WHITE)
    check_made(sim.driver.log, play, WHITE, mine=False, phase=sim.phase)
    assert sim.driver.log[5] == Played(WHITE, OPENING_31)
    assert sim.phase is Phase.BEFORE_ROLL and sim.match.turn == BLACK
    assert pressed == [BLACK]  # Black's opening die; no button of White's was pressed here


def test_my_play_is_sent_once_committed_and_an_intent_sent_before_a_restart_is_made() -> None:
    sim = board(WHITE)
    fixed_dice(sim, 3, 1)
    mine = [Intent(2, Action.OPENING)]
    assert plan(sim, WHITE, mine, []) == Next(Todo.REDO_MINE, mine[0], 2)
    make(sim, mine[0], WHITE)
    make_theirs(sim, Intent(3, Action.OPENING), BLACK)
    assert plan(sim, WHITE, mine, []) == Next(Todo.DECIDE, at=5)
    make(sim, Intent(5, Action.PLAY, OPENING_31), WHITE)
    assert plan(sim, WHITE, mine, []) == Next(Todo.SEND_OWED, Intent(5, Action.PLAY, OPENING_31), 5)
    mine.append(Intent(5, Action.PLAY, OPENING_31))
    assert plan(sim, WHITE, mine, []) == Next(Todo.WAIT, at=6)


def test_a_play_made_here_other_than_sent_is_out_of_step() -> None:
    sim = board(BLACK)
    fixed_dice(sim, 3, 1)
    make_theirs(sim, Intent(2, Action.OPENING), WHITE)
    make(sim, Intent(3, Action.OPENING), BLACK)
    make_theirs(sim, Intent(5, Action.PLAY, OPENING_31), WHITE)
    other = Intent(5, Action.PLAY, ((13, 10, 3, False), (24, 23, 1, False)))
    try:
        check_made(sim.driver.log, other, WHITE, mine=False, phase=sim.phase)
    except OutOfStepError as exc:
        assert str(exc).startswith("play at record 5 made Played(player=0")
    else:
        raise AssertionError("a different play passed")
    assert isinstance(sim.driver.log[3], OpeningDie) and not isinstance(sim.driver.log[5], Rolled)


def test_a_resignation_from_the_other_board_is_offered_here_and_answered() -> None:
    sim = board(BLACK)
    fixed_dice(sim, 3, 1)
    make_theirs(sim, Intent(2, Action.OPENING), WHITE)
    make(sim, Intent(3, Action.OPENING), BLACK)
    offer = Intent(5, Action.RESIGN, result=2)  # White, on roll, resigns a gammon
    mine = [Intent(3, Action.OPENING)]
    assert plan(sim, BLACK, mine, [offer]) == Next(Todo.MAKE_THEIRS, offer, 5)
    make_theirs(sim, offer, WHITE)
    check_made(sim.driver.log, offer, WHITE, mine=False, phase=sim.phase)
    assert sim.driver.log[5] == ResignOffered(WHITE, 2)
    assert sim.phase is Phase.RESIGN_OFFERED
    assert plan(sim, BLACK, mine, [offer]).todo is Todo.DECIDE
    answer = decide(sim, PipPlayer(), BLACK, 6, random.Random(0))
    assert answer == Intent(6, Action.ACCEPT)
    make(sim, answer, BLACK)
    assert sim.driver.log[6] == ResignAnswered(BLACK, True)
    assert isinstance(sim.driver.log[7], GameEnded) and sim.driver.log[7].winner == BLACK
    assert intent_of(sim.driver.log[6], 6, BLACK) == answer
    assert intent_of(sim.driver.log[5], 5, WHITE) == offer
