"""Who sits at a side of the board: a person, gnubg at a level, or bgpi's simple player.

Written in the config and on the command line as ``person``, ``gnubg``, ``gnubg:LEVEL`` or
``demo``. Opening a seat's engine never fails for want of gnubg: the seat is then a person,
and the message says how to install gnubg.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from bgpi.base.i18n import _
from bgpi.base.words import PLAYERS, Player
from bgpi.engine.api import Engine, EngineMissingError
from bgpi.engine.gnubg import GnubgEngine
from bgpi.engine.hints import Advisor
from bgpi.engine.levels import Level
from bgpi.engine.process import find_gnubg
from bgpi.engine.simple import SimpleEngine


class SeatKind(Enum):
    PERSON = "person"
    GNUBG = "gnubg"
    DEMO = "demo"


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat's player; ``level`` for gnubg only."""

    kind: SeatKind
    level: Level | None = None

    def __str__(self) -> str:
        return f"gnubg:{self.level.value}" if self.level else self.kind.value

    @classmethod
    def parse(cls, text: str) -> Seat:
        """``person``, ``demo``, ``gnubg`` (expert) or ``gnubg:LEVEL``; raise ValueError
        naming what was wrong."""
        name, _colon, level = text.strip().partition(":")
        try:
            kind = SeatKind(name.lower())
        except ValueError:
            raise ValueError(
                _("seat {text} is not person, demo, gnubg or gnubg:LEVEL").format(text=repr(text))
            ) from None
        if kind is SeatKind.GNUBG:
            return cls(kind, Level.parse(level) if level else Level.EXPERT)
        if level:
            raise ValueError(_("seat {text}: only gnubg takes a level").format(text=repr(text)))
        return cls(kind)


def open_engine(
    seat: Seat,
    *,
    say: Callable[[str], None],
    program: str | None = None,
    timeout: float = 60.0,
    instead: str = "a person",
) -> Engine | None:
    """The engine that plays ``seat``, or None for a person, and for gnubg where it is not
    installed (``say`` is told so, how to install it, and that ``instead`` plays)."""
    if seat.kind is SeatKind.DEMO:
        return SimpleEngine()
    if seat.kind is SeatKind.PERSON or seat.level is None:
        return None
    try:
        find_gnubg(program)
    except EngineMissingError as exc:
        say(f"{exc}; {instead} plays this seat")
        return None
    return GnubgEngine(seat.level, program=program, timeout=timeout, say=say)


def open_engines(
    seats: tuple[str, str], *, say: Callable[[str], None], timeout: float = 60.0
) -> dict[Player, Engine]:
    """The engines for the config's seats (``person``, ``gnubg:LEVEL``...), by player; a
    person's seat has none, nor has a gnubg seat without gnubg (said, a person plays)."""
    engines: dict[Player, Engine] = {}
    for player, text in zip(PLAYERS, seats, strict=True):
        engine = open_engine(Seat.parse(text), say=say, timeout=timeout)
        if engine is not None:
            engines[player] = engine
    return engines


def gnubg_advisor(
    level: Level, *, say: Callable[[str], None], program: str | None = None, timeout: float = 60.0
) -> Advisor:
    """gnubg at ``level`` giving hints at the board, started with the first hint; without
    gnubg installed every hint says how to install it."""

    def opener() -> Engine:
        find_gnubg(program)
        return GnubgEngine(level, program=program, timeout=timeout, say=say)

    return Advisor(opener)
