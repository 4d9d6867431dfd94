"""The roll's frame goes out before the turn's tree of partial plays is built (the first
reading needs no tree), and the driver builds the tree right after, before the hand reaches a
checker, so the first lift does not pay for it."""

from __future__ import annotations

from bgpi.base.words import BLACK, WHITE
from bgpi.journal.records import MatchStarted
from bgpi.sim.simtable import SimOptions, SimTable
from bgpi.table import Moving, Phase


def test_the_tree_is_built_once_the_frame_is_out() -> None:
    sim = SimTable(MatchStarted(5), options=SimOptions(seed=23))
    sim.setup()
    sim.advance(0.5)
    shown: list[bool] = []
    show = sim.pixels.show

    def spy(frame: object) -> None:  # at each frame written: was the tree built already?
        at = sim.driver.table.at
        shown.append(isinstance(at, Moving) and "_lookup" in vars(at.tracker))
        show(frame)  # type: ignore[arg-type]

    sim.pixels.show = spy  # type: ignore[method-assign]
    sim.roll(WHITE)
    sim.roll(BLACK)
    assert sim.phase is Phase.MOVING
    at = sim.table.at
    assert isinstance(at, Moving)
    assert shown and shown[-1] is False  # the dice frame went out before the tree was built
    assert "_lookup" in vars(at.tracker)  # and the tree was built right after it
