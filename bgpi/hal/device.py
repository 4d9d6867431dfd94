"""The life of a sensor backend that reads hardware on a thread of its own, in the manner of
gpiozero's devices: the base class owns opening, the scan thread, stopping, an idempotent
:meth:`~ScannedSensors.close`, and what happens when the hardware stops answering.

A backend says how to open and read its hardware; whenever a step of its thread raises
:class:`LinkDownError` (a port gone, no frame in time, too many corrupt packets, a failed SPI
read, a frame no board can show), the base reports one :class:`~bgpi.hal.api.FaultEvent`
with the reason, delivers no frame while it lasts, retries, and reports the recovery with a
``FaultEvent`` whose message is ``None``. Every backend then faults the same way, and one
test drives them all through the same scenarios.
"""

from __future__ import annotations

import logging
import threading
from abc import abstractmethod
from typing import ClassVar

from bgpi.base.faults import FaultSource
from bgpi.base.frame import SensorFrame
from bgpi.hal.api import Clock, Closing, Emit, FaultEvent, SensorEvent
from bgpi.hal.errors import BackendClosedError, HalError, one_line

log = logging.getLogger(__name__)


class LinkDownError(HalError, RuntimeError):
    """The hardware cannot be read now; the message is one line for the log and the LEDs."""


class ScannedSensors(Closing):
    """Base of the gpio and serial sensors. Subclasses give :meth:`_open_frame` (open the
    device and read the frame now), :meth:`_scan` (one step of the thread), :meth:`_lost`
    (drop a broken device so the next step reopens it), :meth:`_release` and
    :meth:`_retry_delay`."""

    what: ClassVar[str] = "sensors"  # for messages: "the gpio sensors are closed"
    source: ClassVar[FaultSource] = FaultSource.SENSORS  # the FaultEvent's source

    def __init__(self, nbits: int, *, clock: Clock) -> None:
        self._nbits = nbits
        self._clock = clock
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._closed = False
        self._emit: Emit | None = None
        self._emitted: int | None = None
        self._fault_now: str | None = None
        self._failures = 0

    @property
    def nbits(self) -> int:
        return self._nbits

    @property
    def fault(self) -> str | None:
        """Why the hardware cannot be read now, or ``None`` while it can."""
        return self._fault_now

    def start(self, emit: Emit) -> None:
        """Open the device, emit the current frame and scan on a thread from now on."""
        with self._lock:
            self._check_open()
            if self._thread is not None:
                raise RuntimeError(f"the {self.what} are already started")
            frame = self._open_frame()
            self._emit = emit
            self._emitted = None
            self._deliver(frame)
            self._thread = threading.Thread(
                target=self._run, name=f"bgpi-{self.source}", daemon=True
            )
            self._thread.start()

    def close(self) -> None:
        """Stop the thread and release the device; closing twice is harmless."""
        self._stop.set()  # first: a step in progress gives up when it sees this
        with self._lock:
            already, self._closed = self._closed, True
            thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join()
        with self._lock:
            self._emit = None
            if not already:
                self._release()

    # -- for subclasses ------------------------------------------------------------------

    @abstractmethod
    def _open_frame(self) -> SensorFrame:
        """Open the device if need be and read the frame now (under the lock)."""

    @abstractmethod
    def _scan(self) -> None:
        """One step of the scan thread: read (or reopen) and :meth:`_deliver` what changed;
        raise :class:`LinkDownError` when the hardware does not answer."""

    @abstractmethod
    def _lost(self, reason: str) -> None:
        """The hardware stopped answering: drop what must be reopened."""

    @abstractmethod
    def _release(self) -> None:
        """Release the device for good."""

    @abstractmethod
    def _retry_delay(self, failures: int) -> float:
        """Seconds to wait before the next step after ``failures`` failed ones in a row."""

    def _check_open(self) -> None:
        if self._closed:
            raise BackendClosedError(f"the {self.what} are closed")

    def _deliver(self, frame: SensorFrame) -> None:
        """Emit ``frame`` if it differs from the last one emitted."""
        emit = self._emit
        if emit is not None and frame.bits != self._emitted:
            self._emitted = frame.bits
            emit(SensorEvent(frame))

    # -- the thread ----------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._scan()
            except BackendClosedError:
                return
            except LinkDownError as exc:
                self._down(str(exc))
            except Exception as exc:  # a fault of ours must not leave the board blind
                log.exception("the %s failed unexpectedly; retrying", self.what)
                self._down(f"unexpected {one_line(exc)}")
            else:
                if self._fault_now is not None:
                    self._up()
                continue
            self._failures += 1
            self._stop.wait(self._retry_delay(self._failures))

    def _down(self, reason: str) -> None:
        with self._lock:
            self._lost(reason)
        if self._fault_now is None:
            log.warning("the %s stopped answering: %s", self.what, reason)
            self._fault_now = reason
            self._report(reason)

    def _up(self) -> None:
        log.warning("the %s work again", self.what)
        self._fault_now = None
        self._failures = 0
        self._report(None)

    def _report(self, message: str | None) -> None:
        emit = self._emit
        if emit is not None and not self._stop.is_set():
            emit(FaultEvent(self.source, message, self._clock()))
