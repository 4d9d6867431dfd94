"""Marks: the step between a scene and pixels.

A :class:`Mark` says "light these pixels of that zone or area, in this palette colour, with
this pattern". Which pixels is given relative to the zone or area (a :class:`Span` or a
:class:`Gauge`), because a scene does not know how many pixels the builder gave each place;
the renderer resolves it against the LED map.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final, Literal

from bgpi.lights.patterns import STEADY, Pattern

Target = int | str
"""A zone (1-28, as in :mod:`bgpi.base.geometry`) or an area name (``"cube.white"``)."""


@dataclass(frozen=True, slots=True)
class Span:
    """Pixels by position from the first pixel of a zone (its base) or area.

    The target is first cut into ``parts`` equal parts (a die's half of the dice area) and
    ``part`` is kept; within it, ``count`` positions from ``start`` every ``step`` (``None``:
    up to the end), counted from the last pixel (a point's tip) when ``from_end``. Positions
    past the end are dropped, so a count larger than the target saturates.
    """

    start: int = 0
    count: int | None = None
    step: int = 1
    from_end: bool = False
    part: int = 0
    parts: int = 1

    def positions(self, size: int) -> tuple[int, ...]:
        """The positions this span lights in a target of ``size`` pixels."""
        width = size // self.parts
        offsets = range(self.start, width, self.step)
        if self.count is not None:
            offsets = offsets[: self.count]
        base = self.part * width
        if self.from_end:
            return tuple(base + width - 1 - offset for offset in offsets)
        return tuple(base + offset for offset in offsets)


Piece = Literal["won", "part", "goal"]


def points_per_pixel(length: int, size: int) -> int:
    """How many points one pixel of a score bar of ``size`` pixels stands for in a match to
    ``length`` (0: money game): one, unless the match is longer than the bar; then as few as
    make the whole match fit."""
    if length <= size or size == 0:
        return 1
    return -(-length // size)


@dataclass(frozen=True, slots=True)
class Gauge:
    """Pixels of a score bar: ``points`` won in a match to ``length`` (0: money game).

    ``"won"`` is one pixel per :func:`points_per_pixel` points fully won; ``"part"`` the pixel
    after them when the score is between two steps; ``"goal"`` the pixel that the match's
    winning score reaches, while it is not reached. A money game has no goal and saturates at
    the end of the bar.
    """

    points: int
    length: int
    piece: Piece

    def positions(self, size: int) -> tuple[int, ...]:
        """The positions this piece of the gauge lights in a bar of ``size`` pixels."""
        per = points_per_pixel(self.length, size)
        full = self.points // per
        if self.piece == "won":
            return tuple(range(min(full, size)))
        if self.piece == "part":
            return (full,) if self.points % per and full < size else ()
        if self.length == 0 or self.points >= self.length:
            return ()
        goal = -(-self.length // per) - 1
        return (goal,) if goal < size else ()


@dataclass(frozen=True, slots=True)
class Fill:
    """Pixels of a bar filled from its first to ``share`` (0 to 1) of its length: a share
    above nothing lights one pixel at least, so a bar goes dark only when it is empty."""

    share: float

    def positions(self, size: int) -> tuple[int, ...]:
        """The positions lit in a bar of ``size`` pixels."""
        # Rounded first, so a share of exactly k/size lights k pixels, not k + 1.
        return tuple(range(min(size, math.ceil(round(self.share * size, 9)))))


@dataclass(frozen=True, slots=True)
class Mark:
    """Light ``where`` of ``target`` in palette colour ``colour`` with ``pattern``, at the
    style's dim level when ``dim``."""

    target: Target
    where: Span | Gauge | Fill
    colour: str
    pattern: Pattern = STEADY
    dim: bool = False


ALL: Final = Span()
