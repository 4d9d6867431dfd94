"""A frame is composed only when what it shows changes: a switch that chatters for less than
the settle time, and raw changes on their way to settling, cost no render at all."""

from __future__ import annotations

from bgpi.base.frame import SensorFrame
from bgpi.base.words import WHITE
from bgpi.hal.api import SensorEvent
from bgpi.journal.records import MatchStarted
from bgpi.sim.simtable import SimOptions, SimTable
from bgpi.table import Phase


def ready() -> SimTable:
    sim = SimTable(MatchStarted(5), options=SimOptions(seed=23, bounce=0.01))
    sim.setup()
    sim.advance(0.5)
    sim.roll(WHITE)
    sim.roll(1)
    sim.advance(0.5)
    assert sim.phase is Phase.MOVING
    return sim


def chatter(sim: SimTable, bit: int, start: float, changes: int, gap: float) -> None:
    """The switch ``bit`` flips ``changes`` times, ``gap`` seconds apart, as a worn reed or a
    checker nudged on its slot does, ending where it began; then half a second passes."""
    frame = sim.board.read()
    for k in range(changes + (changes % 2)):
        bits = frame.bits ^ (1 << bit) if k % 2 == 0 else frame.bits
        sim.take(SensorEvent(SensorFrame(bits, frame.nbits, start + k * gap)))
    for k in range(1, 51):
        sim.driver.tick(start + k * 0.01)


def test_a_bouncing_switch_costs_no_render() -> None:
    # The same half second at the table twice, once with the 13 point's top checker's switch
    # chattering for less than the settle time: only blinking lights may compose frames, as
    # many either way.
    quiet, noisy = ready(), ready()
    start = quiet.clock() + 0.01
    bit = noisy.geometry.bit_of(13, 4)
    composed = quiet.driver.frames_composed
    chatter(quiet, bit, start, 0, 0.005)
    blinks = quiet.driver.frames_composed - composed

    composed = noisy.driver.frames_composed
    chatter(noisy, bit, start, 8, 0.004)  # 32 ms of chatter, settle is 40 ms
    assert noisy.driver.frames_composed - composed == blinks


def test_a_settled_change_is_rendered_once_it_shows() -> None:
    sim = ready()
    composed = sim.driver.frames_composed
    sim.lift(13, WHITE)  # the checker in the hand: its destinations light
    sim.advance(0.5)
    assert sim.driver.frames_composed > composed
    assert sim.driver.frames_composed - composed <= 3  # the lift, not each raw change
