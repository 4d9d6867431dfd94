"""The LED strip's whole software path on a PC: bgpi's NeoPixel backend, Adafruit's
``neopixel_spi``, Blinka's ``board`` and ``busio`` for a Raspberry Pi, and Adafruit_PureIO's
spidev code, all real. Only two things are not: the device Adafruit_PureIO opens is a
temporary file (there is no /dev/spidev here), and ``fcntl.ioctl`` is captured, so what the
kernel would be asked to send is seen byte for byte.
"""

from __future__ import annotations

import ctypes
import struct
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

# The modules that hold Blinka's idea of the machine; forgotten before and after, so that
# the forced board is seen by this test only.
BLINKA_MODULES = (
    "board",
    "busio",
    "digitalio",
    "microcontroller",
    "adafruit_blinka",
    "adafruit_platformdetect",
    "adafruit_bus_device",
    "neopixel_spi",
    "Adafruit_PureIO",
)


@dataclass
class Kernel:
    """The ioctls Adafruit_PureIO made, and which spidev devices it opened."""

    devices: list[tuple[int, int]] = field(default_factory=list)
    transfers: list[bytes] = field(default_factory=list)
    settings: list[int] = field(default_factory=list)

    def ioctl(self, handle: int, request: int, arg: Any, mutate: bool = False) -> int:
        from Adafruit_PureIO import spi  # noqa: PLC0415

        if request == spi.SPI._IOC_MESSAGE:
            tx, _rx, length = struct.unpack_from("QQI", arg)
            self.transfers.append(ctypes.string_at(tx, length))
        else:
            self.settings.append(request)
        return 0


def _forget_blinka() -> None:
    for name in list(sys.modules):
        if name.split(".")[0] in BLINKA_MODULES:
            del sys.modules[name]


@pytest.fixture(name="spi_kernel", params=["RASPBERRY_PI_4B", "RASPBERRY_PI_5"])
def spi_kernel_fixture(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Iterator[Kernel]:
    """Blinka believing it runs on a Pi 4 or 5, its spidev a file and its ioctl captured."""
    for name in list(sys.modules):
        if name.split(".")[0] in BLINKA_MODULES:
            monkeypatch.delitem(sys.modules, name)
    # The scanner tests put firmware/ on the path, whose board.py is the Pico's, not Blinka's.
    firmware = Path(__file__).resolve().parents[2] / "firmware"
    monkeypatch.setattr(sys, "path", [p for p in sys.path if Path(p).resolve() != firmware])
    # Adafruit-PlatformDetect's own switches for a board it cannot detect.
    monkeypatch.setenv("BLINKA_FORCECHIP", "BCM2XXX")
    monkeypatch.setenv("BLINKA_FORCEBOARD", request.param)
    monkeypatch.delenv("SPI_BUFSIZE", raising=False)
    kernel = Kernel()
    from Adafruit_PureIO import spi  # noqa: PLC0415

    real = spi.SPI
    path = tmp_path / "spidev"
    path.write_bytes(b"")

    class FileSPI(real):  # type: ignore[misc, valid-type]
        def __init__(self, device: tuple[int, int], **options: Any) -> None:
            kernel.devices.append(device)
            super().__init__(str(path), **options)

    monkeypatch.setattr(spi, "SPI", FileSPI)
    monkeypatch.setattr(spi, "ioctl", kernel.ioctl)
    try:
        yield kernel
    finally:
        _forget_blinka()
