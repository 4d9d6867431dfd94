"""The clock stops while the board's sensors are down (no press counts, so nobody could hit
it) and runs on from where it stood once they are back: the running move keeps the time it
had used, its delay is not given again, no flag falls meanwhile, the LEDs' bar and the status
line show it stopped, and a power cut during the pause resumes it as it stood."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bgpi.base.faults import FaultSource
from bgpi.base.geometry import Geometry
from bgpi.base.words import BLACK, WHITE
from bgpi.hal.api import FaultEvent
from bgpi.journal.records import Clocked, CubeAction, FlagFell, MatchStarted, Played, Seat
from bgpi.present.leds import scene_of
from bgpi.present.status import status
from bgpi.rules.clock import Clock, ClockMode, ClockRules
from bgpi.sensing.board import capacities
from bgpi.sim.simtable import SimTable
from bgpi.table import Fault, Phase, Table, TableConfig, Tick
from bgpi.table.buttons import Intent
from bgpi.table.seats import Decided
from tests.table.test_buttons import CONFIG
from tests.table.test_buttons import opened as opened_by
from tests.table.test_clock_leds import lit
from tests.table.test_play import opened

USBGF = ClockRules(ClockMode.USBGF)
ONE_POINT = MatchStarted(1, clock=USBGF)  # two minutes' reserve each, a 12 s delay


def running_clock(sim: SimTable) -> Clock:
    clock = sim.table.clock
    assert clock is not None and clock.running is not None
    return clock


def falls(sim: SimTable) -> list[FlagFell]:
    return [record for record in sim.driver.log if isinstance(record, FlagFell)]


def test_the_clock_stops_while_the_sensors_are_down_and_runs_on_from_where_it_stood() -> None:
    sim = opened(3, 1, ONE_POINT)  # White won the opening: White's clock runs
    start = running_clock(sim).since
    assert start is not None
    sim.think(5.0)  # five seconds of White's delay used
    down = sim.clock()
    sim.board.fail("reading the sensor chain failed")
    sim.advance()
    clock = running_clock(sim)
    assert clock.paused and clock.running == WHITE and clock.since is None
    assert clock.used(down) == pytest.approx(down - start)
    # An hour with the board dark: nothing counts, no flag falls, nothing is journaled.
    journaled = len(sim.driver.log)
    sim.think(3600.0)
    assert falls(sim) == [] and len(sim.driver.log) == journaled
    assert sim.table.clock == clock and sim.table.clock.deadline() is None
    assert sim.table.clock.left(WHITE, sim.clock()) == 120.0  # still in the delay
    sim.roll(WHITE)  # his press counts for nothing, and starts nothing
    assert sim.table.clock == clock and sim.phase is Phase.MOVING
    sim.board.recover()
    back = sim.clock()
    sim.advance()
    clock = running_clock(sim)
    assert not clock.paused and clock.since == back
    # The move goes on with the 5 s it had used: 7 s of delay left, not 12 again.
    used = down - start
    assert clock.delay_left(back) == pytest.approx(12.0 - used)
    deadline = clock.deadline()
    assert deadline is not None and deadline == pytest.approx(back - used + 12.0 + 120.0)
    # The first record after it journals the move's time without the outage.
    sim.think(10.0)  # past the delay: the rest comes off the reserve
    sim.lift(8, WHITE)
    sim.place(5, WHITE)
    sim.lift(6, WHITE)
    sim.place(5, WHITE)
    pressed = sim.clock()
    sim.roll(WHITE)
    played = next(n for n, r in enumerate(sim.driver.log) if isinstance(r, Played))
    clocked = sim.driver.log[played + 1]
    assert isinstance(clocked, Clocked) and clocked.running == BLACK
    spent = used + (pressed - back)  # an hour of outage is none of it
    assert 12.0 < spent < 30.0
    assert clocked.reserve[WHITE] == pytest.approx(120.0 - (spent - 12.0), abs=0.3)


def test_a_flag_due_during_the_outage_does_not_fall_until_its_time_has_run_after_it() -> None:
    sim = opened(3, 1, ONE_POINT)
    start = running_clock(sim).since
    assert start is not None
    sim.think(start + 100.0 - sim.clock())  # 32 s before White's flag would fall
    sim.board.fail("no answer")
    sim.advance()
    sim.think(600.0)
    assert falls(sim) == [] and sim.phase is Phase.MOVING
    assert sim.driver.deadline(sim.clock()) != running_clock(sim).deadline()  # no flag to tick
    sim.board.recover()
    sim.advance()
    back = running_clock(sim).since
    assert back is not None
    sim.think(back + 31.0 - sim.clock())
    assert falls(sim) == []
    sim.think(2.0)
    assert falls(sim) == [FlagFell(WHITE)] and sim.phase is Phase.MATCH_OVER


def test_the_bar_stands_still_and_steady_while_the_clock_is_stopped() -> None:
    sim = opened(3, 1, ONE_POINT)
    start = running_clock(sim).since
    assert start is not None
    sim.think(start + 12.0 + 70.0 - sim.clock())  # 50 s of the reserve left: it blinks
    shown = set()
    for _ in range(8):
        sim.advance(0.125)
        shown.add(lit(sim, "clock.white"))
    assert shown == {0, 5}
    sim.board.fail("no answer")
    sim.advance()
    white = scene_of(sim.table, sim.clock()).clocks[WHITE]
    assert white is not None and not white.low and not white.delay
    assert white.left == pytest.approx(49.0 / 120, abs=0.01)
    shown = set()
    for _ in range(40):  # ten seconds: the running bar would have lost a pixel and blinked
        sim.advance(0.25)
        shown.add(lit(sim, "clock.white"))
    assert shown == {5} and lit(sim, "clock.black") == 10
    sim.board.recover()
    sim.advance()
    shown = set()
    for _ in range(8):
        sim.advance(0.125)
        shown.add(lit(sim, "clock.white"))
    assert shown == {0, 5}  # running again, in its last minute


def test_the_status_line_says_the_clock_is_stopped_while_the_sensors_are_down() -> None:
    sim = opened(3, 1, ONE_POINT)
    sim.board.fail("reading the sensor chain failed")
    sim.advance()
    assert status(sim.table, sim.scene) == (
        "The sensors stopped answering (reading the sensor chain failed): no press counts and"
        " the clock is stopped until they are back, and then the board is read as it stands"
        " and the clock runs on."
    )
    sim.board.recover()
    sim.advance()
    assert "sensors" not in status(sim.table, sim.scene)


def test_a_power_cut_during_the_pause_resumes_the_clock_as_it_stood() -> None:
    sim = opened(3, 1, MatchStarted(3, clock=USBGF))
    sim.think(4.0)
    sim.board.fail("no answer")
    sim.advance()
    sim.think(900.0)  # the power goes during the outage: the journal is all that is left
    records = list(sim.driver.log)
    journaled = records[-1]
    assert isinstance(journaled, Clocked) and journaled.running == WHITE
    config = TableConfig(capacities(Geometry.default()))
    table = Table.replay(config, records)
    # The sensors are still down after the restart: the first event says so, and the clock
    # stands where the journal left it, however long the board stays dark.
    table = table.handle(Fault(FaultSource.SENSORS, "no answer", 5000.0)).table
    clock = table.clock
    assert clock is not None and clock.paused and clock.running == WHITE
    step = table.handle(Tick(9000.0))
    assert step.records == () and step.table.clock == clock
    after = step.table.handle(Fault(FaultSource.SENSORS, None, 9100.0)).table.clock
    assert after is not None and not after.paused and after.since == 9100.0
    assert after.used(9100.0) == journaled.used and after.reserve == journaled.reserve
    deadline = after.deadline()
    assert deadline == pytest.approx(9100.0 - journaled.used + 12.0 + journaled.reserve[WHITE])


def test_a_fault_told_after_the_flag_fell_is_kept_and_stops_the_overtime() -> None:
    sim = opened(3, 1, MatchStarted(1, clock=ClockRules(ClockMode.USBGF, overtime=60.0)))
    table = sim.table
    clock = running_clock(sim)
    deadline = clock.deadline()
    assert deadline is not None
    # The fault reaches the table before the tick at the flag's deadline did.
    step = table.handle(Fault(FaultSource.SENSORS, "no answer", deadline + 1.0))
    assert step.records[0] == FlagFell(WHITE, overtime=True)
    assert step.table.sensors_down
    clock = step.table.clock
    assert clock is not None and clock.paused and clock.reserve[WHITE] == 60.0
    later = step.table.handle(Tick(deadline + 500.0))
    assert later.records == () and later.table.clock == clock


@pytest.mark.parametrize("source", [FaultSource.REMOTE, FaultSource.GODICE])
def test_only_the_sensors_stop_the_clock(source: FaultSource) -> None:
    sim = opened(3, 1, ONE_POINT)
    since = running_clock(sim).since
    sim.take(FaultEvent(source, "gone", sim.clock()))
    sim.advance()
    clock = running_clock(sim)
    assert sim.table.down(source) == "gone"
    assert not clock.paused and clock.since == since


def test_a_double_decided_elsewhere_meanwhile_hands_over_the_clock_stopped() -> None:
    # White (a person here) opened; Black, the engine, is on roll. The engine decides on the
    # journal's position while the sensors are down, and its double hits the clock as ever:
    # White's move, to take or drop, waits to start until the sensors are back.
    records = [*opened_by(MatchStarted(5, clock=USBGF)), Clocked((590.0, 600.0), BLACK, 0.0)]
    table = replace(Table.replay(CONFIG, records), seats=(Seat.PERSON, Seat.ENGINE))
    table = table.handle(Tick(100.0)).table  # the clock runs again after the replay
    table = table.handle(Fault(FaultSource.SENSORS, "no answer", 103.0)).table
    step = table.handle(Decided(BLACK, Intent.DOUBLE, 200.0))
    assert isinstance(step.records[0], CubeAction)
    # Black's 3 s before the outage were in his delay: his reserve is whole.
    assert step.records[-1] == Clocked((590.0, 600.0), WHITE, 0.0)
    clock = step.table.clock
    assert clock is not None and clock.paused and clock.running == WHITE
    assert clock.since is None and clock.deadline() is None
    back = step.table.handle(Fault(FaultSource.SENSORS, None, 900.0)).table.clock
    assert back is not None and back.since == 900.0 and back.delay_left(900.0) == 12.0
