"""gnubg's predefined playing strengths, as gnubg defines them (``aecSettings`` and
``aiSettingsMoveFilter`` in gnubg's eval.c), so that ``expert`` here is ``expert`` there.

Every level is cubeful and deterministic: the noise of the weaker levels is gnubg's
deterministic noise, a function of the position, so the same position gets the same play.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

from bgpi.base.i18n import _

# gnubg's move filters, per evaluation ply, per lower ply: (accept, extra, threshold).
# accept -1 skips that lower ply. From gnubg's movefilters.inc.
Filter = tuple[tuple[int, int, int, int, float], ...]  # (ply, level, accept, extra, threshold)

_NORMAL: Final[Filter] = (
    (1, 0, 0, 8, 0.16),
    (2, 0, 0, 8, 0.16),
    (2, 1, -1, 0, 0.0),
    (3, 0, 0, 8, 0.16),
    (3, 1, -1, 0, 0.0),
    (3, 2, 0, 2, 0.04),
    (4, 0, 0, 8, 0.16),
    (4, 1, -1, 0, 0.0),
    (4, 2, 0, 2, 0.04),
    (4, 3, -1, 0, 0.0),
)
_LARGE: Final[Filter] = (
    (1, 0, 0, 16, 0.32),
    (2, 0, 0, 16, 0.32),
    (2, 1, -1, 0, 0.0),
    (3, 0, 0, 16, 0.32),
    (3, 1, -1, 0, 0.0),
    (3, 2, 0, 4, 0.08),
    (4, 0, 0, 16, 0.32),
    (4, 1, -1, 0, 0.0),
    (4, 2, 0, 4, 0.08),
    (4, 3, -1, 0, 0.0),
)


@dataclass(frozen=True, slots=True)
class Settings:
    """One of gnubg's evaluation contexts and the move filter that goes with it."""

    plies: int
    prune: bool
    noise: float
    movefilter: Filter


class Level(Enum):
    """gnubg's predefined levels, weakest first; the value is gnubg's own name."""

    BEGINNER = "beginner"
    CASUAL = "casual"
    INTERMEDIATE = "intermediate"
    ADVANCED = "advanced"
    EXPERT = "expert"
    WORLDCLASS = "worldclass"
    SUPREMO = "supremo"
    GRANDMASTER = "grandmaster"

    @property
    def settings(self) -> Settings:
        return _SETTINGS[self]

    @classmethod
    def parse(cls, text: str) -> Level:
        """A level by its name (any case, ``world class`` or ``worldclass``)."""
        key = text.strip().lower().replace(" ", "").replace("-", "").replace("_", "")
        for level in cls:
            if level.value == key:
                return level
        names = ", ".join(level.value for level in cls)
        raise ValueError(
            _("unknown gnubg level {text}: one of {names}").format(text=repr(text), names=names)
        )


_SETTINGS: Final = {
    Level.BEGINNER: Settings(0, False, 0.060, _NORMAL),
    Level.CASUAL: Settings(0, False, 0.050, _NORMAL),
    Level.INTERMEDIATE: Settings(0, False, 0.040, _NORMAL),
    Level.ADVANCED: Settings(0, False, 0.015, _NORMAL),
    Level.EXPERT: Settings(0, False, 0.0, _NORMAL),
    Level.WORLDCLASS: Settings(2, True, 0.0, _NORMAL),
    Level.SUPREMO: Settings(2, True, 0.0, _LARGE),
    Level.GRANDMASTER: Settings(3, True, 0.0, _LARGE),
}
