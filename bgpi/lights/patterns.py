"""Blink patterns: how a light carries its meaning without relying on its colour.

Colour-blind players must tell a destination from a lifted checker, and a "take" from a
"drop", so every meaning that can appear on the same pixels has its own pattern in time (a
blink) or in space (which pixels of the point are lit), and its colour only adds to it.

Time is cut into phases: a blink cycle of ``Style.blink_period`` seconds holds :data:`PHASES`
phases, and a pattern is lit or dark for a whole phase. A frame is therefore a pure function of
the phase, and two renders of one scene within one phase are equal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

PHASES: Final = 8


@dataclass(frozen=True, slots=True)
class Pattern:
    """A blink: ``timeline[phase]`` is ``"1"`` when lit in that phase of the cycle, ``"0"``
    when dark. With ``alternate`` the odd pixels of a zone or area show the complement, so the
    lit pixels walk along it (a chase)."""

    name: str
    timeline: str
    alternate: bool = False

    def __post_init__(self) -> None:
        if len(self.timeline) != PHASES or set(self.timeline) - {"0", "1"}:
            raise ValueError(
                f"pattern {self.name!r} has timeline {self.timeline!r}, "
                f"not {PHASES} characters of 0 and 1"
            )

    def lit(self, phase: int, position: int) -> bool:
        """Whether the pixel at ``position`` (from the zone's or area's first pixel) is lit in
        ``phase``."""
        on = self.timeline[phase % PHASES] == "1"
        return on != (self.alternate and position % 2 == 1)

    @property
    def steady(self) -> bool:
        """Whether the pattern looks the same in every phase."""
        return len(set(self.timeline)) == 1


# The timelines are at one phase per character; with the default one-second cycle a character
# is 125 ms, which the eye sees as a distinct flash.
STEADY: Final = Pattern("steady", "11111111")
SLOW: Final = Pattern("slow blink", "11110000")
MEDIUM: Final = Pattern("medium blink", "11001100")
FAST: Final = Pattern("fast blink", "10101010")
WINK: Final = Pattern("wink", "11111100")
FLASH: Final = Pattern("flash", "10000000")
DOUBLE_FLASH: Final = Pattern("double flash", "10100000")
TRIPLE_FLASH: Final = Pattern("triple flash", "10101000")
DAH_DIT: Final = Pattern("dah-dit", "11101000")
DIT_DAH: Final = Pattern("dit-dah", "10111000")
DAH_DAH: Final = Pattern("dah-dah", "11011000")
LONG_DIT: Final = Pattern("long-dit", "11111010")
DIT_GAP_DIT: Final = Pattern("dit-gap-dit", "10010000")
DAH_DIT_DIT: Final = Pattern("dah-dit-dit", "11101010")
DIT_DIT_DAH: Final = Pattern("dit-dit-dah", "10101110")
DAH_DIT_DAH: Final = Pattern("dah-dit-dah", "11010110")
CHASE: Final = Pattern("chase", "11001100", alternate=True)

PATTERNS: Final = (
    STEADY,
    SLOW,
    MEDIUM,
    FAST,
    WINK,
    FLASH,
    DOUBLE_FLASH,
    TRIPLE_FLASH,
    DAH_DIT,
    DIT_DAH,
    DAH_DAH,
    LONG_DIT,
    DIT_GAP_DIT,
    DAH_DIT_DIT,
    DIT_DIT_DAH,
    DAH_DIT_DAH,
    CHASE,
)
