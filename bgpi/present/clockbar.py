"""The clock on the LEDs: each player's bar of the reserve left, and when it next changes.

A bar is the player's reserve as a share of a full one: the game's reserve (the U.S. rules'
2 minutes a match point less 1 a point scored, at the score the game began with), or the
overtime once a fall has given it; under a per-move limit, the move's limit, and after a fall
the limit and the overtime, counted after it as the page counts them. Only the running clock
moves: its bar is in the delay's look while the delay runs, and blinks in the player's
last minute (under a per-move limit, the last quarter of a limit shorter than four minutes).
A clock paused while the sensors are down (:mod:`bgpi.table.timing`) stands still and steady,
as a stopped clock does: its bar keeps what it had and does not blink.

Pure: the time ``t`` is the table's (the events' timestamps, which the shell also renders
at). The shell renders again at :func:`bar_change`, and not before, as it does for a blink.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Final

from bgpi.base.words import PLAYERS, Player
from bgpi.lights.scene import ClockBar, Scene
from bgpi.rules import GameState
from bgpi.rules.clock import Clock, ClockMode
from bgpi.table import Phase, Table

LAST_MINUTE: Final = 60.0
PAST: Final = 1e-6
CLOCKS: Final = ("clock.white", "clock.black")
"""Each player's clock area in the LED map (:data:`~bgpi.lights.ledmap.AREAS`)."""


def full_bar(clock: Clock, length: int, score: tuple[int, int], player: Player) -> float:
    """The seconds a full bar of ``player``'s stands for in a game begun at ``score``."""
    rules = clock.rules
    if rules.mode is ClockMode.PER_MOVE:
        # After a fall the overtime runs once each move's limit is used: a full bar is both.
        return rules.per_move + (rules.overtime if clock.overtime_given[player] else 0.0)
    if clock.overtime_given[player]:
        return rules.overtime
    return rules.reserve(length, score)


def _left(clock: Clock, player: Player, t: float) -> float:
    """``player``'s seconds before the flag falls, as the bar counts them: under a per-move
    limit, what is left of the move's limit (all of it while the opponent's clock runs) and
    then of the overtime reserve, as the page shows them (``web/view.py``'s ``clock_shown``)."""
    if clock.rules.mode is ClockMode.PER_MOVE:
        limit = clock.delay_left(t) if player == clock.running else clock.rules.per_move
        return limit + clock.left(player, t)
    return clock.left(player, t)


def low_at(clock: Clock, full: float) -> float:
    """Below how many seconds left a running bar blinks."""
    if clock.rules.mode is ClockMode.PER_MOVE:
        return min(LAST_MINUTE, full / 4)
    return LAST_MINUTE


def clock_bar(
    clock: Clock, length: int, score: tuple[int, int], player: Player, t: float
) -> ClockBar | None:
    """``player``'s bar at ``t`` in a game begun at ``score`` of a match to ``length``
    (None: a clock with nothing to count, as a reserve of 0 seconds)."""
    full = full_bar(clock, length, score, player)
    if full <= 0:
        return None
    left = max(0.0, _left(clock, player, t))
    running = player == clock.running
    delay = running and clock.delay_left(t) > 0 and clock.rules.mode is ClockMode.USBGF
    low = running and not clock.paused and left < low_at(clock, full)
    return ClockBar(min(1.0, left / full), delay=delay, low=low)


def clock_bars(
    clock: Clock, length: int, score: tuple[int, int], t: float
) -> tuple[ClockBar | None, ClockBar | None]:
    """Both players' bars at ``t``."""
    white, black = (clock_bar(clock, length, score, player, t) for player in PLAYERS)
    return (white, black)


def bar_change(
    clock: Clock, length: int, score: tuple[int, int], t: float, pixels: tuple[int, int]
) -> float | None:
    """The first time after ``t`` at which the running player's bar, on a bar of
    ``pixels[player]`` pixels, lights one pixel fewer, leaves its delay or starts to blink
    (None: no clock runs, or its bar has no pixels)."""
    player = clock.running
    if player is None or clock.since is None or not pixels[player]:
        return None
    full = full_bar(clock, length, score, player)
    if full <= 0:
        return None
    delay = clock.delay_left(t) if clock.rules.mode is ClockMode.USBGF else 0.0
    left = _left(clock, player, t)
    if left <= 0:
        return None  # empty: the flag's own deadline ends it
    # While the delay runs the reserve stands: its next change comes the delay later.
    size = pixels[player]
    lit = math.ceil(round(min(1.0, left / full) * size, 9))
    times = [delay] if delay > 0 else []
    times.append(delay + left - (lit - 1) * full / size)
    low = low_at(clock, full)
    if left > low:
        times.append(delay + left - low)
    ahead = [ahead for ahead in times if ahead > 0]
    # A microsecond past the boundary, so a render then sees the change whatever the
    # floating point's rounding of the boundary itself.
    return t + min(ahead) + PAST if ahead else None


def with_clocks(table: Table, scene: Scene, t: float) -> Scene:
    """``scene`` with the table's clock bars at ``t``, while a clocked game is in play (its
    opening roll too: the reserves are set, full)."""
    clock, match = table.clock, table.match
    shown = match.state is GameState.PLAYING or table.phase is Phase.OPENING
    if clock is None or not shown:
        return scene
    return replace(scene, clocks=clock_bars(clock, match.rules.length, match.score, t))


def next_bar_change(table: Table, t: float, pixels: tuple[int, int]) -> float | None:
    """When the table's running clock bar next changes after ``t`` (see :func:`bar_change`)."""
    clock, match = table.clock, table.match
    if clock is None or match.state is not GameState.PLAYING:
        return None
    return bar_change(clock, match.rules.length, match.score, t, pixels)
