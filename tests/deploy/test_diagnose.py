"""`bgpi diagnose` on the simulator: the builder's hands are scripted, one action each time the
self-test waits, and the lines it prints are read back."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import pytest
from gpiozero.pins.mock import MockFactory

from bgpi.base.words import BAR_BLACK, BLACK, CUBE, ROLL, WHITE
from bgpi.builder.diagnose import Diagnose
from bgpi.hal import Geometry, SeededDice, SensorFrame
from bgpi.hal.gpio import GpioSensors
from bgpi.hal.sim import ManualClock, SimBoard, SimButtons, SimPixels
from bgpi.lights.ledmap import LedMap
from bgpi.service.app import Hardware
from bgpi.service.config import Config
from tests.hal.conftest import mock_pins
from tests.hal.mock165 import ShiftRegisterChain

LEDS = LedMap.default()
GREEN = (0, 96, 0)


@dataclass
class Rig:
    """A simulated board, its buttons and strip on one manual clock, and a self-test on them
    whose every wait lets time pass and then does the next scripted action."""

    board: SimBoard
    buttons: SimButtons = field(init=False)
    pixels: SimPixels = field(init=False)
    hands: list[Callable[[], object]] = field(default_factory=list)
    hand: Callable[[], None] | None = None  # called on every wait, after the hands
    lines: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        assert isinstance(self.board.clock, ManualClock)
        self.clock = self.board.clock
        self.buttons = SimButtons(clock=self.clock)
        self.pixels = SimPixels(LEDS.length, history=2000)
        hardware = Hardware(self.board, self.buttons, self.pixels, SeededDice(1))
        self.diagnose = Diagnose(
            hardware, Config(), out=self.lines.append, clock=self.clock, sleep=self.sleep
        )

    def sleep(self, seconds: float) -> None:
        self.board.advance(seconds)
        if self.hands:
            self.hands.pop(0)()
        if self.hand is not None:
            self.hand()

    def after(self, line: str) -> list[str]:
        """The lines printed after ``line``."""
        return self.lines[self.lines.index(line) + 1 :]


def rig(board: SimBoard | None = None) -> Rig:
    return Rig(board if board is not None else SimBoard(clock=ManualClock()))


def test_the_led_walk_lights_each_pixel_in_turn_and_names_it() -> None:
    r = rig()
    r.diagnose.leds(step=0.1)
    walk = [line.strip() for line in r.lines if line.startswith("  pixel ")]
    assert len(walk) == LEDS.length
    assert walk[:7] == [
        "pixel 0: point 1, base (1 of 6)",
        "pixel 1: point 1, 2 of 6",
        "pixel 2: point 1, 3 of 6",
        "pixel 3: point 1, 4 of 6",
        "pixel 4: point 1, 5 of 6",
        "pixel 5: point 1, tip (6 of 6)",
        "pixel 6: point 2, tip (6 of 6)",
    ]
    assert "pixel 144: white bar, base (1 of 4)" in walk
    assert "pixel 148: cube.centre, first (1 of 6)" in walk
    assert "pixel 172: button.white.roll" in walk
    assert "pixel 243: score.black, last (15 of 15)" in walk
    assert walk[-1] == "pixel 263: clock.white, last (10 of 10)"
    assert not [line for line in r.lines if "no pixels for" in line]  # the default has all
    frames = list(r.pixels.frames)
    for pixel in range(LEDS.length):
        lit = [i for i, colour in enumerate(frames[pixel]) if colour != (0, 0, 0)]
        assert lit == [pixel]
    primaries = frames[LEDS.length : LEDS.length + 3]
    assert [set(frame) for frame in primaries] == [{(64, 0, 0)}, {(0, 64, 0)}, {(0, 0, 64)}]
    assert set(r.pixels.frames[-1]) == {(0, 0, 0)}
    assert r.clock() == pytest.approx(0.1 * LEDS.length + 3 * 0.5)


def test_the_led_walk_names_the_areas_a_board_has_no_pixels_for() -> None:
    config = LEDS.to_config()
    areas = config["areas"]
    assert isinstance(areas, dict)
    del areas["clock.white"], areas["clock.black"]
    config["length"] = 244  # a board laid before the clocks
    lines: list[str] = []
    board = SimBoard(clock=ManualClock())
    hardware = Hardware(board, SimButtons(clock=board.clock), SimPixels(244), SeededDice(1))
    older = replace(Config(), ledmap=LedMap.from_config(config))
    Diagnose(hardware, older, out=lines.append, clock=board.clock, sleep=board.advance).leds(0)
    assert lines[2] == (
        "  no pixels for clock.white, clock.black: not shown on this board "
        "(hardware/leds.md says how to add them)"
    )


def test_each_switch_is_printed_live_with_its_point_and_slot_and_lit() -> None:
    r = rig()
    lit: list[tuple[int, ...]] = []
    r.hands = [
        lambda: r.board.place(7, WHITE),
        lambda: lit.append(_lit(r)),
        lambda: r.board.place(7, WHITE),
        lambda: r.board.lift(7),
        lambda: r.board.place(BAR_BLACK, BLACK),
        lambda: lit.append(_lit(r)),
    ]
    r.diagnose.switches(seconds=1.0)

    changes = [line.strip() for line in r.lines if line.endswith(("closed", "open"))]
    assert "  closed now: none" in r.lines
    assert changes == [
        "point 7 slot 0 closed",
        "point 7 slot 1 closed",
        "point 7 slot 1 open",
        "black bar slot 0 closed",
    ]
    assert lit == [(LEDS.pixels(7)[0],), (LEDS.pixels(7)[0], LEDS.pixels(BAR_BLACK)[0])]
    assert r.after("  seen closed: 3 of 152 switches") == [
        "  never closed:",
        "    every slot of points 1-6, 8-24, white bar",
        "    point 7 slot 2-5",
        "    black bar slot 1-3",
    ]
    assert r.diagnose.findings.problems == [
        "149 of 152 switches never closed (listed above): put a checker on each slot once; "
        "one that never closes is unwired, on the wrong input or broken"
    ]


def _lit(r: Rig) -> tuple[int, ...]:
    frame = r.pixels.last
    assert frame is not None
    return tuple(i for i, colour in enumerate(frame) if colour == GREEN)


def test_a_miswired_slot_shows_at_once_as_the_wrong_slot() -> None:
    # The board as built: point 7's slots 1 and 2 wired to each other's chain inputs. The
    # config (and so the self-test) expects the default order.
    default = Geometry.default()
    swapped = {bit: entry for bit, *entry in default.entries()}
    one, two = default.bit_of(7, 1), default.bit_of(7, 2)
    swapped[one], swapped[two] = (7, 2), (7, 1)
    built = Geometry.from_bits({bit: (zone, slot) for bit, (zone, slot) in swapped.items()})
    r = rig(SimBoard(built, clock=ManualClock()))
    r.hands = [lambda: r.board.place(7, WHITE), lambda: r.board.place(7, WHITE)]
    r.diagnose.switches(seconds=0.5)
    assert "  point 7 slot 0 closed" in r.lines
    assert "  point 7 slot 2 closed" in r.lines  # the second checker, on the second slot


def test_switches_closed_before_the_test_are_named() -> None:
    board = SimBoard(clock=ManualClock())
    board.setup({1: (WHITE, 2), 24: (BLACK, 1)})
    r = rig(board)
    r.diagnose.switches(seconds=0.1)
    assert "  closed now: point 1 slot 0, point 1 slot 1, point 24 slot 0" in r.lines
    assert "  seen closed: 3 of 152 switches" in r.lines


def test_every_button_is_asked_for_and_every_press_reported() -> None:
    r = rig()
    wrong_one_pressed = False

    def press_what_is_asked() -> None:
        nonlocal wrong_one_pressed
        asked = [line for line in r.lines if line.startswith("  press ")][-1]
        if asked == "  press White CUBE" and not wrong_one_pressed:
            wrong_one_pressed = True
            r.buttons.click(BLACK, CUBE)
        elif asked != "  press Black ROLL" and not r.lines[-1].endswith(" pressed"):
            player, button = asked.split()[1:]
            r.buttons.click(("White", "Black").index(player), button.lower())  # type: ignore[arg-type]

    r.hand = press_what_is_asked
    r.diagnose.buttons(seconds=2.0)
    assert [line.strip() for line in r.lines[1:]] == [
        "press White ROLL",
        "White ROLL pressed",
        "press White CUBE",
        "White ROLL released",
        "Black CUBE pressed (asked for White CUBE: are they swapped?)",
        "Black CUBE released",
        "White CUBE pressed",
        "press Black ROLL",
        "White CUBE released",
        "Black ROLL: no press within 2 s",
        "press Black CUBE",
        "Black CUBE pressed",
    ]
    assert r.diagnose.findings.problems == [
        "Black CUBE pressed when White CUBE was asked for",
        "Black ROLL was not seen",
    ]


def test_the_asked_button_is_lit() -> None:
    r = rig()
    seen: list[tuple[int, ...]] = []

    def look() -> None:
        frame = r.pixels.last
        assert frame is not None
        seen.append(tuple(i for i, colour in enumerate(frame) if colour != (0, 0, 0)))
        r.buttons.click(WHITE, ROLL)

    r.hands = [look]
    r.diagnose.buttons(seconds=0.1)
    assert seen == [LEDS.pixels("button.white.roll")]


class FlakyBoard(SimBoard):
    """Every tenth read fails, as a chain with a loose connector might."""

    reads = 0

    def read(self) -> SensorFrame:
        self.reads += 1
        if self.reads % 10 == 0:
            raise OSError("[Errno 5] Input/output error")
        return super().read()


class NoisyBoard(SimBoard):
    """Point 3's slot 2 flickers with nothing on it: a floating input."""

    reads = 0

    def read(self) -> SensorFrame:
        self.reads += 1
        frame = super().read()
        return SensorFrame(frame.bits | (self.reads % 2) << 14, frame.nbits, frame.timestamp)


@dataclass(frozen=True)
class ChainSettings:
    scan_hz: float


class SlowCountingBoard(SimBoard):
    """A backend that says how fast it scans and counts its faults, and reads in 10 ms."""

    settings = ChainSettings(200.0)

    def read(self) -> SensorFrame:
        self.advance(0.01)
        return super().read()

    def stats(self) -> dict[str, int]:
        return {"packets": 10, "frames": 2, "crc": 3}


def test_the_sensor_report_counts_read_errors() -> None:
    r = rig(FlakyBoard(clock=ManualClock()))
    r.diagnose.sensors()
    assert "  read errors: 20 of 200, the first: OSError: [Errno 5] Input/output error" in r.lines
    assert "  200 reads in no measurable time" in r.lines
    assert "  the backend does not say how often it scans" in r.lines
    assert r.diagnose.findings.problems == [
        "20 of 200 sensor reads failed: OSError: [Errno 5] Input/output error"
    ]


def test_the_sensor_report_finds_a_flickering_switch() -> None:
    r = rig(NoisyBoard(clock=ManualClock()))
    r.diagnose.sensors()
    assert "  unsteady: point 3 slot 2 changed 199 times while nothing moved" in r.lines
    assert len(r.diagnose.findings.problems) == 1


def test_the_sensor_report_gives_the_scan_rate_and_the_backends_counters() -> None:
    r = rig(SlowCountingBoard(clock=ManualClock()))
    r.diagnose.sensors()
    assert "  the backend scans the chain 200 times a second" in r.lines
    assert "  200 reads in 2.000 s: up to 100 a second" in r.lines
    assert "  backend counters: crc 3, frames 2, packets 10" in r.lines
    assert r.diagnose.findings.problems == [
        "the chain reads only 100 times a second, slower than the 200 the backend wants",
        "the sensor backend counted 3 x crc",
    ]


def _close_every_switch(board: SimBoard) -> None:
    """The builder's walk of the switch step: a stack as tall as each zone's slots, lifted
    again, so every switch closes once."""
    geometry = Geometry.default()
    for zone in {zone for _bit, zone, _slot in geometry.entries()}:
        for _ in range(geometry.slots(zone)):
            board.place(zone, WHITE)
        for _ in range(geometry.slots(zone)):
            board.lift(zone)


def test_a_quiet_board_passes_and_a_missing_button_fails() -> None:
    r = rig()
    walked: list[bool] = []

    def builder() -> None:  # once the switch step watches, the builder walks the board
        if not walked and any(line.startswith("switches:") for line in r.lines):
            walked.append(True)
            _close_every_switch(r.board)

    r.hand = builder
    assert r.diagnose.run(["sensors", "leds", "switches"], seconds=0.5, step=0) == 0
    assert "  every switch closed at least once" in r.lines
    assert r.lines[-1] == "no problems found"
    assert set(r.pixels.frames[-1]) == {(0, 0, 0)}
    r = rig()
    assert r.diagnose.run(["buttons"], seconds=0.1) == 1
    assert r.lines[-5:] == [
        "4 problem(s):",
        "  - White ROLL was not seen",
        "  - White CUBE was not seen",
        "  - Black ROLL was not seen",
        "  - Black CUBE was not seen",
    ]
    with pytest.raises(ValueError, match="unknown steps"):
        rig().diagnose.run(["lights"])


def test_on_the_gpio_backend_the_scan_thread_reports_a_switch() -> None:
    with mock_pins() as factory:
        gpio_diagnose(factory)


def gpio_diagnose(factory: MockFactory) -> None:
    chain = ShiftRegisterChain(19, factory)
    sensors = GpioSensors(152)
    pixels = SimPixels(LEDS.length)
    lines: list[str] = []
    hands = [lambda: setattr(chain, "closed", 1 << 42)]

    def sleep(seconds: float) -> None:
        time.sleep(seconds)
        if hands:
            hands.pop(0)()

    hardware = Hardware(sensors, SimButtons(), pixels, SeededDice(1))
    diagnose = Diagnose(hardware, Config(), out=lines.append, sleep=sleep)
    try:
        diagnose.sensors(reads=20)
        diagnose.switches(seconds=1.0)
    finally:
        sensors.close()
        chain.close()
    assert "sensors: GpioSensors, 152 inputs (19 chips of 8)" in lines
    assert "  the backend scans the chain 200 times a second" in lines
    assert "  read errors: none" in lines
    assert "  point 8 slot 0 closed" in lines


def bgpi(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bgpi", "diagnose", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_bgpi_diagnose_runs_on_the_simulator() -> None:
    leds = bgpi("--leds-only", "--step", "0")
    assert leds.returncode == 0, leds.stderr
    assert "  pixel 243: score.black, last (15 of 15)" in leds.stdout.splitlines()
    assert "sensors:" not in leds.stdout
    switches = bgpi("--switches-only", "--seconds", "0.2")
    assert switches.returncode == 1, switches.stderr  # nobody closed a switch: not a pass
    assert "sensors: SimBoard, 152 inputs (19 chips of 8)" in switches.stdout
    assert "  seen closed: 0 of 152 switches" in switches.stdout
    assert "    every slot of points 1-24, white bar, black bar" in switches.stdout
    assert "  - 152 of 152 switches never closed (listed above)" in switches.stdout
    assert "no problems found" not in switches.stdout
    buttons = bgpi("--buttons-only", "--seconds", "0.05")
    assert buttons.returncode == 1
    assert "  White ROLL: no press within 0.05 s" in buttons.stdout
