from __future__ import annotations

import queue
import subprocess
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from gpiozero import Device, DigitalOutputDevice
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st

from bgpi.base.words import BLACK, WHITE
from bgpi.hal import ButtonEvent, PinMap, SensorEvent, gpio
from bgpi.hal.api import FaultEvent
from bgpi.hal.errors import BackendClosedError, BackendUnavailableError
from bgpi.hal.gpio import ChainSettings, GpioButtons, GpioSensors
from tests.hal.conftest import mock_pins
from tests.hal.mock165 import ShiftRegisterChain


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@contextmanager
def board(
    factory: MockFactory, nbits: int = 152, **options: object
) -> Iterator[tuple[ShiftRegisterChain, GpioSensors]]:
    chain = ShiftRegisterChain((nbits + 7) // 8, factory)
    sensors = GpioSensors(nbits, **options)  # type: ignore[arg-type]
    try:
        yield chain, sensors
    finally:
        sensors.close()
        chain.close()


def test_read_maps_chip_and_input_to_bit(mock_factory: MockFactory) -> None:
    with board(mock_factory) as (chain, sensors):
        # chip 0 input A, chip 1 input H, chip 18 input H: the first, a middle and the last.
        chain.closed = 1 << 0 | 1 << 15 | 1 << 151
        frame = sensors.read()
        assert frame.closed_bits() == (0, 15, 151)
        assert frame.nbits == 152
        assert sensors.chips == 19


def test_every_read_latches_the_inputs_once(mock_factory: MockFactory) -> None:
    with board(mock_factory) as (chain, sensors):
        sensors.read()
        sensors.read()
        assert chain.loads == 2


@settings(max_examples=25, deadline=None)
@given(closed=st.integers(min_value=0, max_value=(1 << 152) - 1))
def test_read_returns_exactly_the_closed_switches(closed: int) -> None:
    with mock_pins() as factory, board(factory) as (chain, sensors):
        chain.closed = closed
        assert sensors.read().bits == closed


def test_a_short_chain_ignores_the_unused_inputs(mock_factory: MockFactory) -> None:
    with board(mock_factory, nbits=12) as (chain, sensors):
        chain.closed = 0b1111_0001_0001_0001  # bits 12-15 are inputs wired to no sensor
        frame = sensors.read()
        assert sensors.chips == 2
        assert frame.nbits == 12 and frame.closed_bits() == (0, 4, 8)


def test_closed_high_wiring_is_not_inverted(mock_factory: MockFactory) -> None:
    with board(mock_factory, nbits=16, settings=ChainSettings(closed_low=False)) as (
        chain,
        sensors,
    ):
        chain.closed = 0b1  # input 0 low, all others high
        assert sensors.read().bits == 0xFFFE


def test_frames_carry_the_clock(mock_factory: MockFactory) -> None:
    clock = Clock()
    with board(mock_factory, clock=clock) as (_, sensors):
        assert sensors.read().timestamp == 100.0
        clock.now = 101.5
        assert sensors.read().timestamp == 101.5


def test_start_emits_the_first_frame_then_only_changes(mock_factory: MockFactory) -> None:
    events: list[object] = []
    with board(mock_factory, settings=ChainSettings(scan_hz=0.001)) as (chain, sensors):
        chain.closed = 1 << 7
        sensors.start(events.append)
        sensors.read()
        chain.closed = 1 << 7 | 1 << 8
        sensors.read()
        sensors.read()
    frames = [e.frame.bits for e in events if isinstance(e, SensorEvent)]
    assert frames == [1 << 7, 1 << 7 | 1 << 8]


def test_the_scan_thread_delivers_a_change(mock_factory: MockFactory) -> None:
    events: queue.Queue[object] = queue.Queue()
    with board(mock_factory) as (chain, sensors):
        sensors.start(events.put)
        first = events.get(timeout=10)
        assert isinstance(first, SensorEvent) and first.frame.bits == 0
        chain.closed = 1 << 42
        second = events.get(timeout=10)
        assert isinstance(second, SensorEvent) and second.frame.closed_bits() == (42,)


def test_a_failing_chain_is_reported_once_and_its_recovery_too(
    mock_factory: MockFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    events: queue.Queue[object] = queue.Queue()
    with board(mock_factory) as (chain, sensors):
        sensors.start(events.put)
        assert isinstance(events.get(timeout=10), SensorEvent)
        spi = sensors._spi
        real_read = spi.read
        failing = {"on": True}

        def read(count: int) -> object:
            if failing["on"]:
                raise OSError("SPI transfer failed")
            return real_read(count)

        monkeypatch.setattr(spi, "read", read)
        fault = events.get(timeout=10)
        assert isinstance(fault, FaultEvent) and "SPI transfer failed" in str(fault.message)
        chain.closed = 1 << 3
        failing["on"] = False
        # The first good read brings the new frame, then the word that the chain is back.
        frame = events.get(timeout=10)
        assert isinstance(frame, SensorEvent) and frame.frame.closed_bits() == (3,)
        recovered = events.get(timeout=10)
        assert isinstance(recovered, FaultEvent) and recovered.message is None


def test_close_is_idempotent_and_frees_the_pins(mock_factory: MockFactory) -> None:
    chain = ShiftRegisterChain(19, mock_factory)
    sensors = GpioSensors()
    sensors.start(lambda event: None)
    sensors.close()
    sensors.close()
    with pytest.raises(BackendClosedError):
        sensors.read()
    with GpioSensors() as again:
        chain.closed = 1 << 3
        assert again.read().closed_bits() == (3,)
    chain.close()


def test_missing_gpiozero_is_one_clear_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gpiozero", None)
    with pytest.raises(BackendUnavailableError) as caught:
        GpioSensors().start(lambda event: None)
    message = str(caught.value)
    assert "\n" not in message
    assert "gpiozero" in message and "pip install 'bgpi[pi]'" in message
    with pytest.raises(BackendUnavailableError, match="gpiozero"):
        GpioButtons().start(lambda event: None)


def test_backends_import_without_their_libraries() -> None:
    code = (
        "import sys\n"
        "for name in ('gpiozero', 'neopixel_spi', 'neopixel', 'board', 'busio'):\n"
        "    sys.modules[name] = None\n"
        "import bgpi.hal, bgpi.hal.gpio, bgpi.hal.neopixel, bgpi.hal.sim\n"
        "print('ok')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert result.stdout.strip() == "ok", result.stderr


def test_no_pin_library_is_one_clear_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    monkeypatch.setitem(sys.modules, "lgpio", None)
    with pytest.raises(BackendUnavailableError) as caught:
        GpioSensors().start(lambda event: None)
    message = str(caught.value)
    assert "\n" not in message
    assert "found no GPIO library" in message and "gpio group" in message
    # Plain pip compiles spidev: the line says what it needs first.
    assert "gcc python3-dev" in message and "scripts/install.sh" in message


@pytest.fixture
def no_pin_factory_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    """gpiozero tries each of its pin factories in turn, and none loads: as on a machine
    without GPIO, whatever this one is."""
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    for name in ("lgpio", "rpigpio", "pigpio", "native"):
        monkeypatch.setitem(sys.modules, f"gpiozero.pins.{name}", None)


@pytest.mark.usefixtures("no_pin_factory_loads")
def test_lgpio_without_a_gpio_chip_says_the_chip_is_missing_not_the_library(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import lgpio  # noqa: F401, PLC0415 - the real library (the pi and dev extras have it)

    monkeypatch.setattr(gpio, "GPIO_CHIPS", tmp_path)  # a /dev with no gpiochip
    with pytest.raises(BackendUnavailableError) as caught:
        GpioButtons().start(lambda event: None)
    message = str(caught.value)
    assert "\n" not in message
    assert f"found lgpio but no GPIO chip (no {tmp_path}/gpiochip*)" in message
    assert "no GPIO library" not in message


def test_each_gpio_chip_is_tried_and_its_error_kept(tmp_path: Path) -> None:
    (tmp_path / "gpiochip0").mkdir()  # a directory: opening it fails for root too
    (tmp_path / "gpiochip1").write_bytes(b"")
    (tmp_path / "gpiomem").write_bytes(b"")
    chips = gpio.open_chips(tmp_path)
    assert [path.name for path, _ in chips] == ["gpiochip0", "gpiochip1"]
    assert isinstance(chips[0][1], IsADirectoryError) and chips[1][1] is None
    only_the_directory = gpio.explain_no_pin_factory(
        "Falling back from lgpio: can not open gpiochip",
        machine="aarch64",
        lgpio_found=True,
        chips=chips[:1],
    )
    assert only_the_directory.startswith(f"the gpio backend cannot open {tmp_path}/gpiochip0: ")
    assert "IsADirectoryError" in only_the_directory
    # A chip that opens: the fault is elsewhere, and gpiozero's reason says where.
    assert gpio.explain_no_pin_factory(
        "Falling back from lgpio: GPIO busy", machine="aarch64", lgpio_found=True, chips=chips
    ) == ("the gpio backend cannot use lgpio: Falling back from lgpio: GPIO busy")


def test_a_gpio_chip_the_user_may_not_open_asks_for_the_gpio_group() -> None:
    chip = Path("/dev/gpiochip0")
    denied = PermissionError(13, "Permission denied", str(chip))
    message = gpio.explain_no_pin_factory(
        "Falling back from lgpio: can not open gpiochip",
        machine="armv7l",
        lgpio_found=True,
        chips=[(chip, denied)],
    )
    assert message.startswith("the gpio backend may not open /dev/gpiochip0: ")
    assert "sudo usermod -aG gpio $USER" in message


def test_a_pi_zero_w_is_told_it_is_not_supported() -> None:
    # The pi extra installs no lgpio on armv6l: the reason is the machine, not the library.
    message = gpio.explain_no_pin_factory(
        "Unable to load any default pin factory!", machine="armv6l", lgpio_found=False, chips=[]
    )
    assert message == (
        "the gpio backend does not support a Raspberry Pi Zero W or Pi 1 (ARMv6): bgpi needs "
        "a Raspberry Pi Zero 2 W, 3, 4 or 5"
    )


def test_spi_turned_off_is_one_clear_line(
    mock_factory: MockFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    software = mock_factory._get_spi_class

    def no_kernel_spi(shared: bool, hardware: bool) -> object:
        if hardware:
            raise OSError("[Errno 2] No such file or directory: '/dev/spidev0.1'")
        return software(shared, hardware)

    monkeypatch.setattr(mock_factory, "_get_spi_class", no_kernel_spi)
    sensors = GpioSensors()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the fallback warning must not leak out either
        with pytest.raises(BackendUnavailableError) as caught:
            sensors.start(lambda event: None)
    assert "\n" not in str(caught.value)
    assert "dtparam=spi=on" in str(caught.value)
    # Nothing stays reserved: the latch pin can be opened again.
    DigitalOutputDevice(PinMap().sensor_latch).close()


def test_a_pin_in_use_is_named(mock_factory: MockFactory) -> None:
    other = DigitalOutputDevice(25)
    try:
        with pytest.raises(BackendUnavailableError, match="GPIO25") as caught:
            GpioSensors().start(lambda event: None)
        assert "\n" not in str(caught.value)
    finally:
        other.close()


@pytest.mark.parametrize(
    ("gpio", "player", "button"),
    [(5, WHITE, "roll"), (6, WHITE, "cube"), (13, BLACK, "roll"), (26, BLACK, "cube")],
)
def test_buttons_become_events(
    mock_factory: MockFactory, gpio: int, player: int, button: str
) -> None:
    clock = Clock()
    events: list[object] = []
    with GpioButtons(clock=clock) as buttons:
        buttons.start(events.append)
        pin = mock_factory.pin(gpio)
        assert pin.pull == "up"
        assert pin.bounce == pytest.approx(0.02)
        pin.drive_low()
        clock.now = 100.25
        pin.drive_high()
    assert events == [
        ButtonEvent(player, button, True, 100.0),  # type: ignore[arg-type]
        ButtonEvent(player, button, False, 100.25),  # type: ignore[arg-type]
    ]


def test_buttons_follow_the_pin_map(mock_factory: MockFactory) -> None:
    pins = PinMap(white_roll=16, white_cube=17, black_roll=22, black_cube=23)
    events: list[ButtonEvent] = []
    with GpioButtons(pins=pins, bounce_time=0.05) as buttons:
        buttons.start(events.append)  # type: ignore[arg-type]
        for gpio in (23, 16):
            mock_factory.pin(gpio).drive_low()
        assert mock_factory.pin(22).bounce == pytest.approx(0.05)
    assert [(e.player, e.button, e.pressed) for e in events] == [
        (BLACK, "cube", True),
        (WHITE, "roll", True),
    ]


def test_buttons_close_is_idempotent_and_frees_the_pins(mock_factory: MockFactory) -> None:
    buttons = GpioButtons()
    buttons.start(lambda event: None)
    buttons.close()
    buttons.close()
    with pytest.raises(BackendClosedError):
        buttons.start(lambda event: None)
    DigitalOutputDevice(5).close()
