"""MicroPython's REPL as the tools that update a Pico meet it, for the emulator: where the
Pico sits once the firmware has stepped aside (``main()`` returned).

Only what mpremote and pyboard.py use: the friendly prompt, Ctrl-A into the raw REPL, Ctrl-B
out of it, Ctrl-D for a soft reset (an empty raw line) or to run the raw line (in CPython,
against the emulated flash: ``pyexec.py``), Ctrl-E's raw-paste request (declined, so the tools
fall back to the plain raw REPL), and Ctrl-C. The texts are MicroPython's own
(``shared/runtime/pyexec.c``), since the tools wait for them byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable

from emulator.pyexec import Flash, HardReset, PyExec

BANNER = (
    b"MicroPython v1.24.1 on 2024-11-29; Raspberry Pi Pico with RP2040\r\n"
    b'Type "help()" for more information.\r\n'
)
PROMPT = b">>> "
RAW_BANNER = b"raw REPL; CTRL-B to exit\r\n>"
SOFT_REBOOT = b"MPY: soft reboot\r\n"
CTRL_A, CTRL_B, CTRL_C, CTRL_D, CTRL_E = 0x01, 0x02, 0x03, 0x04, 0x05
RAW_PASTE_REQUEST = b"\x05A\x01"


class Repl:
    """Answers the bytes fed to it by writing what MicroPython would through ``write``.
    ``raw`` is true in the raw REPL; ``entered_raw`` counts the times it was entered;
    ``hard_reset`` turns true when the code run called ``machine.reset()``."""

    def __init__(self, write: Callable[[bytes], None], flash: Flash | None = None) -> None:
        self._write = write
        self.raw = False
        self.entered_raw = 0
        self.soft_resets = 0
        self.hard_reset = False
        self.pyexec = PyExec(flash if flash is not None else Flash())
        self._line = bytearray()
        write(BANNER + PROMPT)

    def feed(self, data: bytes) -> None:
        for byte in data:
            if self.hard_reset:
                return
            if self.raw:
                self._raw_byte(byte)
            else:
                self._friendly_byte(byte)

    def _friendly_byte(self, byte: int) -> None:
        if byte == CTRL_A:
            self._enter_raw()
        elif byte in (CTRL_C, ord("\r")):
            self._line.clear()
            self._write(b"\r\n" + PROMPT)
        else:
            self._line.append(byte)
            self._write(bytes([byte]))  # the friendly REPL echoes

    def _raw_byte(self, byte: int) -> None:
        if byte == CTRL_A:
            self._line.clear()
            self._write(b"\r\n" + RAW_BANNER)
        elif byte == CTRL_B:
            self.raw = False
            self._line.clear()
            self._write(b"\r\n" + BANNER + PROMPT)
        elif byte == CTRL_C:
            self._line.clear()
        elif byte == CTRL_D and not self._line:
            # A soft reset from the raw REPL comes back to the raw REPL, main.py not run.
            self.soft_resets += 1
            self.pyexec.reset_globals()
            self._write(b"\r\n" + SOFT_REBOOT + RAW_BANNER)
        elif byte == CTRL_D:
            self._run()
        else:
            self._line.append(byte)
            if self._line == RAW_PASTE_REQUEST:
                self._line.clear()
                self._write(b"R\x00")  # understood, not supported: the plain raw REPL

    def _run(self) -> None:
        source = bytes(self._line)
        self._line.clear()
        self._write(b"OK")
        try:
            out, error = self.pyexec.run(source)
        except HardReset:
            self.hard_reset = True
            return
        self._write(out + b"\x04" + error + b"\x04>")

    def _enter_raw(self) -> None:
        self.raw = True
        self.entered_raw += 1
        self._line.clear()
        self._write(b"\r\n" + RAW_BANNER)
