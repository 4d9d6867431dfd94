"""The GoDice pair wired to the board, on the simulated table: its words reach the table
through the edge like any backend's, from the link's own event loop; a die lost mid-throw
turns the roll to entered dice (said on the page) and the board reads the dice again once
the link brought it back."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bgpi.base.words import BLACK
from bgpi.journal.records import DiceSource, MatchStarted, Rethrown, Rolled, Unfit
from bgpi.present.leds import scene_of
from bgpi.present.status import status
from bgpi.sensing.godice import Rest
from bgpi.sim.godice import throw
from bgpi.sim.simtable import SimOptions, SimTable
from bgpi.table import Entering, Phase, Rolling
from bgpi.web.view import dice_message, state_message
from tests.table.test_buttons import opened

GODICE = DiceSource.GODICE


@pytest.fixture
def sim() -> Iterator[SimTable]:
    """Black on roll in a match of GoDice, the simulated pair paired to the board."""
    table = SimTable(opened(MatchStarted(5, dice=GODICE)), options=SimOptions(godice=True))
    yield table
    table.close()


def test_a_throw_read_from_the_pair_is_black_s_roll(sim: SimTable) -> None:
    assert sim.godice is not None
    sim.roll(BLACK)
    assert sim.phase is Phase.ROLLING
    throw(sim.godice, (6, 4), BLACK, random.Random(1))
    sim.advance()
    assert sim.driver.log[-1] == Rolled(BLACK, (6, 4), GODICE)  # die 1's first
    assert sim.phase is Phase.MOVING


def test_a_cocked_die_asks_for_the_throw_again_on_the_page_and_the_leds(sim: SimTable) -> None:
    assert sim.godice is not None
    sim.roll(BLACK)
    throw(sim.godice, (5, 2), BLACK, random.Random(1), Rest.TILT_STABLE)
    sim.advance()
    (again,) = [r for r in sim.driver.log if isinstance(r, Rethrown)]
    assert again.player == BLACK and again.why is Unfit.COCKED
    assert scene_of(sim.table).alert is not None
    page = state_message(sim.table, (), sim.driver.log)
    assert str(page["status"]).startswith(f"Die {again.die} came to rest cocked: roll again.")
    assert page["log"][-1]["text"] == f"Black's die {again.die} came to rest cocked: roll again"  # type: ignore[index]
    assert dice_message(sim.table)["throwing"] == {
        "player": BLACK,
        "count": 2,
        "again": {"die": again.die, "why": "cocked"},
        "enterer": BLACK,  # the thrower may enter this roll by hand on the page instead
    }
    throw(sim.godice, (5, 2), BLACK, random.Random(2))
    sim.advance()
    assert isinstance(sim.driver.log[-1], Rolled) and sim.phase is Phase.MOVING


def test_a_die_lost_mid_throw_is_entered_meanwhile_and_read_again_once_back(
    sim: SimTable,
) -> None:
    assert sim.godice is not None
    sim.roll(BLACK)
    first, _second = sim.godice.fakes
    sim.godice.say(first.rolling())
    sim.godice.drop(1, refusals=2)  # gone as it rolls, and out of reach for two tries
    sim.advance()
    at = sim.table.at
    lost = status(sim.table, scene_of(sim.table))
    assert isinstance(at, Entering) and at.player == BLACK
    assert lost.startswith("Die 2 (blue) is gone: the dice are entered with the buttons")
    sim.godice.quiet()  # the link tried again and the die is back
    sim.advance()
    back = sim.table.at
    assert isinstance(back, Rolling) and back.thrown and sim.table.faults == ()
    throw(sim.godice, (3, 1), BLACK, random.Random(3))
    sim.advance()
    assert isinstance(sim.driver.log[-1], Rolled) and sim.driver.log[-1].source is GODICE
