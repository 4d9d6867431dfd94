"""The clock's arithmetic: the U.S. Backgammon Clock Rules' reserve at each score and simple
delay, and the settings named beside them (a Bronstein delay, a plain per-move limit)."""

from __future__ import annotations

import pytest

from bgpi.rules import InvalidMatchError
from bgpi.rules.clock import Clock, ClockMode, ClockRules

USBGF = ClockRules(ClockMode.USBGF)


@pytest.mark.parametrize(
    ("length", "score", "minutes"),
    [(5, (0, 0), 10), (5, (2, 1), 7), (5, (4, 4), 2), (1, (0, 0), 2), (11, (10, 3), 9)],
)
def test_the_reserve_is_two_minutes_a_match_point_less_one_a_point_scored(
    length: int, score: tuple[int, int], minutes: int
) -> None:
    clock = Clock(USBGF).new_game(length, score)
    assert clock.reserve == (minutes * 60.0, minutes * 60.0)
    assert clock.running is None


def test_a_move_within_the_simple_delay_costs_no_reserve_and_a_longer_one_its_excess() -> None:
    clock = Clock(USBGF).new_game(3, (0, 0)).hit(100.0, 0)  # White's clock starts at 100 s
    assert clock.left(0, 111.0) == 360.0 and clock.delay_left(111.0) == 1.0
    clock = clock.hit(111.0, 1)  # 11 s: within the delay
    assert clock.reserve == (360.0, 360.0) and clock.running == 1
    clock = clock.hit(141.0, 0)  # Black took 30 s: 18 s over the delay
    assert clock.reserve == (360.0, 342.0)


def test_a_bronstein_delay_runs_the_reserve_at_once_and_gives_the_delay_back() -> None:
    clock = Clock(ClockRules(ClockMode.BRONSTEIN)).new_game(3, (0, 0)).hit(0.0, 0)
    assert clock.left(0, 10.0) == 350.0  # running down from the first second
    assert clock.hit(10.0, 1).reserve == (360.0, 360.0)  # all 10 s given back
    assert clock.hit(30.0, 1).reserve == (342.0, 360.0)  # 12 of the 30 s given back
    assert clock.deadline() == 360.0  # the flag falls when the reserve alone is spent


def test_a_per_move_limit_has_no_reserve_and_a_flag_falls_past_the_limit() -> None:
    clock = Clock(ClockRules(ClockMode.PER_MOVE, per_move=45)).new_game(7, (0, 0)).hit(0.0, 1)
    assert clock.reserve == (0.0, 0.0)
    assert clock.fallen(45.0) is None and clock.fallen(45.5) == 1
    assert clock.hit(44.0, 0).reserve == (0.0, 0.0)


def test_the_flag_falls_after_the_delay_and_the_reserve_are_spent() -> None:
    clock = Clock(USBGF).new_game(1, (0, 0)).hit(0.0, 1)
    assert clock.deadline() == 132.0
    assert clock.fallen(132.0) is None and clock.fallen(132.1) == 1
    assert clock.left(0, 500.0) == 120.0  # the other clock does not run


def test_overtime_is_a_new_reserve_once() -> None:
    rules = ClockRules(ClockMode.USBGF, overtime=60)
    clock = Clock(rules).new_game(1, (0, 0)).hit(0.0, 0).give_overtime(0, 140.0)
    assert clock.reserve == (60.0, 120.0) and clock.overtime_given == (True, False)
    assert clock.deadline() == 140.0 + 12 + 60


def test_a_clock_resumed_after_a_power_cut_neither_adds_nor_takes_time() -> None:
    clock = Clock(USBGF).new_game(3, (0, 0)).hit(0.0, 0)
    before = clock.left(0, 40.0)  # 40 s into White's move, then the power goes
    resumed = Clock(USBGF).resumed(clock.reserve, 0, clock.used(40.0)).started(1000.0)
    assert resumed.left(0, 1000.0) == before == 332.0
    assert resumed.left(0, 1010.0) == before - 10


def test_settings_that_are_not_a_clock_are_refused() -> None:
    with pytest.raises(InvalidMatchError, match="clock 'hourglass' is not one of off, usbgf"):
        ClockRules("hourglass")  # type: ignore[arg-type]
    with pytest.raises(InvalidMatchError, match="clock per_move -1 is not 0 seconds or more"):
        ClockRules(ClockMode.USBGF, per_move=-1)


@pytest.mark.parametrize("mode", list(ClockMode)[1:])
def test_a_paused_clock_counts_nothing_and_runs_on_with_the_time_it_had_used(
    mode: ClockMode,
) -> None:
    clock = Clock(ClockRules(mode, per_move=12.0)).new_game(1, (0, 0)).hit(100.0, 0)
    paused = clock.pause(105.0)
    assert paused.pause(999.0) == paused and paused.started(500.0) == paused
    assert paused.used(10_000.0) == 5.0 and paused.deadline() is None
    assert paused.fallen(10_000.0) is None
    assert paused.left(0, 10_000.0) == clock.left(0, 105.0)
    again = paused.run_on(200.0)
    assert not again.paused and again.run_on(300.0) == again
    assert again.used(207.0) == 12.0 and again.delay_left(207.0) == 0.0  # 5 s + 7 s: no new delay
    assert again.left(0, 230.0) == clock.left(0, 135.0)
    deadline, before = again.deadline(), clock.deadline()
    assert deadline is not None and before is not None and deadline == before + 95.0


def test_a_hit_while_paused_hands_over_a_move_that_waits_to_start() -> None:
    clock = Clock(USBGF).new_game(3, (0, 0)).hit(100.0, 0).pause(130.0)
    handed = clock.hit(400.0, 1)  # decided elsewhere: White's 30 s charged, not the outage's
    assert handed.reserve == (342.0, 360.0) and handed.running == 1
    assert handed.paused and handed.since is None and handed.deadline() is None
    assert handed.run_on(500.0).since == 500.0
