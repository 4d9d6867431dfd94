from __future__ import annotations

import sys
import types
from functools import partial
from pathlib import Path

import pytest
from adafruit_pixelbuf import PixelBuf

from bgpi.hal import open_pixels
from bgpi.hal.errors import BackendClosedError, BackendUnavailableError, PixelFrameError
from bgpi.hal.neopixel import PIXEL_ORDERS, NeoPixelStrip, spi_driver, spi_frame_bytes
from bgpi.lights.ledmap import LedMap
from bgpi.service.app import _pixel_options
from bgpi.service.config import parse
from tests.hal.spistack import Kernel, spi_kernel_fixture  # noqa: F401 - a fixture


class CapturedStrip(PixelBuf):  # type: ignore[misc]
    """Adafruit's real PixelBuf with the wire replaced by a list."""

    def __init__(self, count: int, *, pixel_order: str, brightness: float) -> None:
        super().__init__(count, byteorder=pixel_order, brightness=brightness, auto_write=False)
        self.sent: list[bytes] = []
        self.deinits = 0

    def _transmit(self, buffer: bytearray) -> None:
        self.sent.append(bytes(buffer))

    def deinit(self) -> None:
        self.deinits += 1


def captured(count: int = 3, **options: object) -> tuple[NeoPixelStrip, CapturedStrip]:
    made: list[CapturedStrip] = []

    def factory(count: int, *, pixel_order: str, brightness: float) -> CapturedStrip:
        made.append(CapturedStrip(count, pixel_order=pixel_order, brightness=brightness))
        return made[-1]

    strip = NeoPixelStrip(count, driver=factory, **options)  # type: ignore[arg-type]
    return strip, made[0]


def test_the_strip_starts_dark() -> None:
    strip, wire = captured()
    assert wire.sent == [bytes(9)]
    assert len(strip) == 3


def test_bytes_go_out_green_red_blue() -> None:
    strip, wire = captured()
    strip.show([(255, 0, 0), (0, 255, 0), (0, 0, 255)])
    assert wire.sent[-1] == bytes([0, 255, 0, 255, 0, 0, 0, 0, 255])


def test_frame_contents_land_on_their_pixels() -> None:
    strip, wire = captured(4)
    strip.show([(1, 2, 3), (4, 5, 6), (7, 8, 9), (10, 11, 12)])
    assert wire.sent[-1] == bytes([2, 1, 3, 5, 4, 6, 8, 7, 9, 11, 10, 12])
    strip.show([(0, 0, 0)] * 3 + [(255, 128, 1)])
    assert wire.sent[-1] == bytes(9) + bytes([128, 255, 1])


def test_brightness_scales_every_byte() -> None:
    strip, wire = captured(1, brightness=0.5)
    strip.show([(200, 100, 51)])
    assert wire.sent[-1] == bytes([50, 100, 25])


def test_another_pixel_order() -> None:
    strip, wire = captured(1, pixel_order="RGB")
    strip.show([(10, 20, 30)])
    assert wire.sent[-1] == bytes([10, 20, 30])


def test_one_write_per_frame() -> None:
    strip, wire = captured()
    for n in range(5):
        strip.show([(n, n, n)] * 3)
    assert len(wire.sent) == 1 + 5


def test_a_frame_of_the_wrong_length_is_refused() -> None:
    strip, wire = captured()
    with pytest.raises(PixelFrameError, match="3 pixels, got 2") as caught:
        strip.show([(1, 1, 1)] * 2)
    assert isinstance(caught.value, ValueError)
    with pytest.raises(ValueError, match="pixel 2 is"):
        strip.show([(1, 1, 1), (1, 1, 1), (1, 1, 300)])
    assert len(wire.sent) == 1  # nothing half-written


def test_close_goes_dark_once() -> None:
    strip, wire = captured()
    strip.show([(9, 9, 9)] * 3)
    strip.close()
    strip.close()
    assert wire.sent[-1] == bytes(9) and len(wire.sent) == 3 and wire.deinits == 1
    with pytest.raises(BackendClosedError):
        strip.show([(0, 0, 0)] * 3)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"brightness": 1.5}, "brightness"),
        ({"pixel_order": "GRBX"}, "pixel_order"),
        ({"wiring": "i2c"}, "wiring"),
    ],
)
def test_bad_options_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        NeoPixelStrip(3, **options)  # type: ignore[arg-type]


def test_a_strip_that_cannot_be_written_fails_at_start_in_one_line() -> None:
    class Unwritable(CapturedStrip):
        def _transmit(self, buffer: bytearray) -> None:
            raise RuntimeError("ws2811_init failed with code -5 (mmap() failed)\nmore detail")

    with pytest.raises(BackendUnavailableError) as caught:
        NeoPixelStrip(3, wiring="pwm", driver=Unwritable)
    assert "\n" not in str(caught.value)
    assert "mmap() failed" in str(caught.value) and "needs root" in str(caught.value)


class FakeSpiBus:
    """A busio.SPI as adafruit_bus_device uses it."""

    frequency = 6_400_000

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.configured: list[dict[str, int]] = []

    def try_lock(self) -> bool:
        return True

    def unlock(self) -> None:
        pass

    def configure(self, **settings: int) -> None:
        self.configured.append(settings)

    def write(self, data: bytes) -> None:
        self.writes.append(bytes(data))


def decode_ws2812(spi_bytes: bytes) -> bytes:
    """neopixel_spi sends each strip bit as one SPI byte: 0b11110000 a one, 0b11000000 a zero."""
    bits = [{0b11110000: 1, 0b11000000: 0}[b] for b in spi_bytes]
    return bytes(int("".join(str(b) for b in bits[i : i + 8]), 2) for i in range(0, len(bits), 8))


def test_the_real_neopixel_spi_driver_sends_grb_on_the_wire() -> None:
    bus = FakeSpiBus()
    strip = NeoPixelStrip(2, brightness=0.5, driver=partial(spi_driver, spi=bus))
    strip.show([(255, 0, 10), (0, 64, 0)])
    assert len(bus.writes) == 2  # the dark start and the frame: no writes while filling
    reset = bytes(64)  # 80 us of low at 6.4 MHz
    wire = bus.writes[-1]
    assert wire.startswith(reset) and wire.endswith(reset)
    assert decode_ws2812(wire[64:-64]) == bytes([0, 127, 5, 32, 0, 0])
    assert bus.configured[-1]["baudrate"] == 6_400_000


def test_missing_neopixel_spi_is_one_clear_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "neopixel_spi", None)
    with pytest.raises(BackendUnavailableError) as caught:
        NeoPixelStrip(3)
    message = str(caught.value)
    assert "\n" not in message
    assert "adafruit-circuitpython-neopixel-spi" in message and "pip install 'bgpi[pi]'" in message


def test_missing_pwm_packages_are_one_clear_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "neopixel", None)
    with pytest.raises(BackendUnavailableError) as caught:
        NeoPixelStrip(3, wiring="pwm")
    assert "\n" not in str(caught.value)
    assert "rpi_ws281x" in str(caught.value)
    assert "Adafruit-Blinka-Raspberry-Pi5-Neopixel" in str(caught.value)


def test_spi_wiring_needs_a_mosi_pin() -> None:
    with pytest.raises(ValueError, match=r"GPIO10 .* or GPIO20"):
        NeoPixelStrip(3, data_pin=18)


def test_spi_turned_off_is_one_clear_line(monkeypatch: pytest.MonkeyPatch) -> None:
    board = types.ModuleType("board")
    board.SCLK_1, board.MOSI_1 = "D21", "D20"  # type: ignore[attr-defined]
    busio = types.ModuleType("busio")

    def no_spi(clock: str, MOSI: str) -> None:  # noqa: N803 - busio's own keyword
        raise FileNotFoundError("[Errno 2] No such file or directory: '/dev/spidev1.0'")

    busio.SPI = no_spi  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "board", board)
    monkeypatch.setitem(sys.modules, "busio", busio)
    with pytest.raises(BackendUnavailableError) as caught:
        NeoPixelStrip(3, data_pin=20)
    message = str(caught.value)
    assert "\n" not in message
    assert "SPI1" in message and "dtoverlay=spi1-1cs" in message and "spi group" in message


# -- the whole path to the kernel: neopixel_spi, Blinka and Adafruit_PureIO's real code ------


def ws2812_bits(data: bytes) -> bytes:
    """What neopixel_spi must send for ``data``: each bit as one SPI byte."""
    return bytes(
        0b11110000 if byte >> bit & 1 else 0b11000000 for byte in data for bit in range(7, -1, -1)
    )


def test_a_frame_of_the_default_map_is_one_spi_transfer(spi_kernel: Kernel) -> None:
    count = LedMap.default().length
    strip = NeoPixelStrip(count)  # the defaults: SPI wiring on GPIO20, GRB
    frame = [(index % 256, 255 - index % 256, index * 7 % 256) for index in range(count)]
    spi_kernel.transfers.clear()
    strip.show(frame)
    reset = bytes(64)
    grb = bytes(byte for r, g, b in frame for byte in (g, r, b))
    assert spi_kernel.transfers == [reset + ws2812_bits(grb) + reset]
    assert len(spi_kernel.transfers[0]) == spi_frame_bytes(count, "GRB") == 24 * count + 128
    assert spi_kernel.devices == [(1, 0)]  # /dev/spidev1.0: SPI1, the LEDs' own bus


@pytest.mark.parametrize(("led_data", "device"), [(10, (0, 0)), (20, (1, 0))])
def test_the_config_s_led_data_picks_the_bus(
    spi_kernel: Kernel, led_data: int, device: tuple[int, int]
) -> None:
    config = parse({"leds": {"backend": "neopixel"}, "pins": {"led_data": led_data}})
    strip = open_pixels("neopixel", config.ledmap.length, **_pixel_options(config))
    strip.close()
    assert spi_kernel.devices == [device]
    # Dark at the start, at close, and once more by neopixel_spi's deinit: a transfer each.
    frame = spi_frame_bytes(config.ledmap.length, "GRB")
    assert [len(sent) for sent in spi_kernel.transfers] == [frame] * 3


@pytest.mark.parametrize("order", PIXEL_ORDERS)
def test_every_pixel_order_the_check_passes_reaches_the_wire(
    spi_kernel: Kernel, order: str
) -> None:
    config = parse({"leds": {"backend": "neopixel", "pixel_order": order}})
    strip = open_pixels("neopixel", 3, **_pixel_options(config))
    spi_kernel.transfers.clear()
    strip.show([(1, 2, 3), (4, 5, 6), (7, 8, 9)])
    channels = [{"R": r, "G": g, "B": b, "W": 0} for r, g, b in ((1, 2, 3), (4, 5, 6), (7, 8, 9))]
    sent = bytes(pixel[channel] for pixel in channels for channel in order)
    assert spi_kernel.transfers == [bytes(64) + ws2812_bits(sent) + bytes(64)]


def test_a_kernel_buffer_too_small_for_a_frame_is_one_clear_line(
    spi_kernel: Kernel, tmp_path: Path
) -> None:
    bufsiz = tmp_path / "bufsiz"
    bufsiz.write_text("4096\n")
    with pytest.raises(BackendUnavailableError) as caught:
        spi_driver(244, pixel_order="GRB", brightness=1.0, bufsiz=bufsiz)
    message = str(caught.value)
    assert "\n" not in message and "5984 bytes" in message and "bufsiz=32768" in message
    assert spi_kernel.devices == []  # refused before the bus was opened


def test_a_big_enough_kernel_buffer_is_used_whole(spi_kernel: Kernel, tmp_path: Path) -> None:
    bufsiz = tmp_path / "bufsiz"
    bufsiz.write_text("32768\n")
    driver = spi_driver(300, pixel_order="GRBW", brightness=1.0, bufsiz=bufsiz)
    driver.fill((1, 1, 1))
    driver.show()
    assert [len(sent) for sent in spi_kernel.transfers] == [300 * 32 + 128]
