"""What the hardware gives the shell and takes from it, with nothing of the game in it.

Backends deliver :class:`SensorEvent` and :class:`ButtonEvent` values through one ``emit``
callable (the shell passes ``queue.Queue.put``); no backend calls the game. Frames and events
are small immutable values stamped with monotonic seconds, so the pure core can replay them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Protocol, Self

# SensorFrame lives at the bottom of the house (the core counts frames); re-exported here.
from bgpi.base.faults import FaultSource
from bgpi.base.frame import SensorFrame
from bgpi.base.words import BUTTONS, RGB, ButtonName, Player, check_colour
from bgpi.hal.errors import PixelFrameError
from bgpi.sensing.godice import Rest

Clock = Callable[[], float]


@dataclass(frozen=True, slots=True)
class SensorEvent:
    """The sensors saw a new frame (or were asked for one)."""

    frame: SensorFrame


@dataclass(frozen=True, slots=True)
class ButtonEvent:
    """A player's button went down (``pressed``) or up. Long presses are the table's business."""

    player: Player
    button: ButtonName
    pressed: bool
    timestamp: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "player", check_colour(self.player, "player"))
        if self.button not in BUTTONS:
            raise ValueError(f"button {self.button!r} is not one of {BUTTONS}")


@dataclass(frozen=True, slots=True)
class FaultEvent:
    """A backend stopped working (``message`` says how) or, with ``message`` None, works
    again. The backend retries by itself; the table shows the fault on the LEDs meanwhile."""

    source: FaultSource
    message: str | None
    timestamp: float


@dataclass(frozen=True, slots=True)
class DieEvent:
    """A smart die of the pair (``die`` 0 or 1, as the pair was paired: GoDice) said how it
    moves or rests: rolling, or at rest showing ``value``. The table judges the throw."""

    die: int
    rest: Rest
    value: int
    timestamp: float


Event = SensorEvent | ButtonEvent | FaultEvent | DieEvent
Emit = Callable[[Event], None]


class Sensors(Protocol):
    """The reed switches: a frame on every change after :meth:`start`, and one on request."""

    @property
    def nbits(self) -> int:
        """How many switches a frame holds."""
        ...

    def start(self, emit: Emit) -> None:
        """Begin delivering :class:`SensorEvent` values, the current frame first."""
        ...

    def read(self) -> SensorFrame:
        """The frame now."""
        ...

    def close(self) -> None:
        """Stop and release the device; closing twice is harmless."""
        ...


class Buttons(Protocol):
    """The players' buttons: a :class:`ButtonEvent` on every press and release."""

    def start(self, emit: Emit) -> None:
        """Begin delivering :class:`ButtonEvent` values."""
        ...

    def close(self) -> None:
        """Stop and release the device; closing twice is harmless."""
        ...


class Pixels(Protocol):
    """An LED strip: shows whole frames of colours, one per pixel."""

    def __len__(self) -> int: ...

    def show(self, frame: Sequence[RGB]) -> None:
        """Show ``frame`` (exactly ``len(self)`` colours of three bytes, red, green, blue)."""
        ...

    def close(self) -> None:
        """Turn the strip dark and release it; closing twice is harmless."""
        ...


class Buzzer(Protocol):
    """The board's buzzer: plays tunes without holding up the caller."""

    def play(self, tune: Sequence[tuple[float, float]]) -> None:
        """Play ``tune``, ``(hz, seconds)`` notes (hz 0 a rest), after any before it."""
        ...

    def close(self) -> None:
        """Stop and release the pin; closing twice is harmless."""
        ...


class Dice(Protocol):
    """A source of fair dice."""

    def die(self) -> int:
        """One die, 1 to 6."""
        ...

    def roll(self) -> tuple[int, int]:
        """Two dice."""
        ...


class Closing(ABC):
    """``with`` support for backends: leaving the block calls ``close()``."""

    @abstractmethod
    def close(self) -> None:
        """Release the backend; closing twice is harmless."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def check_frame(frame: Sequence[RGB], count: int) -> tuple[RGB, ...]:
    """``frame`` as a tuple, or :class:`PixelFrameError` naming the first bad pixel."""
    if len(frame) != count:
        raise PixelFrameError(f"a frame for this strip has {count} pixels, got {len(frame)}")
    for index, colour in enumerate(frame):
        if (
            not isinstance(colour, tuple)
            or len(colour) != 3
            or not all(type(c) is int and 0 <= c <= 255 for c in colour)
        ):
            raise PixelFrameError(f"pixel {index} is {colour!r}, not (red, green, blue) of 0-255")
    return tuple(frame)


__all__ = [
    "ButtonEvent",
    "Buttons",
    "Buzzer",
    "Clock",
    "Closing",
    "Dice",
    "Emit",
    "Event",
    "FaultEvent",
    "Pixels",
    "SensorEvent",
    "SensorFrame",
    "Sensors",
    "check_frame",
]
