"""On the simulated board, through the driver: the last checker dropped and ROLL slapped in
one motion, while its reed contact still chatters, ends the turn once the board settles, and
no refusal is said; ROLL on a play truly incomplete is still refused."""

from __future__ import annotations

import logging

import pytest

from bgpi.base.words import BLACK, ROLL, WHITE
from bgpi.journal.records import MatchStarted, Played
from bgpi.sim.simtable import SimOptions, SimTable
from bgpi.table import Moving, Phase, settling
from tests.table.arrange import fixed_dice

BOUNCE = 0.015  # the contact under the checker chatters this long after it lands


def opened() -> SimTable:
    """White won the opening 3-1, on a board whose contacts bounce; 8/5 made, and the
    checker of 6/5 in the hand."""
    sim = SimTable(MatchStarted(5), options=SimOptions(seed=7, bounce=BOUNCE))
    fixed_dice(sim, 3, 1)
    sim.setup()
    sim.roll(WHITE)
    sim.roll(BLACK)
    assert sim.phase is Phase.MOVING and sim.match.turn == WHITE
    sim.lift(8, WHITE)
    sim.place(5, WHITE)
    sim.lift(6, WHITE)
    return sim


def refusals(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.getMessage().startswith("refused")]


def test_roll_slapped_as_the_last_checker_lands_ends_the_turn(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="bgpi")
    sim = opened()
    sim.board.place(5, WHITE)  # the last checker lands...
    sim.advance(0.005)  # ...its contact closes and chatters
    assert settling.unsettled(sim.table, sim.clock())  # the board has not settled yet
    sim.buttons.press(WHITE, ROLL)  # ...and ROLL goes down in the same motion
    sim.advance(0.005)
    at = sim.table.at
    assert isinstance(at, Moving) and at.pressed is not None  # waiting for the board
    sim.buttons.release(WHITE, ROLL)
    sim.advance(0.3)
    assert refusals(caplog) == []
    assert sim.phase is Phase.BEFORE_ROLL and sim.match.turn == BLACK
    assert sim.driver.log[-1] == Played(WHITE, ((8, 5, 3, False), (6, 5, 1, False)))


def test_roll_pressed_with_a_checker_still_in_hand_is_refused(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="bgpi")
    sim = opened()
    sim.roll(WHITE)  # the checker of 6/5 still in the hand: nothing to settle
    assert refusals(caplog) == [
        "refused: White's ROLL does nothing: bear-off only with all fifteen home"
    ]  # a checker the sensors miss when the play is said to be made: borne off, too early
    assert sim.phase is Phase.MOVING


def test_roll_slapped_as_a_checker_lands_short_of_the_play_is_refused_once_settled(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="bgpi")
    sim = opened()
    sim.place(6, WHITE)  # put back where it was: the 1 still to play
    sim.lift(6, WHITE)
    sim.board.place(6, WHITE)
    sim.advance(0.005)
    assert settling.unsettled(sim.table, sim.clock())
    sim.buttons.press(WHITE, ROLL)
    sim.advance(0.005)
    assert refusals(caplog) == []  # not yet: the board has not settled
    sim.buttons.release(WHITE, ROLL)
    sim.advance(0.3)
    said = [
        "refused: White's ROLL does nothing: the play is not complete: the 1 can still be "
        "played (e.g. 24/23)"
    ]
    assert refusals(caplog) == said
    assert sim.phase is Phase.MOVING and sim.match.turn == WHITE
    sim.roll(WHITE)  # pressed again on the settled board: refused at once, in the same words
    assert refusals(caplog) == said * 2
