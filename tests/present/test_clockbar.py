"""The clock on the LEDs, pure: each player's bar is the reserve left as a share of the
game's reserve at every score of a match, dim in the delay's colour while the delay runs,
blinking in the running player's last minute; and the time the bar next changes is exactly
when one pixel fewer is lit."""

from __future__ import annotations

import pytest

from bgpi.base.words import BLACK, WHITE
from bgpi.lights import ClockBar, Fill
from bgpi.present.clockbar import bar_change, clock_bar, clock_bars, full_bar
from bgpi.rules.clock import Clock, ClockMode, ClockRules
from bgpi.web.view import clock_shown

USBGF = ClockRules(ClockMode.USBGF)
LENGTH = 7
SCORES = [(white, black) for white in range(LENGTH) for black in range(LENGTH)]


def lit(bar: ClockBar | None, size: int = 10) -> int:
    return 0 if bar is None else len(Fill(bar.left).positions(size))


@pytest.mark.parametrize("score", SCORES)
def test_a_full_bar_is_the_games_reserve_at_each_score_and_shows_what_is_left(
    score: tuple[int, int],
) -> None:
    full = 60.0 * (2 * LENGTH - sum(score))  # 2 minutes a match point less 1 a point scored
    clock = Clock(USBGF).new_game(LENGTH, score)
    assert full_bar(clock, LENGTH, score, WHITE) == full == clock.reserve[WHITE]
    assert clock_bars(clock, LENGTH, score, 0.0) == (ClockBar(1.0), ClockBar(1.0))
    # White's clock runs at 0: within the 12 s delay nothing is spent; then it is.
    running = clock.hit(0.0, WHITE)
    assert clock_bar(running, LENGTH, score, WHITE, 5.0) == ClockBar(1.0, delay=True)
    spent = full / 2
    half = clock_bar(running, LENGTH, score, WHITE, 12.0 + spent)
    assert half is not None and half.left == pytest.approx(0.5) and not half.delay
    assert half.low is (full / 2 < 60)
    assert clock_bar(running, LENGTH, score, BLACK, 12.0 + spent) == ClockBar(1.0)
    # The last minute blinks, and only on the running player's bar.
    assert not clock_bar(running, LENGTH, score, WHITE, 12.0 + full - 61).low  # type: ignore[union-attr]
    assert clock_bar(running, LENGTH, score, WHITE, 12.0 + full - 59).low  # type: ignore[union-attr]
    handed = running.hit(12.0 + full - 59, BLACK)
    assert clock_bar(handed, LENGTH, score, WHITE, 12.0 + full) == ClockBar(59 / full)


def test_a_bronstein_bar_runs_at_once_and_a_per_move_bar_is_the_moves_limit() -> None:
    bronstein = Clock(ClockRules(ClockMode.BRONSTEIN)).new_game(1, (0, 0)).hit(0.0, WHITE)
    assert clock_bar(bronstein, 1, (0, 0), WHITE, 30.0) == ClockBar(0.75, low=False)
    per_move = Clock(ClockRules(ClockMode.PER_MOVE, per_move=40)).new_game(5, (0, 0))
    assert clock_bars(per_move, 5, (0, 0), 0.0) == (ClockBar(1.0), ClockBar(1.0))
    moving = per_move.hit(0.0, BLACK)
    assert clock_bar(moving, 5, (0, 0), BLACK, 10.0) == ClockBar(0.75)
    assert clock_bar(moving, 5, (0, 0), BLACK, 31.0) == ClockBar(9 / 40, low=True)  # last 10 s
    assert clock_bar(moving, 5, (0, 0), BLACK, 50.0) == ClockBar(0.0, low=True)


def test_after_a_fall_the_overtime_is_the_full_bar() -> None:
    rules = ClockRules(ClockMode.USBGF, overtime=300)
    clock = Clock(rules).new_game(1, (0, 0)).hit(0.0, WHITE).give_overtime(WHITE, 200.0)
    assert full_bar(clock, 1, (0, 0), WHITE) == 300
    assert clock_bar(clock, 1, (0, 0), WHITE, 200.0 + 12 + 150) == ClockBar(0.5)
    assert full_bar(clock, 1, (0, 0), BLACK) == 120


def test_under_a_per_move_limit_the_overtime_counts_after_the_limit_as_the_page_shows_it() -> None:
    rules = ClockRules(ClockMode.PER_MOVE, per_move=30.0, overtime=90.0)
    fell = Clock(rules).new_game(3, (0, 0)).hit(0.0, WHITE).give_overtime(WHITE, 30.0)
    assert full_bar(fell, 3, (0, 0), WHITE) == 120 and full_bar(fell, 3, (0, 0), BLACK) == 30
    # The limit first (30 s), then the overtime: 60 s into the move, 60 of 120 are left.
    assert clock_bar(fell, 3, (0, 0), WHITE, 90.0) == ClockBar(0.5)
    assert clock_bar(fell, 3, (0, 0), WHITE, 125.0) == ClockBar(25 / 120, low=True)  # last 30 s
    # White's press 50 s into the move leaves 70 s of overtime: while Black's clock runs,
    # White's bar is a whole limit and that overtime.
    handed = fell.hit(80.0, BLACK)
    assert clock_bar(handed, 3, (0, 0), WHITE, 90.0) == ClockBar(100 / 120)
    # Each side's bar is what the page shows of it (its limit left and then its overtime),
    # blinking where the page's side does.
    for clock in (fell, handed):
        for t in (35.0, 50.0, 80.0, 100.0, 130.0, 149.0):
            for player in (WHITE, BLACK):
                full = full_bar(clock, 3, (0, 0), player)
                shown = clock_shown(clock, player, t, full)
                bar = clock_bar(clock, 3, (0, 0), player, t)
                assert isinstance(shown["limit"], float) and isinstance(shown["reserve"], float)
                flag_in = shown["limit"] + shown["reserve"]
                assert bar is not None and bar.left * full == pytest.approx(flag_in)
                low = isinstance(shown["low"], float) and flag_in < shown["low"]
                assert bar.low is (player == clock.running and low)


@pytest.mark.parametrize(
    ("mode", "overtime"),
    [
        (ClockMode.USBGF, 0.0),
        (ClockMode.BRONSTEIN, 0.0),
        (ClockMode.PER_MOVE, 0.0),
        (ClockMode.PER_MOVE, 45.0),  # a fall has given it: the limit, then the overtime
    ],
)
@pytest.mark.parametrize("size", [1, 7, 10])
def test_the_bar_changes_exactly_when_its_next_pixel_goes_dark(
    mode: ClockMode, overtime: float, size: int
) -> None:
    per_move = 12.0 if mode is not ClockMode.PER_MOVE else 90.0
    rules = ClockRules(mode, per_move=per_move, overtime=overtime)
    score = (2, 1)
    clock = Clock(rules).new_game(5, score).hit(100.0, BLACK)
    if overtime:
        clock = clock.hit(10.0, BLACK).give_overtime(BLACK, 100.0)
    sizes = (size, size)
    t, changes = 100.0, []
    while (after := bar_change(clock, 5, score, t, sizes)) is not None:
        before = clock_bar(clock, 5, score, BLACK, t)
        just_before = clock_bar(clock, 5, score, BLACK, after - 2e-6)
        now = clock_bar(clock, 5, score, BLACK, after)
        # Nothing changes until then; then one pixel goes, the delay ends, or the blink starts.
        assert (lit(just_before, size), just_before.delay, just_before.low) == (  # type: ignore[union-attr]
            lit(before, size),
            before.delay,  # type: ignore[union-attr]
            before.low,  # type: ignore[union-attr]
        )
        assert (lit(now, size), now.delay, now.low) != (lit(before, size), before.delay, before.low)  # type: ignore[union-attr]
        assert lit(now, size) in (lit(before, size), lit(before, size) - 1)  # one at a time
        changes.append(lit(now, size))
        t = after
    assert changes[-1] == 0 and changes.count(0) == 1  # ends empty: then the flag falls
    assert set(range(size)) <= set(changes) <= set(range(size + 1))  # each pixel went
    assert bar_change(clock, 5, score, 100.0, (size, 0)) is None  # Black's bar has no pixels
    assert bar_change(clock.hit(t, None), 5, score, t, sizes) is None  # stopped
