"""Small fakes of MicroPython's ``machine``, ``micropython``, ``time`` and ``sys``: enough to run
the firmware unchanged on CPython, for the emulator and the firmware's tests.

The sensor chain is modelled as the chips behave, not as a byte source: SH/LD low copies the
inputs, each clock shifts the chain one bit towards chip 0's QH, the last chip's SER is tied to
ground, and an SPI set to the wrong mode loses the first bit, as it would on the wood.
"""

from __future__ import annotations

import threading
import time as _time
import traceback
import types
from collections.abc import Callable
from typing import Any

TICKS_PERIOD = 1 << 30  # MicroPython's ticks_* wrap here on 32-bit ports such as the RP2040
_TICKS_MASK = TICKS_PERIOD - 1
_TICKS_HALF = TICKS_PERIOD // 2


class PowerOff(BaseException):
    """The emulator cut the power: unwinds the firmware wherever it is."""


class Reset(BaseException):
    """The firmware called ``machine.reset()``."""


class Ticks:
    """MicroPython's tick arithmetic; subclasses say where the microseconds come from."""

    def now_us(self) -> int:
        raise NotImplementedError

    def pause_us(self, us: int) -> None:
        raise NotImplementedError

    # Both counters start a few seconds before they wrap, so every run crosses a wrap.
    start_us = TICKS_PERIOD - 2_000_000
    start_ms = TICKS_PERIOD - 3_000

    def ticks_us(self) -> int:
        return (self.start_us + self.now_us()) & _TICKS_MASK

    def ticks_ms(self) -> int:
        return (self.start_ms + self.now_us() // 1000) & _TICKS_MASK

    def ticks_cpu(self) -> int:
        return self.ticks_us()

    @staticmethod
    def ticks_diff(end: int, start: int) -> int:
        return ((end - start + _TICKS_HALF) & _TICKS_MASK) - _TICKS_HALF

    @staticmethod
    def ticks_add(ticks: int, delta: int) -> int:
        return (ticks + delta) & _TICKS_MASK

    def sleep_us(self, us: int) -> None:
        if us > 0:
            self.pause_us(us)

    def sleep_ms(self, ms: int) -> None:
        self.sleep_us(ms * 1000)

    def sleep(self, seconds: float) -> None:
        self.sleep_us(int(seconds * 1_000_000))


class ManualTime(Ticks):
    """Time that moves only when told to, or when the firmware sleeps: deterministic tests."""

    def __init__(self) -> None:
        self.us = 0

    def now_us(self) -> int:
        return self.us

    def pause_us(self, us: int) -> None:
        self.us += us

    def advance_ms(self, ms: float) -> None:
        self.us += round(ms * 1000)


class RealTime(Ticks):
    """The wall clock from the moment of power-up, with the emulator's power switch and a
    freeze (a hung scanner) checked whenever the firmware sleeps."""

    def __init__(self) -> None:
        self._origin = _time.monotonic_ns()
        self.powered = True
        self.reset_pending = False
        self.running = threading.Event()
        self.running.set()
        # Whether the watchdog has run out (the emulator's ``watchdog=True``): a hung loop,
        # frozen here, is then reset as the Pico's hardware would reset it.
        self.bites: Any = None

    def now_us(self) -> int:
        return (_time.monotonic_ns() - self._origin) // 1000

    def pause_us(self, us: int) -> None:
        self.checkpoint()
        _time.sleep(us / 1_000_000)
        self.checkpoint()

    def checkpoint(self) -> None:
        while not self.running.wait(0.05):
            if not self.powered:
                raise PowerOff
            if self.bites is not None and self.bites():
                raise Reset
        if not self.powered:
            raise PowerOff
        if self.reset_pending:
            self.reset_pending = False
            raise Reset


class Chain165:
    """``nbits`` reed switches on a chain of 74HC165 (``hardware/wiring.md``): bit ``8k + j`` of
    :attr:`closed` is input ``j`` (A = 0 ... H = 7) of chip ``k``, chip 0 nearest the scanner.
    A closed reed pulls its input low; inputs past ``nbits`` are pulled up (open)."""

    def __init__(self, nbits: int) -> None:
        self.nbits = nbits
        self.chips = (nbits + 7) // 8
        self.closed = 0
        self.loads = 0
        self.loading = False
        # Called with the load count at every latch, before the inputs are copied: a hand that
        # moves in step with the scans (the benchmark's busiest board).
        self.on_load: Callable[[int], None] | None = None
        self._width = 8 * self.chips
        self._register = 0

    def levels(self) -> int:
        """The input levels, high (1) where a reed is open."""
        return ~self.closed & ((1 << self._width) - 1)

    def latch(self, level: int) -> None:
        """SH/LD: low loads the inputs (and keeps loading while it stays low)."""
        if not level and not self.loading:
            self.loads += 1
            if self.on_load is not None:
                self.on_load(self.loads)
        self.loading = not level
        if self.loading:
            self._load()

    def _load(self) -> None:
        # Shift order: chip 0's H first, then its G ... A, then chip 1's H. The register holds
        # the next bit out in its top bit.
        levels = self.levels()
        register = 0
        for chip in range(self.chips):
            byte = levels >> 8 * chip & 0xFF
            register = register << 8 | byte
        self._register = register

    def clock_bit(self, late: bool) -> int:
        """One clock: the bit on QH the SPI samples. ``late``: the SPI samples after the chips
        have shifted (a wrong SPI mode), so every bit read is the one after."""
        if self.loading:
            self._load()
            return self._register >> self._width - 1 & 1
        top = self._width - 1
        if late:
            self._register = self._register << 1 & ((1 << self._width) - 1)
            return self._register >> top & 1
        bit = self._register >> top & 1
        self._register = self._register << 1 & ((1 << self._width) - 1)
        return bit


class Board:
    """The hardware around the fake RP2040: the chain on its pins, the LED, and what the
    firmware did to them."""

    def __init__(self, chain: Chain165, latch_pin: int, sck: int, miso: int) -> None:
        self.chain = chain
        self.latch_pin = latch_pin
        self.sck = sck
        self.miso = miso
        self.pins: dict[Any, Any] = {}
        self.spi: Any = None
        self.led_toggles = 0
        self.kbd_intr: list[int] = []
        self.exceptions: list[BaseException] = []
        self.watchdog: Any = None


class Pin:
    """``machine.Pin``; the SH/LD pin drives the chain, the LED counts its toggles."""

    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2
    board: Board  # set on the subclass each fake machine makes

    def __init__(self, id: Any, mode: int = -1, pull: int = -1, *, value: Any = None) -> None:
        self.id = id
        self.mode = mode
        self._value = 0
        self.board.pins[id] = self
        if value is not None:
            self.value(value)

    def value(self, level: Any = None) -> int | None:
        if level is None:
            return self._value
        self._value = 1 if level else 0
        if self.id == self.board.latch_pin:
            self.board.chain.latch(self._value)
        return None

    def __call__(self, level: Any = None) -> int | None:
        return self.value(level)

    def on(self) -> None:
        self.value(1)

    def off(self) -> None:
        self.value(0)

    def toggle(self) -> None:
        self.value(not self._value)
        if self.id == "LED":
            self.board.led_toggles += 1


class SPI:
    """``machine.SPI``, reading the chain if it is wired to the chain's pins."""

    MSB = 0
    LSB = 1
    board: Board

    def __init__(self, id: int, **settings: Any) -> None:
        self.id = id
        self.settings = settings
        self.board.spi = self

    def _pin_id(self, name: str) -> Any:
        pin = self.settings.get(name)
        return pin.id if isinstance(pin, Pin) else pin

    def readinto(self, buf: bytearray, write: int = 0) -> None:
        board = self.board
        wired = self._pin_id("sck") == board.sck and self._pin_id("miso") == board.miso
        # Mode 2 (polarity 1, phase 0) samples half a clock before the chips shift.
        late = (self.settings.get("polarity"), self.settings.get("phase")) != (1, 0)
        msb_first = self.settings.get("firstbit", SPI.MSB) == SPI.MSB
        for index in range(len(buf)):
            byte = 0
            for _ in range(8):
                byte = byte << 1 | (board.chain.clock_bit(late) if wired else 1)
            buf[index] = byte if msb_first else int(f"{byte:08b}"[::-1], 2)

    def read(self, nbytes: int, write: int = 0) -> bytes:
        buf = bytearray(nbytes)
        self.readinto(buf, write)
        return bytes(buf)


class WDT:
    """``machine.WDT``: records its timeout and its feeds on the board (``board.watchdog``).
    It bites (:meth:`expired`) only where the emulator is asked to (``watchdog=True``)."""

    board: Board

    def __init__(self, id: int = 0, timeout: int = 5000) -> None:
        self.timeout = timeout
        self.feeds = 0
        self.board.watchdog = self
        self.armed = True
        self._fed = _time.monotonic()

    def feed(self) -> None:
        self.feeds += 1
        self._fed = _time.monotonic()

    def expired(self) -> bool:
        return self.armed and _time.monotonic() - self._fed > self.timeout / 1000


class Mem32:
    """``machine.mem32``: only the watchdog's CTRL clear alias, which disarms it."""

    CLEAR, ENABLE = 0x40058000 + 0x3000, 1 << 30

    def __init__(self, board: Board) -> None:
        self.board = board

    def __setitem__(self, address: int, value: int) -> None:
        if address != self.CLEAR or value != self.ENABLE:
            raise ValueError(f"mem32[{address:#x}] = {value:#x}: not emulated")
        if self.board.watchdog is not None:
            self.board.watchdog.armed = False


def make_machine(board: Board) -> types.ModuleType:
    """A ``machine`` module whose pins and SPI reach ``board``."""

    def reset() -> None:
        raise Reset

    machine = types.ModuleType("machine")
    machine.WDT = type("WDT", (WDT,), {"board": board})  # type: ignore[attr-defined]
    machine.mem32 = Mem32(board)  # type: ignore[attr-defined]
    machine.Pin = type("Pin", (Pin,), {"board": board})  # type: ignore[attr-defined]
    machine.SPI = type("SPI", (SPI,), {"board": board})  # type: ignore[attr-defined]
    machine.reset = reset  # type: ignore[attr-defined]
    machine.freq = lambda: 125_000_000  # type: ignore[attr-defined]
    return machine


def make_micropython(board: Board) -> types.ModuleType:
    """A ``micropython`` module: ``const``, the native-code decorators, ``kbd_intr``."""
    module = types.ModuleType("micropython")
    module.const = lambda value: value  # type: ignore[attr-defined]
    module.native = lambda function: function  # type: ignore[attr-defined]
    module.viper = lambda function: function  # type: ignore[attr-defined]
    module.kbd_intr = board.kbd_intr.append  # type: ignore[attr-defined]
    return module


def make_binascii() -> types.ModuleType:
    """MicroPython's ``binascii``: no ``crc_hqx``, so the shared protocol computes its CRC the
    way it does on the Pico."""
    import binascii  # noqa: PLC0415

    module = types.ModuleType("binascii")
    for name in ("hexlify", "unhexlify", "a2b_base64", "b2a_base64", "crc32"):
        setattr(module, name, getattr(binascii, name))
    return module


class Stream:
    """``sys.stdin`` or ``sys.stdout``: something to poll (``fileno``) and a ``buffer``."""

    def __init__(self, fd: int, buffer: Any) -> None:
        self._fd = fd
        self.buffer = buffer

    def fileno(self) -> int:
        return self._fd


def make_sys(stdin: Stream, stdout: Stream, board: Board) -> types.ModuleType:
    """A ``sys`` module whose stdin and stdout are the scanner's USB port."""
    import sys  # noqa: PLC0415

    module = types.ModuleType("sys")
    module.stdin = stdin  # type: ignore[attr-defined]
    module.stdout = stdout  # type: ignore[attr-defined]
    module.implementation = sys.implementation  # type: ignore[attr-defined]

    def print_exception(exc: BaseException, file: Any = None) -> None:
        board.exceptions.append(exc)
        text = "".join(traceback.format_exception(exc)).encode()
        # On the Pico this goes down the USB cable like everything else: noise to the host.
        (file or stdout.buffer).write(text.replace(b"\n", b"\r\n"))

    module.print_exception = print_exception  # type: ignore[attr-defined]
    return module
