"""What the emulated Pico runs when a tool sends code to its raw REPL: the code itself, in
CPython, against the Pico's flash (a dict of file name to bytes) and small stand-ins for
MicroPython's ``os``, ``time`` and ``machine``; everything else (``hashlib``, ``binascii``,
``sys``) is CPython's own. Enough for mpremote's file commands (``cp``, ``ls``, ``rm``,
``sha256sum``), ``exec`` and ``reset``; not a MicroPython.
"""

from __future__ import annotations

import builtins
import errno
import io
import traceback
import types
from typing import Any


class HardReset(Exception):  # noqa: N818 - a request, not an error
    """``machine.reset()`` was called."""


class Flash:
    """The Pico's file system: flat, file names without a leading slash."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        # Names whose next write lands with a byte changed: a fault for the tests.
        self.corrupt: set[str] = set()

    @staticmethod
    def name(path: str) -> str:
        return path.lstrip("/")

    def open(self, path: str, mode: str = "r", *_: Any, **__: Any) -> Any:
        name = self.name(path)
        if "w" in mode:
            return _Writer(self, name, binary="b" in mode)
        if name not in self.files:
            raise OSError(errno.ENOENT, "ENOENT")
        data = self.files[name]
        return io.BytesIO(data) if "b" in mode else io.StringIO(data.decode())

    def stat(self, path: str) -> tuple[int, ...]:
        name = self.name(path)
        if name == "":
            return (0x4000, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        if name not in self.files:
            raise OSError(errno.ENOENT, "ENOENT")
        return (0x8000, 0, 0, 0, 0, 0, len(self.files[name]), 0, 0, 0)

    def remove(self, path: str) -> None:
        if self.files.pop(self.name(path), None) is None:
            raise OSError(errno.ENOENT, "ENOENT")

    def ilistdir(self, path: str = "") -> list[tuple[str, int, int, int]]:
        return [(name, 0x8000, 0, len(data)) for name, data in sorted(self.files.items())]

    def listdir(self, path: str = "") -> list[str]:
        return sorted(self.files)


class _Writer(io.BytesIO):
    def __init__(self, flash: Flash, name: str, *, binary: bool) -> None:
        super().__init__()
        self._flash, self._name, self._binary = flash, name, binary
        flash.files[name] = b""

    def write(self, data: Any) -> int:  # type: ignore[override]
        return super().write(data if self._binary else data.encode())

    def close(self) -> None:
        if not self.closed:
            data = bytearray(self.getvalue())
            if self._name in self._flash.corrupt and data:
                self._flash.corrupt.discard(self._name)
                data[len(data) // 2] ^= 0x20
            self._flash.files[self._name] = bytes(data)
        super().close()


class PyExec:
    """Runs raw-REPL code; its globals last, as on the Pico, until a soft reset."""

    def __init__(self, flash: Flash) -> None:
        self.flash = flash
        self.globals: dict[str, Any] = {}
        self.reset_globals()

    def reset_globals(self) -> None:
        out = self._out = io.StringIO()
        modules = self._modules()

        def import_(name: str, *args: Any, **kwargs: Any) -> Any:
            return modules[name] if name in modules else builtins.__import__(name, *args, **kwargs)

        def print_(*values: Any, sep: str = " ", end: str = "\n", **_: Any) -> None:
            out.write(sep.join(str(v) for v in values) + end)

        names = dict(vars(builtins), open=self.flash.open, print=print_, __import__=import_)
        self.globals = {"__builtins__": names, "__name__": "__main__"}

    def _modules(self) -> dict[str, types.ModuleType]:
        flash = self.flash
        os_ = types.ModuleType("os")
        for name in ("stat", "remove", "ilistdir", "listdir"):
            setattr(os_, name, getattr(flash, name))
        os_.getcwd = lambda: "/"  # type: ignore[attr-defined]
        time_ = types.ModuleType("time")
        time_.sleep_ms = lambda ms: None  # type: ignore[attr-defined]
        machine = types.ModuleType("machine")

        def reset() -> None:
            raise HardReset

        machine.reset = reset  # type: ignore[attr-defined]
        return {"os": os_, "time": time_, "machine": machine}

    def run(self, source: bytes) -> tuple[bytes, bytes]:
        """(output, error text) of running ``source``; HardReset passes through."""
        self._out.seek(0)
        self._out.truncate()
        error = b""
        try:
            exec(compile(source.decode(), "<stdin>", "exec"), self.globals)
        except HardReset:
            raise
        except Exception as exc:  # the REPL prints it, as MicroPython does, and carries on
            error = _traceback(exc)
        return self._out.getvalue().replace("\n", "\r\n").encode(), error


def _traceback(exc: BaseException) -> bytes:
    if isinstance(exc, OSError) and exc.errno is not None:
        last = f"OSError: [Errno {exc.errno}] {errno.errorcode.get(exc.errno, '')}"
    else:
        last = "".join(traceback.format_exception_only(exc)).strip()
    text = f'Traceback (most recent call last):\r\n  File "<stdin>", line 1\r\n{last}\r\n'
    return text.encode()
