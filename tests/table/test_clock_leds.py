"""The clock on the simulated board's LEDs: a bar of pixels per player for the reserve, the
running one shrinking pixel by pixel as its time goes, rendered when it changes and not
between; and a board whose map has no pixels for it plays on the clock all the same."""

from __future__ import annotations

from bgpi.base.words import BLACK, WHITE
from bgpi.journal.records import FlagFell, MatchStarted
from bgpi.lights.ledmap import LedMap
from bgpi.rules.clock import ClockMode, ClockRules
from bgpi.sim.simtable import SimTable
from tests.table.arrange import fixed_dice
from tests.table.test_play import opened

ONE_POINT = MatchStarted(1, clock=ClockRules(ClockMode.USBGF))  # two minutes each
DEFAULT = LedMap.default()


def lit(sim: SimTable, area: str) -> int:
    frame = sim.driver.frame
    assert frame is not None
    return sum(frame[pixel] != (0, 0, 0) for pixel in DEFAULT.pixels(area))


def test_the_running_bar_shrinks_a_pixel_a_tenth_of_the_reserve_and_blinks_at_the_end() -> None:
    sim = opened(3, 1, ONE_POINT)  # White won the opening: White's clock runs
    assert (lit(sim, "clock.white"), lit(sim, "clock.black")) == (10, 10)
    assert sim.table.clock is not None and sim.table.clock.since is not None
    start = sim.table.clock.since  # when the opening roll started White's clock
    # The delay first (12 s: nothing spent, the bar dim in the delay's colour), then each
    # 12 s of the 120 s reserve takes a pixel.
    delay_frame = sim.driver.frame
    sim.think(start + 12.5 - sim.clock())
    assert lit(sim, "clock.white") == 10 and sim.driver.frame != delay_frame
    sim.think(12.0)
    assert lit(sim, "clock.white") == 9 and lit(sim, "clock.black") == 10
    # The driver's next deadline is the bar's next pixel (the flag and the blinks are later).
    due = sim.driver.deadline(sim.clock())
    assert due is not None and abs(due - (start + 12 + 24)) < 1e-3
    composed = sim.driver.frames_composed
    sim.think(11.0)  # nothing changes meanwhile: no frame is even composed
    assert sim.driver.frames_composed == composed and lit(sim, "clock.white") == 9
    sim.think(1.2)
    assert lit(sim, "clock.white") == 8 and sim.driver.frames_composed == composed + 1
    sim.think(start + 12 + 60 - sim.clock() - 0.5)  # 60.5 s left: steady yet
    assert lit(sim, "clock.white") == 6
    due = sim.driver.deadline(sim.clock())
    assert due is not None and abs(due - (start + 12 + 60)) < 1e-3  # the blink's start
    sim.think(1.5)  # 59 s left: into the last minute, where the bar blinks
    shown = set()
    for _ in range(8):
        sim.advance(0.125)
        shown.add(lit(sim, "clock.white"))
    assert shown == {0, 5}


def test_a_board_with_no_pixels_for_the_clock_plays_on_the_clock_without_its_bars() -> None:
    config = DEFAULT.to_config()
    areas = config["areas"]
    assert isinstance(areas, dict)
    del areas["clock.white"], areas["clock.black"]
    config["length"] = 244
    older = LedMap.from_config(config)
    sim = SimTable(ONE_POINT, ledmap=older)
    fixed_dice(sim, 3, 1)
    sim.setup()
    sim.roll(WHITE)
    sim.roll(BLACK)
    assert sim.table.clock is not None and sim.table.clock.running is not None
    frame = sim.driver.frame
    assert frame is not None and len(frame) == 244
    same = SimTable(MatchStarted(1), ledmap=older)  # unclocked: the same frame otherwise
    fixed_dice(same, 3, 1)
    same.setup()
    same.roll(WHITE)
    same.roll(BLACK)
    assert frame == same.driver.frame
    assert sim.driver.deadline(sim.clock()) == sim.table.clock.deadline()  # only the flag's


def test_under_a_per_move_limit_the_bar_counts_the_overtime_after_the_limit_as_the_page_does() -> (
    None
):
    # A 40 s limit a move and 80 s of overtime once: after White's first fall the bar stands
    # for the 120 s the move then has, the limit first and the overtime after it.
    rules = ClockRules(ClockMode.PER_MOVE, per_move=40.0, overtime=80.0)
    sim = opened(3, 1, MatchStarted(1, clock=rules))  # White's clock runs
    assert sim.table.clock is not None and sim.table.clock.since is not None
    sim.think(sim.table.clock.since + 40.5 - sim.clock())
    assert [r for r in sim.driver.log if isinstance(r, FlagFell)] == [FlagFell(WHITE, True)]
    clock = sim.table.clock
    assert clock is not None and clock.running == WHITE and clock.since is not None
    start = clock.since  # the fall: the move starts again, with the overtime given
    assert (lit(sim, "clock.white"), lit(sim, "clock.black")) == (10, 10)
    # The limit used up, the overtime's 80 s of 120 are left: 7 pixels of 10, not an empty
    # bar, and the bar's next change is a pixel's 12 s on, not the flag's fall.
    sim.think(start + 41.0 - sim.clock())
    assert lit(sim, "clock.white") == 7 and lit(sim, "clock.black") == 10
    due = sim.driver.deadline(sim.clock())
    assert due is not None and abs(due - (start + 48.0)) < 1e-3
    # The last quarter of the 120 s (30 s) blinks, and the second fall ends the match.
    sim.think(start + 91.0 - sim.clock())
    shown = set()
    for _ in range(8):
        sim.advance(0.125)
        shown.add(lit(sim, "clock.white"))
    assert shown == {0, 3}
    sim.think(start + 121.0 - sim.clock())
    assert [r for r in sim.driver.log if isinstance(r, FlagFell)][-1] == FlagFell(WHITE)
