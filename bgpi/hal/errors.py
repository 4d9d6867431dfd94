"""The hardware layer's error tree, after gpiozero's: each error also inherits the built-in
type a caller would expect, so ``except ValueError`` still catches bad configuration."""

from __future__ import annotations

from typing import Final

from bgpi.base.errors import BgpiError

# A bad wiring map is the geometry's error, raised by the pure core too; re-exported here.
from bgpi.base.geometry import GeometryError

# How a missing hardware library is got, for every backend's message. Plain pip compiles
# spidev (and on 32-bit systems gpiod and sysv_ipc, which PyPI has no wheels of): it needs a C
# compiler and Python's headers first. The installer uses Raspberry Pi OS's prebuilt packages.
INSTALL: Final = (
    "sudo apt install gcc python3-dev, then pip install 'bgpi[pi]' (it compiles spidev); "
    "on the Pi, sudo scripts/install.sh does both"
)


class HalError(BgpiError):
    """Base of every error raised by :mod:`bgpi.hal`."""


class PixelFrameError(HalError, ValueError):
    """A pixel frame of the wrong length, or a colour that is not three bytes."""


class BackendUnavailableError(HalError, RuntimeError):
    """A backend whose library or device is missing; the message says how to get it."""


class BackendClosedError(HalError, RuntimeError):
    """A backend used after :meth:`close`."""


class SimActionError(HalError, ValueError):
    """A hand's action the simulated board cannot do: lifting from an empty point, knocking a
    checker that is not there, pressing a button already down."""


class UnknownBackendError(HalError, ValueError):
    """A backend name that is not one of the known ones."""


def one_line(exc: BaseException) -> str:
    """``"OSError: first line of the message"``: a library's error, fit for one line."""
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0]}" if lines else type(exc).__name__


__all__ = [
    "INSTALL",
    "BackendClosedError",
    "BackendUnavailableError",
    "GeometryError",
    "HalError",
    "PixelFrameError",
    "SimActionError",
    "UnknownBackendError",
    "one_line",
]
