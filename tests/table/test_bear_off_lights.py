"""Bearing off and tall stacks on the simulated table (no tray switches, six slots a point):
the lights follow each checker, a lift the switches cannot see still lights where it may go,
and a bear-off of more checkers than the dice allow is flagged, on ROLL too."""

from __future__ import annotations

import logging

import pytest

from bgpi.base.words import ROLL, TRAY_WHITE, WHITE
from bgpi.journal.records import MatchStarted, Played
from bgpi.present.status import status
from bgpi.rules import Position
from bgpi.sensing.mistakes import MistakeKind
from bgpi.sim.simtable import SimTable
from bgpi.table import Phase
from tests.table.arrange import arrange, fixed_dice

FAR = {13: 5, 12: 5, 11: 5}  # Black, far from White's home
HOME = Position.from_points({6: 3, 5: 3, 4: 3, 3: 3, 2: 3}, FAR)
LOW = Position.from_points({5: 3, 4: 3, 3: 3, 2: 3, 1: 3}, FAR)
ONE_OUT = Position.from_points({8: 1, 6: 4, 5: 4, 3: 3, 2: 3}, FAR)
TALL = Position.from_points({6: 8, 8: 4, 13: 3}, {14: 5, 15: 5, 16: 5})  # 8 on six slots


def white_rolls(position: Position, *dice: int) -> SimTable:
    sim = SimTable(MatchStarted(5))
    fixed_dice(sim, *dice)
    arrange(sim, position, WHITE)
    sim.roll(WHITE)
    assert sim.phase is Phase.MOVING
    return sim


def test_after_a_bear_off_the_lights_follow_the_next_checker() -> None:
    sim = white_rolls(HOME, 4, 2)
    sim.lift(4, WHITE)  # 4/off: the checker goes aside, no switch says where
    assert sim.scene.destinations == {2, TRAY_WHITE}  # it may still be in the hand
    sim.lift(6, WHITE)  # the next checker, for the 2
    scene = sim.scene
    assert scene.lifted == {6} and scene.destinations == {4}  # not 2 nor off any more
    assert scene.dice_left == (2,)
    sim.place(4, WHITE)
    assert sim.scene.destinations == frozenset()  # the play is made: nothing stays lit
    assert sim.scene.prompt(WHITE, ROLL) == "end turn"
    sim.roll(WHITE)
    assert [r for r in sim.driver.log if isinstance(r, Played)][-1].player == WHITE


def test_a_lift_from_a_stack_above_the_slots_still_lights_its_destinations() -> None:
    sim = white_rolls(TALL, 3, 1)
    assert sim.scene.destinations == {5, 3, 2}  # 6/5, 6/3, 6/2: before any switch opens
    sim.lift(6, WHITE)  # eight become seven: all six switches stay closed
    assert sim.scene.destinations == {5, 3, 2}
    sim.place(3, WHITE)  # 6/3 played: the stack (seven) still hides a lift, the 1 is left
    assert sim.scene.destinations == {5}  # 6/5 (a lift from 3 shows, and lights its own)


def test_three_borne_off_with_two_one_is_flagged_and_roll_refused_with_the_reason(
    caplog: pytest.LogCaptureFixture,
) -> None:
    sim = white_rolls(LOW, 2, 1)
    for point in (1, 2, 3):
        sim.lift(point, WHITE)  # two off and one in a hand, as far as the switches know
    assert sim.scene.prompt(WHITE, ROLL) is None  # no play is complete: ROLL is dark
    with caplog.at_level(logging.WARNING, logger="bgpi"):
        sim.roll(WHITE)
    assert sim.phase is Phase.MOVING and not [r for r in sim.driver.log if isinstance(r, Played)]
    mistake = sim.table.mistake
    assert mistake is not None and mistake.kind is MistakeKind.OVERFULL_BEAR_OFF
    line = "3 checkers borne off, but this roll bears off at most 2"
    assert line in status(sim.table, sim.scene)
    assert any(line in record.getMessage() for record in caplog.records)
    assert sim.scene.mistake == {1, 2, 3}  # the points the checkers came from flash


def test_a_bear_off_before_all_are_home_is_named() -> None:
    sim = white_rolls(ONE_OUT, 6, 3)
    sim.lift(3, WHITE)  # no die moves it: it is off, with the checker on 8 still out
    assert status(sim.table, sim.scene).startswith(
        "White plays 6-3: bear-off only with all fifteen home."
    )
    sim.place(3, WHITE)
    assert sim.table.mistake is None
