"""How the lights look: palette, brightness, gamma, blink speed and the power budget.

The palette maps each meaning to a colour as a person sees it (0-255 per channel, sRGB-like).
The renderer multiplies by the mark's level (full, or :attr:`Style.dim`), runs each channel
through the gamma table (the LEDs' output is linear in their PWM value, the eye is not), then
scales by :attr:`Style.brightness`, as Adafruit's ``PixelBuf`` does, and finally by whatever
the power budget demands.

Power is estimated as a WS2812B draws it: 20 mA per channel at full (60 mA for full white), in
proportion to its PWM value, plus about 1 mA per pixel for the chip itself even when dark
(:attr:`Style.idle_ma_per_pixel`): 244 dark pixels already take 244 mA of the budget, which is
why the allowance is counted rather than ignored.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

from bgpi.base.words import RGB
from bgpi.lights.errors import StyleError

DEFAULT_PALETTE: Final[Mapping[str, RGB]] = MappingProxyType(
    {
        # zones
        "destination": (0, 200, 60),
        "lifted": (255, 160, 0),
        "extra": (255, 0, 0),
        "missing": (0, 120, 255),
        "correct": (0, 160, 0),
        "last play": (160, 0, 255),
        "candidate": (0, 220, 220),
        "mistake": (255, 0, 200),
        # cube and score
        "cube": (255, 255, 255),
        "cube unavailable": (90, 90, 90),
        "score goal": (90, 90, 90),
        # the clock's bar while a move's delay runs (the reserve is in the player's colour)
        "clock delay": (0, 200, 60),
        # players: turn light, dice, score
        "white": (255, 190, 120),
        "black": (0, 90, 255),
        # buttons
        "roll": (0, 200, 60),
        "double": (255, 255, 255),
        "take": (0, 200, 60),
        "drop": (255, 0, 0),
        "beaver": (255, 0, 200),
        "end turn": (0, 120, 255),
        "confirm": (0, 220, 220),
        "next": (255, 160, 0),
        "change": (100, 200, 255),
        "acknowledge": (255, 220, 0),
        "new game": (160, 0, 255),
        "resign": (255, 255, 255),
        "accept": (0, 200, 60),
        "decline": (255, 0, 0),
        "claim": (255, 100, 0),
        # blue beside the answer's green and red, the pair red-green colour-blind players confuse
        "withdraw": (90, 90, 255),
        # alerts
        "wrong": (255, 0, 0),
        "no move": (255, 160, 0),
        "game over": (0, 200, 60),
        "match over": (255, 215, 0),
        "fault": (255, 0, 80),
        "roll again": (255, 120, 0),
    }
)
"""Every palette entry and its default. A config names only the entries it changes."""

_NUMBERS: Final = (
    # name, lowest, highest, whether the lowest and the highest themselves are allowed
    ("brightness", 0.0, 1.0, True, True),
    ("gamma", 0.0, 10.0, False, True),
    ("dim", 0.0, 1.0, False, False),
    ("blink_period", 0.0, math.inf, False, False),
    ("max_current_ma", 0.0, math.inf, False, False),
    ("ma_per_channel", 0.0, math.inf, False, False),
    ("idle_ma_per_pixel", 0.0, math.inf, True, False),
)


@dataclass(frozen=True, slots=True)
class Style:
    """The look of the lights. ``palette`` names only the entries that differ from
    :data:`DEFAULT_PALETTE` (lists of three ints, as TOML gives them, are fine); the value
    keeps the whole palette. Every setting is checked, and a bad one raises :class:`StyleError`
    naming it.

    - ``brightness`` 0-1 scales every pixel after gamma;
    - ``gamma`` (default 2.2) is applied per channel through a 256-entry table;
    - ``dim`` (0-1, exclusive) is the level of dim marks, before gamma;
    - ``blink_period`` is the seconds of one blink cycle (eight phases);
    - ``max_current_ma`` is the power budget (default 2 A), ``ma_per_channel`` a channel's
      current at full (20 mA), ``idle_ma_per_pixel`` each pixel's current when dark (1 mA).
    """

    palette: Mapping[str, RGB] = field(default_factory=dict, hash=False)
    brightness: float = 0.5
    gamma: float = 2.2
    dim: float = 0.35
    blink_period: float = 1.0
    max_current_ma: float = 2000.0
    ma_per_channel: float = 20.0
    idle_ma_per_pixel: float = 1.0
    _gamma_table: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name, low, high, low_closed, high_closed in _NUMBERS:
            _check_number(name, getattr(self, name), low, high, low_closed, high_closed)
        if not isinstance(self.palette, Mapping):
            raise StyleError(f"palette {self.palette!r} is not a mapping of meaning to colour")
        merged = dict(DEFAULT_PALETTE)
        for meaning, colour in self.palette.items():
            if meaning not in DEFAULT_PALETTE:
                raise StyleError(
                    f"palette names {meaning!r}, not a meaning: "
                    f"the meanings are {', '.join(DEFAULT_PALETTE)}"
                )
            merged[meaning] = _check_colour(meaning, colour)
        object.__setattr__(self, "palette", MappingProxyType(merged))
        table = tuple(round(255 * (value / 255) ** self.gamma) for value in range(256))
        object.__setattr__(self, "_gamma_table", table)

    @classmethod
    def from_config(
        cls, mapping: Mapping[str, object] | None = None, /, **settings: object
    ) -> Style:
        """A style from its config table and/or keyword settings (the keyword arguments of
        :class:`Style` by name; a keyword wins over the table). Unknown names are refused."""
        given = {**(mapping or {}), **settings}
        known = ("palette", *(name for name, *_ in _NUMBERS))
        for key in given:
            if key not in known:
                raise StyleError(
                    f"unknown lights setting {key!r}: the settings are {', '.join(known)}"
                )
        return cls(**given)  # type: ignore[arg-type]  # each value is checked on construction

    @property
    def gamma_table(self) -> tuple[int, ...]:
        """``gamma_table[v]`` is the PWM value for a perceived channel value ``v``."""
        return self._gamma_table

    def colour(self, meaning: str) -> RGB:
        """The palette's colour for ``meaning``."""
        try:
            return self.palette[meaning]
        except KeyError:
            raise StyleError(f"the palette has no colour for {meaning!r}") from None

    def shade(self, meaning: str, *, dim: bool = False) -> RGB:
        """The pixel value for ``meaning`` at full or dim level, after gamma and brightness
        (before the power budget)."""
        level = self.dim if dim else 1.0
        red, green, blue = (
            round(self._gamma_table[round(channel * level)] * self.brightness)
            for channel in self.colour(meaning)
        )
        return red, green, blue


def _check_number(
    name: str, value: object, low: float, high: float, low_closed: bool, high_closed: bool
) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value):
        raise StyleError(f"{name} is {value!r}, not a number")
    above = low <= value if low_closed else low < value
    below = value <= high if high_closed else value < high
    if not (above and below):
        wanted = f"{'from' if low_closed else 'above'} {low:g}"
        if not math.isinf(high):
            wanted += f" {'up to' if high_closed else 'and below'} {high:g}"
        raise StyleError(f"{name} is {value!r}: it must be {wanted}")


def _check_colour(meaning: str, colour: object) -> RGB:
    if (
        not isinstance(colour, tuple | list)
        or len(colour) != 3
        or not all(type(c) is int and 0 <= c <= 255 for c in colour)
    ):
        raise StyleError(
            f"palette {meaning!r} is {colour!r}, not (red, green, blue) of whole numbers 0-255"
        )
    return colour[0], colour[1], colour[2]
