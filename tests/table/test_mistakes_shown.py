"""Every mistake explained on the simulated table: the status line, the log (once) and a
brief flash of the points involved on the LEDs, then the guidance to put it right."""

from __future__ import annotations

import logging

import pytest

from bgpi.base.words import BAR_WHITE, BLACK, WHITE
from bgpi.journal.records import MatchStarted
from bgpi.lights import compose
from bgpi.present.status import status
from bgpi.rules import Position
from bgpi.sensing.mistakes import MistakeKind
from bgpi.sim.simtable import SimTable
from bgpi.table import Phase
from bgpi.table.phases import MISTAKE_FLASH
from bgpi.web.view import board_of_sim, state_message
from tests.table.arrange import arrange, fixed_dice

# White's view: a White blot on 19; Black (on roll) has three on printed 17 and five on 18.
BLOT = Position.from_points({6: 5, 8: 3, 13: 5, 19: 1, 24: 1}, {24: 2, 13: 5, 8: 3, 7: 5})


def black_hits_and_leaves_the_blot() -> SimTable:
    """Black rolls 2-1 and plays 17/19 onto White's blot, leaving it there."""
    sim = SimTable(MatchStarted(5))
    fixed_dice(sim, 2, 1)
    arrange(sim, BLOT, BLACK)
    sim.roll(BLACK)
    assert sim.phase is Phase.MOVING
    sim.lift(17, BLACK)
    sim.place(19, BLACK)
    return sim


def test_a_hit_left_undone_is_said_and_lit_on_the_point_and_the_bar() -> None:
    sim = black_hits_and_leaves_the_blot()
    mistake = sim.table.mistake
    assert mistake is not None and mistake.kind is MistakeKind.HIT_UNDONE
    assert status(sim.table, sim.scene).startswith(
        "Black plays 2-1: a hit: put White's checker from 19 on the bar."
    )
    scene = sim.scene
    assert (19, 1) in scene.extra and (BAR_WHITE, 1) in scene.missing
    assert scene.mistake == {19, BAR_WHITE}
    looks = {mark.target: (mark.colour, mark.pattern.name) for mark in compose(scene)}
    assert looks[19] == looks[BAR_WHITE] == ("mistake", "double flash")


def test_the_flash_is_brief_and_gives_way_to_the_guidance() -> None:
    sim = black_hits_and_leaves_the_blot()
    sim.advance(MISTAKE_FLASH + 0.5)
    scene = sim.scene
    assert scene.mistake == frozenset()
    assert (19, 1) in scene.extra and (BAR_WHITE, 1) in scene.missing  # still to put right
    looks = {mark.target: mark.colour for mark in compose(scene)}
    assert looks[19] == "extra" and looks[BAR_WHITE] == "missing"
    assert sim.table.mistake is not None  # the words stay while the board shows it


def test_putting_the_blot_on_the_bar_clears_the_mistake() -> None:
    sim = black_hits_and_leaves_the_blot()
    sim.lift(19, WHITE)
    sim.place(BAR_WHITE, WHITE)
    assert sim.table.mistake is None
    assert sim.scene.mistake == frozenset() and sim.scene.extra == ()
    assert "a hit" not in status(sim.table, sim.scene)


def test_moving_another_checker_with_the_blot_still_there_still_says_the_hit() -> None:
    sim = black_hits_and_leaves_the_blot()
    sim.lift(1, BLACK)
    sim.place(2, BLACK)
    assert "a hit: put White's checker from 19 on the bar" in status(sim.table, sim.scene)


def test_the_log_says_a_mistake_once(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="bgpi"):
        sim = black_hits_and_leaves_the_blot()
        sim.advance(MISTAKE_FLASH + 1)  # many frames and ticks
    said = [r for r in caplog.records if "a hit: put White's checker" in r.getMessage()]
    assert len(said) == 1
    log = state_message(sim.table, board_of_sim(sim.board), sim.driver.log)["log"]
    assert isinstance(log, list)
    mistakes = [entry for entry in log if entry["kind"] == "mistake"]
    assert mistakes == [
        {"text": "Black: a hit: put White's checker from 19 on the bar", "player": BLACK,
         "kind": "mistake"}
    ]  # fmt: skip


def test_a_checker_of_the_opponent_is_named(caplog: pytest.LogCaptureFixture) -> None:
    sim = SimTable(MatchStarted(5))
    fixed_dice(sim, 6, 1)
    arrange(sim, Position.initial(), WHITE)
    sim.roll(WHITE)
    sim.lift(1, BLACK)  # Black's back checker, while White is on roll
    sim.place(3, BLACK)
    assert "that is Black's checker: put it back on 1" in status(sim.table, sim.scene)


def test_a_checker_moved_while_one_waits_on_the_bar() -> None:
    on_bar = Position.from_points({25: 1, 13: 5, 8: 3, 6: 5, 24: 1}, {24: 2, 13: 5, 8: 3, 6: 5})
    sim = SimTable(MatchStarted(5))
    fixed_dice(sim, 6, 1)
    arrange(sim, on_bar, WHITE)
    sim.roll(WHITE)
    sim.lift(13, WHITE)
    sim.place(7, WHITE)
    assert "White's checker on the bar must enter first" in status(sim.table, sim.scene)
    assert sim.scene.mistake == {BAR_WHITE, 13}
