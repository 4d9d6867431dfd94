"""The game's words that every layer shares: the two colours, the two buttons and the zones.

This module sits at the bottom of the house. Rules, sensing, lights, the table and the
hardware layer all import it, so the pure core never imports anything of :mod:`bgpi.hal`.

Zones are the places a checker can sit, in the board's printed numbering: points 1-24
(White's home 1-6, Black's home 19-24), a bar zone per colour and an optional tray per colour
for borne-off checkers.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final, Literal


class Player(IntEnum):
    """A side of the board, and the colour of its checkers. An ``int`` too (0 and 1), so it
    indexes the per-player pairs (names, seats, scores) and is journaled as a number."""

    WHITE = 0
    BLACK = 1

    def __repr__(self) -> str:
        # As the number the journal holds: a record's repr, in a message or a log, reads as
        # it always has (``Rolled(player=0, dice=(3, 1))``).
        return str(self.value)

    @property
    def other(self) -> Player:
        """The other player: the one way bgpi flips a player."""
        return Player.BLACK if self is Player.WHITE else Player.WHITE


WHITE: Final = Player.WHITE
BLACK: Final = Player.BLACK
PLAYERS: Final = (WHITE, BLACK)
COLOUR_NAMES: Final = ("white", "black")

ButtonName = Literal["roll", "cube"]
ROLL: Final[ButtonName] = "roll"
CUBE: Final[ButtonName] = "cube"
BUTTONS: Final[tuple[ButtonName, ...]] = (ROLL, CUBE)

RGB = tuple[int, int, int]

Zone = int

POINTS: Final = 24
BAR_WHITE: Final = 25
BAR_BLACK: Final = 26
TRAY_WHITE: Final = 27
TRAY_BLACK: Final = 28
ZONES: Final = tuple(range(1, TRAY_BLACK + 1))
# Per-zone tuples are indexed by the zone itself; index 0 is unused and always 0.
ZONE_INDEX_SIZE: Final = TRAY_BLACK + 1


def check_colour(colour: object, name: str = "colour") -> Player:
    """``colour`` (a number from outside: JSON, a message, a test) as a :class:`Player`, else
    a :class:`ValueError` calling it ``name``."""
    if isinstance(colour, bool) or not isinstance(colour, int) or colour not in PLAYERS:
        raise ValueError(f"{name} {colour!r} is not 0 (white) or 1 (black)")
    return Player(colour)


def bar_zone(colour: Player) -> Zone:
    """The bar zone where a checker of ``colour`` waits to enter."""
    return (BAR_WHITE, BAR_BLACK)[check_colour(colour)]


def tray_zone(colour: Player) -> Zone:
    """The tray where ``colour`` puts its borne-off checkers."""
    return (TRAY_WHITE, TRAY_BLACK)[check_colour(colour)]


def zone_name(zone: Zone) -> str:
    """``"point 7"``, ``"white bar"``, ``"black tray"``: for messages."""
    if 1 <= zone <= POINTS:
        return f"point {zone}"
    if zone in (BAR_WHITE, BAR_BLACK):
        return f"{COLOUR_NAMES[zone - BAR_WHITE]} bar"
    if zone in (TRAY_WHITE, TRAY_BLACK):
        return f"{COLOUR_NAMES[zone - TRAY_WHITE]} tray"
    return f"zone {zone}"


def zone_named(name: str) -> Zone:
    """The zone :func:`zone_name` calls ``name`` (``"point 7"``, ``"white bar"``...); a
    :class:`ValueError` saying what is accepted otherwise."""
    words = name.strip().lower().split()
    if len(words) == 2 and words[0] == "point" and words[1].isdigit():
        point = int(words[1])
        if 1 <= point <= POINTS:
            return point
    if len(words) == 2 and words[0] in COLOUR_NAMES and words[1] in ("bar", "tray"):
        first = BAR_WHITE if words[1] == "bar" else TRAY_WHITE
        return first + COLOUR_NAMES.index(words[0])
    raise ValueError(
        f"zone {name!r} is not one of 'point 1' ... 'point {POINTS}', "
        "'white bar', 'black bar', 'white tray', 'black tray'"
    )
