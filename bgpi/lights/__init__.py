"""The lights: what to show (:class:`Scene`) and how (:func:`render` through a :class:`LedMap`
and a :class:`Style`).

Pure: no I/O and no clock. Time arrives as an argument and only picks the phase of the blink
cycle; the shell writes a frame to the strip when it differs from the last one, and renders
again at :func:`next_change`.

>>> from bgpi.lights import LedMap, Scene, Style, next_change, render
>>> ledmap, style = LedMap.default(), Style()
>>> scene = Scene(destinations=frozenset({7}), lifted=frozenset({13}))
>>> frame = render(scene, ledmap, style, now=0.0)
>>> [pixel for pixel, colour in enumerate(frame) if colour != (0, 0, 0)] == [
...     *ledmap.pixels(7), *ledmap.pixels(13)]
True
>>> frame[36]
(0, 74, 6)
>>> next_change(scene, style, now=0.0)  # the lifted checker's point blinks off
0.5
"""

from bgpi.lights.compose import compose
from bgpi.lights.errors import LedMapError, LightsError, PowerBudgetError, SceneError, StyleError
from bgpi.lights.ledmap import AREAS, LedMap
from bgpi.lights.marks import Fill, Gauge, Mark, Span, points_per_pixel
from bgpi.lights.patterns import PATTERNS, PHASES, Pattern
from bgpi.lights.render import (
    Frame,
    check_power,
    estimate_current_ma,
    limit_power,
    next_change,
    render,
    tick_at,
    tick_start,
)
from bgpi.lights.scene import Alert, ClockBar, Meaning, Scene
from bgpi.lights.style import DEFAULT_PALETTE, Style

__all__ = [
    "AREAS",
    "DEFAULT_PALETTE",
    "PATTERNS",
    "PHASES",
    "Alert",
    "ClockBar",
    "Fill",
    "Frame",
    "Gauge",
    "LedMap",
    "LedMapError",
    "LightsError",
    "Mark",
    "Meaning",
    "Pattern",
    "PowerBudgetError",
    "Scene",
    "SceneError",
    "Span",
    "Style",
    "StyleError",
    "check_power",
    "compose",
    "estimate_current_ma",
    "limit_power",
    "next_change",
    "points_per_pixel",
    "render",
    "tick_at",
    "tick_start",
]
