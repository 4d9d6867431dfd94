"""The lights' error tree. Every error is also a ``ValueError``: each one is a bad value (a
scene, a map, a style) given by the table or read from the config."""

from __future__ import annotations

from bgpi.base.errors import BgpiError


class LightsError(BgpiError, ValueError):
    """Base of every error raised by :mod:`bgpi.lights`."""


class SceneError(LightsError):
    """A scene that cannot be shown: a zone, die, player or prompt out of range."""


class LedMapError(LightsError):
    """An LED map that cannot be wired: a pixel doubled, past the strip or negative, an unknown
    or missing zone or area.

    ``target`` names the zone or area at fault (``"point 7"``, ``"cube.white"``) and ``pixel``
    the pixel, when the fault has one.
    """

    def __init__(self, message: str, target: str | None = None, pixel: int | None = None) -> None:
        super().__init__(message)
        self.target = target
        self.pixel = pixel


class StyleError(LightsError):
    """A palette colour, brightness, gamma or power setting out of range."""


class PowerBudgetError(LightsError):
    """A power budget that the strip overdraws even when dark."""
