"""The board's buzzer through gpiozero: a piezo on one GPIO pin (``[sound] buzzer_pin``).

A passive piezo has no tone of its own: gpiozero's ``TonalBuzzer`` drives the pin with a
square wave at each note's pitch. An active buzzer has its own oscillator and one pitch:
gpiozero's ``Buzzer`` switches it on for each note and off for each rest. Tunes are played
on a thread of their own, one after another, so :meth:`GpioBuzzer.play` returns at once and
the table's loop never waits for a sound.

gpiozero is imported when a buzzer opens (``bgpi.hal.gpio`` turns a missing library or pin
factory into one line); tests run the real gpiozero devices on its ``MockFactory``.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Sequence
from enum import Enum
from typing import Any, Final

from bgpi.hal.api import Closing
from bgpi.hal.errors import BackendClosedError
from bgpi.hal.gpio import gpiozero_module, open_device

log = logging.getLogger(__name__)

# TonalBuzzer plays an octave either side of its middle tone: 440-1760 Hz, where a piezo is
# loud enough (bgpi.present.cues writes its tunes in this range; a test keeps the two equal).
MID_HZ: Final = 880.0
OCTAVES: Final = 1
MAX_QUEUED: Final = 4  # tunes waiting; more are dropped, since a late cue says nothing

Note = tuple[float, float]
"""(hz, seconds); hz 0 is a rest."""


class BuzzerKind(Enum):
    """``passive``: a piezo played at each note's pitch; ``active``: its own tone, on/off."""

    PASSIVE = "passive"
    ACTIVE = "active"


class GpioBuzzer(Closing):
    """A buzzer on GPIO ``pin``. ``sleep`` holds each note (tests pass one that only counts);
    ``pin_factory`` is gpiozero's (None: its default)."""

    def __init__(
        self,
        pin: int,
        *,
        kind: BuzzerKind | str = BuzzerKind.PASSIVE,
        sleep: Callable[[float], None] = time.sleep,
        pin_factory: Any = None,
    ) -> None:
        self.kind = BuzzerKind(kind)
        self._sleep = sleep
        self._device = open_device(f"the buzzer on GPIO{pin}", lambda: self._make(pin, pin_factory))
        self._tunes: queue.Queue[tuple[Note, ...] | None] = queue.Queue()
        self._idle = threading.Condition()
        self._pending = 0
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="bgpi-buzzer", daemon=True)
        self._thread.start()

    def _make(self, pin: int, pin_factory: Any) -> Any:
        gz = gpiozero_module()
        if self.kind is BuzzerKind.ACTIVE:
            return gz.Buzzer(pin, pin_factory=pin_factory)
        mid = gz.tones.Tone.from_frequency(MID_HZ)
        return gz.TonalBuzzer(pin, mid_tone=mid, octaves=OCTAVES, pin_factory=pin_factory)

    def play(self, tune: Sequence[Note]) -> None:
        """Play ``tune`` after those before it; returns at once."""
        if self._closed:
            raise BackendClosedError("the buzzer is closed")
        with self._idle:
            if self._pending >= MAX_QUEUED:
                log.debug("buzzer busy: a cue dropped")
                return
            self._pending += 1
        self._tunes.put(tuple(tune))

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until every tune asked for has been played; whether it was in time."""
        with self._idle:
            return self._idle.wait_for(lambda: self._pending == 0, timeout)

    def _run(self) -> None:
        while True:
            tune = self._tunes.get()
            if tune is None:
                return
            try:
                for hz, seconds in tune:
                    if self._closed:
                        break
                    self._sound(hz)
                    self._sleep(seconds)
                self._sound(0.0)
            except Exception:  # a buzzer gone bad must not stop the table: say it once
                log.warning("the buzzer failed", exc_info=True)
            finally:
                with self._idle:
                    self._pending -= 1
                    self._idle.notify_all()

    def _sound(self, hz: float) -> None:
        if self.kind is BuzzerKind.ACTIVE:
            self._device.on() if hz else self._device.off()
        elif hz:
            self._device.play(gpiozero_module().tones.Tone.from_frequency(hz))
        else:
            self._device.stop()

    def close(self) -> None:
        """Stop playing and release the pin; closing twice is harmless."""
        if self._closed:
            return
        self._closed = True
        self._tunes.put(None)
        self._thread.join(timeout=2.0)
        self._device.close()
