"""Scene -> one frame of pixel colours, and when that frame will next change by itself.

:func:`render` is a pure function of its arguments: the time ``now`` (seconds, from any clock
the shell likes, e.g. ``time.monotonic()``) only picks the phase of the blink cycle. The shell
keeps the last frame it wrote and writes a new one only when it differs; between scene changes
it renders again at :func:`next_change`, and not before, since nothing moves in between.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Final

from bgpi.base.words import RGB
from bgpi.lights.compose import compose
from bgpi.lights.errors import PowerBudgetError
from bgpi.lights.ledmap import LedMap
from bgpi.lights.patterns import PHASES, Pattern
from bgpi.lights.scene import Scene
from bgpi.lights.style import Style

__all__ = [
    "DARK",
    "Frame",
    "Style",
    "channel_budget",
    "check_power",
    "estimate_current_ma",
    "limit_power",
    "next_change",
    "render",
    "tick_at",
    "tick_start",
]

Frame = tuple[RGB, ...]
DARK: Final[RGB] = (0, 0, 0)


def render(scene: Scene, ledmap: LedMap, style: Style, now: float) -> Frame:
    """The colour of every pixel of ``ledmap``'s strip showing ``scene`` at time ``now``, after
    gamma, brightness and the power budget. Renders of one scene in one blink phase are equal.
    """
    phase = tick_at(now, style) % PHASES
    frame = [DARK] * ledmap.length
    claimed: set[int] = set()
    for mark in compose(scene):
        pixels = ledmap.pixels(mark.target)
        shade = style.shade(mark.colour, dim=mark.dim)
        for position in mark.where.positions(len(pixels)):
            pixel = pixels[position]
            if pixel in claimed:
                continue
            claimed.add(pixel)
            if mark.pattern.lit(phase, position):
                frame[pixel] = shade
    return limit_power(frame, style)


def next_change(scene: Scene, style: Style, now: float) -> float | None:
    """The earliest time after ``now`` at which ``scene``'s frame may change by itself (a blink
    turning on or off), or ``None`` when nothing in it blinks. Every render between ``now`` and
    that time gives the frame of ``now``."""
    moving = {mark.pattern for mark in compose(scene) if not mark.pattern.steady}
    if not moving:
        return None
    tick = tick_at(now, style)
    ahead = min(_phases_until_change(pattern, tick % PHASES) for pattern in moving)
    return tick_start(tick + ahead, style)


def _phases_until_change(pattern: Pattern, phase: int) -> int:
    now = pattern.timeline[phase]
    for ahead in range(1, PHASES):
        if pattern.timeline[(phase + ahead) % PHASES] != now:
            return ahead
    return PHASES  # a steady pattern; next_change never asks about one


def tick_at(now: float, style: Style) -> int:
    """The number of blink phases from time 0 to ``now``: the phase is this modulo
    :data:`~bgpi.lights.patterns.PHASES`."""
    if not math.isfinite(now):
        raise ValueError(f"time {now!r} is not a finite number of seconds")
    return math.floor(now * PHASES / style.blink_period)


def tick_start(tick: int, style: Style) -> float:
    """The first time (as a float) that :func:`tick_at` puts in ``tick``."""
    time = tick * style.blink_period / PHASES
    # Floating point may land a hair either side of the boundary; step to the exact float, so
    # the shell's timer never fires while the old phase still holds (and renders the same).
    while tick_at(time, style) < tick:
        time = math.nextafter(time, math.inf)
    while tick_at(math.nextafter(time, -math.inf), style) >= tick:
        time = math.nextafter(time, -math.inf)
    return time


def channel_budget(pixels: int, style: Style) -> int:
    """The largest sum of all channel values (0-255 each) that a strip of ``pixels`` may show
    within the power budget, counting the dark pixels' own current; exact, in fractions, so
    rounding never tips a frame over."""
    headroom = Fraction(style.max_current_ma) - Fraction(style.idle_ma_per_pixel) * pixels
    if headroom < 0:
        raise PowerBudgetError(
            f"{pixels} dark pixels at {style.idle_ma_per_pixel:g} mA draw "
            f"{style.idle_ma_per_pixel * pixels:g} mA, over max_current_ma="
            f"{style.max_current_ma:g}: raise the budget (and the supply)"
        )
    return math.floor(headroom * 255 / Fraction(style.ma_per_channel))


def check_power(ledmap: LedMap, style: Style) -> None:
    """Raise :class:`PowerBudgetError` if the strip overdraws the budget even when dark; the
    shell calls this when it reads the config, so :func:`render` never raises it later."""
    channel_budget(ledmap.length, style)


def limit_power(frame: Sequence[RGB], style: Style) -> Frame:
    """``frame`` scaled down uniformly, if it must be, so its estimated current is within the
    budget (rounding down, so the estimate never passes it)."""
    allowed = channel_budget(len(frame), style)
    total = sum(r + g + b for r, g, b in frame)
    if total <= allowed:
        return tuple(frame)
    return tuple(
        (r * allowed // total, g * allowed // total, b * allowed // total) for r, g, b in frame
    )


def estimate_current_ma(frame: Sequence[RGB], style: Style) -> float:
    """The current the strip draws showing ``frame``: each channel in proportion to its value,
    plus every pixel's idle current."""
    lit = sum(r + g + b for r, g, b in frame)
    return style.idle_ma_per_pixel * len(frame) + lit * style.ma_per_channel / 255
