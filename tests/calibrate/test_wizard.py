"""``bgpi calibrate``: the scripted run on a scrambled simulated board writes exactly its map,
names each wiring fault with what to check, survives Ctrl-C without touching the config, and
learns a real chain (gpio on gpiozero's mock pins) through a person's hands."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from bgpi.base.geometry import Entry, Geometry
from bgpi.builder.calibrate.files import partial_path
from bgpi.builder.calibrate.learn import Finding, Kind, input_name, spots
from bgpi.builder.calibrate.wizard import ChainBoard, Choice, SimBuilder, SimChain, Terminal, Wizard
from bgpi.hal.gpio import GpioSensors
from bgpi.hal.serial import SerialSensors
from bgpi.hal.sim import SimBoard, SimPixels, WiringFaults, scrambled_geometry
from bgpi.lights.ledmap import LedMap
from bgpi.service.config import load
from tests.hal.mock165 import ShiftRegisterChain
from tests.serial.conftest import Emulator

SMALL = '[sensors]\npoint_slots = 2\nbar_slots = 1\n\n[players]\nwhite = "Anna"\n'


def write_config(tmp_path: Path, text: str = SMALL) -> Path:
    path = tmp_path / "bgpi.toml"
    path.write_text(text, encoding="utf-8")
    return path


def bgpi(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bgpi", *map(str, args)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def small_wiring(seed: int, spare: int = 3) -> Geometry:
    return scrambled_geometry(seed, spare=spare, point_slots=2, bar_slots=1)


@pytest.mark.parametrize(
    ("seed", "faults", "named"),
    [
        (1, [], []),
        (2, ["dead"], [r"dead bit: nothing closed for (point|white|black) .*: check "]),
        (3, ["stuck"], [r"stuck bit: bit \d+ \(chip \d+, input [A-H]\) closed with the board"]),
        (5, ["crossed"], [r"crossed bits: bit \d+ \(chip .*\) and bit \d+ .*check the wires"]),
        (8, ["dead", "stuck", "crossed"], [r"dead bit", r"stuck bit", r"crossed bits"]),
    ],
)
def test_the_scripted_run_writes_exactly_the_scrambled_map(
    tmp_path: Path, seed: int, faults: list[str], named: list[str]
) -> None:
    config = write_config(tmp_path)
    fault_args = [arg for kind in faults for arg in ("--sim-fault", kind)]
    result = bgpi("calibrate", "--config", config, "--sim-wiring-seed", seed, "--auto", *fault_args)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr
    assert load(config).geometry == small_wiring(seed)
    for pattern in named:
        assert re.search(pattern, result.stdout), pattern
    if not faults:
        assert not re.search("dead bit|stuck bit|crossed bits|already assigned", result.stdout)
    # The rest of the file is kept, and so is the old one, beside it and named after it.
    assert load(config).players.white == "Anna"
    backups = list(tmp_path.glob("bgpi.toml.before-calibrate-*"))
    assert [b.read_text(encoding="utf-8") for b in backups] == [SMALL]
    assert f"(the old file is {backups[0]})" in result.stdout
    assert not partial_path(config).exists()


def test_the_full_board_of_152_switches_is_learned(tmp_path: Path) -> None:
    config = write_config(tmp_path, "")
    result = bgpi("calibrate", "--config", config, "--sim-wiring-seed", 11, "--auto")
    assert result.returncode == 0, result.stderr
    assert load(config).geometry == scrambled_geometry(11, spare=3)
    assert load(config).geometry.nbits == 155


class Interrupting(SimBuilder):
    """The simulated builder, whose hands are stopped by Ctrl-C at the ``stop_at``th checker."""

    def __init__(self, board: SimBoard, wiring: Geometry, stop_at: int) -> None:
        super().__init__(board, wiring, lambda line: None)
        self.placed = 0
        self.stop_at = stop_at

    def place(self, spot: Entry) -> None:
        self.placed += 1
        if self.placed == self.stop_at:
            raise KeyboardInterrupt
        super().place(spot)


def wizard(config: Path, wiring: Geometry, builder: SimBuilder, out: list[str]) -> Wizard:
    template = Geometry.default(point_slots=2, bar_slots=1)
    return Wizard(config, template, SimChain(builder.board), builder, out.append)


def test_an_interrupted_run_leaves_the_config_and_goes_on_where_it_stopped(
    tmp_path: Path,
) -> None:
    config = write_config(tmp_path)
    wiring = small_wiring(21)
    board = SimBoard(wiring)
    out: list[str] = []
    with pytest.raises(KeyboardInterrupt):
        wizard(config, wiring, Interrupting(board, wiring, stop_at=20), out).run()
    assert config.read_text(encoding="utf-8") == SMALL
    assert sorted(tmp_path.iterdir()) == sorted([config, partial_path(config)])
    # The second run asks only for the spots not yet learned.
    board.clear()
    builder = Interrupting(board, wiring, stop_at=0)
    out.clear()
    assert wizard(config, wiring, builder, out).run() == 0
    assert "going on from" in out[0] and "19 spots already learned" in out[0]
    asked = [line for line in out if line.startswith("put a checker")]
    assert len(asked) == len(spots(wiring)) - 19
    assert load(config).geometry == wiring


def test_ctrl_c_from_the_command_keeps_the_config_and_says_where_the_rest_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bgpi import cli  # noqa: PLC0415

    config = write_config(tmp_path)
    placed: list[Entry] = []

    def place(self: SimBuilder, spot: Entry) -> None:
        placed.append(spot)
        if len(placed) == 7:
            raise KeyboardInterrupt
        self.board.put_on(spot[0], spot[1], 0)

    monkeypatch.setattr(SimBuilder, "place", place)
    code = cli.main(["calibrate", "--config", str(config), "--sim-wiring-seed", "4", "--auto"])
    assert code == 1
    err = capsys.readouterr().err
    assert f"interrupted: {config} is unchanged" in err and str(partial_path(config)) in err
    assert config.read_text(encoding="utf-8") == SMALL


def test_a_skipped_dead_switch_leaves_the_config_untouched(tmp_path: Path) -> None:
    config = write_config(tmp_path)
    wiring = small_wiring(6)
    board = SimBoard(wiring)
    dead_spot = (7, 1)
    board.faults = WiringFaults(dead=frozenset({wiring.bit_of(*dead_spot)}))

    class Skipping(SimBuilder):
        def decide(self, finding: Finding) -> Choice:
            return Choice.SKIP

    out: list[str] = []
    assert wizard(config, wiring, Skipping(board, wiring, out.append), out).run() == 1
    assert any(line.startswith("1 spots not learned: point 7, slot 1") for line in out)
    assert config.read_text(encoding="utf-8") == SMALL


def test_an_input_already_assigned_is_named(tmp_path: Path) -> None:
    config = write_config(tmp_path)
    wiring = small_wiring(9)
    board = SimBoard(wiring)
    out: list[str] = []

    class Misplacing(SimBuilder):
        """Sets the second checker of point 1 on the first slot again, once."""

        wrong = True

        def place(self, spot: Entry) -> None:
            if spot == (1, 1) and self.wrong:
                self.wrong = False
                spot = (1, 0)
            super().place(spot)

        def decide(self, finding: Finding) -> Choice:
            return Choice.RETRY

    assert wizard(config, wiring, Misplacing(board, wiring, out.append), out).run() == 0
    first = input_name(wiring.bit_of(1, 0))
    assert any(
        f"bit already assigned: {first} closed for point 1, slot 1" in line
        and "already point 1, slot 0" in line
        for line in out
    )
    assert load(config).geometry == wiring


def test_usage_mistakes_are_one_line_with_status_2(tmp_path: Path) -> None:
    config = write_config(tmp_path)
    for args, why in (
        (["--sim-wiring-seed", "3"], "--auto and --sim-wiring-seed go together"),
        (["--auto"], "--auto and --sim-wiring-seed go together"),
        ([], 'sensors backend is "sim"'),
    ):
        result = bgpi("calibrate", "--config", config, *args)
        assert result.returncode == 2 and why in result.stderr, result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
    result = bgpi("calibrate", "--sim-wiring-seed", "3", "--auto")
    assert result.returncode == 2 and "--config FILE" in result.stderr
    assert config.read_text(encoding="utf-8") == SMALL


def test_help_explains_the_wizard_to_a_builder() -> None:
    text = bgpi("calibrate", "--help").stdout
    for words in ("stuck", "dead", "crossed", "Ctrl-C", "before-calibrate", "--sim-wiring-seed"):
        assert words in text


class Hands:
    """A person at a real chain (74HC165s on gpiozero's mock pins): closes the switch of
    the spot asked for, as wired by ``wiring``."""

    def __init__(self, chain: ShiftRegisterChain, wiring: Geometry) -> None:
        self.chain, self.wiring = chain, wiring

    def place(self, spot: Entry) -> None:
        self.chain.closed |= 1 << self.wiring.bit_of(*spot)

    def lift(self, spot: Entry) -> None:
        self.chain.closed &= ~(1 << self.wiring.bit_of(*spot))

    def fill(self, zone: int, count: int) -> None:
        self.chain.closed |= self.wiring.mask(zone)

    def empty(self, zone: int) -> None:
        self.chain.closed &= ~self.wiring.mask(zone)

    def decide(self, finding: Finding) -> Choice:
        return Choice.QUIT


def test_a_gpio_chain_is_learned(tmp_path: Path, mock_factory: MockFactory) -> None:
    config = write_config(tmp_path, "[sensors]\npoint_slots = 1\nbar_slots = 1\n")
    wiring = scrambled_geometry(31, spare=6, point_slots=1, bar_slots=1)  # 32 inputs, 4 chips
    chain = ShiftRegisterChain(4, mock_factory)
    sensors = GpioSensors(wiring.nbits, pin_factory=mock_factory)
    out: list[str] = []
    template = Geometry.default(point_slots=1, bar_slots=1)
    board = ChainBoard(sensors, settle=0.01)
    try:
        code = Wizard(config, template, board, Hands(chain, wiring), out.append, timeout=2).run()
    finally:
        sensors.close()
    assert code == 0, out
    assert load(config).geometry == wiring


class ScannerHands(Hands):
    """A person at a board read by the scanner firmware (emulated, over a pty)."""

    def __init__(self, emulator: Emulator, wiring: Geometry) -> None:
        self.emulator, self.wiring = emulator, wiring

    def place(self, spot: Entry) -> None:
        self.emulator.close_switches([self.wiring.bit_of(*spot)])

    def lift(self, spot: Entry) -> None:
        self.emulator.open_switches([self.wiring.bit_of(*spot)])

    def fill(self, zone: int, count: int) -> None:
        self.emulator.set_closed(self.emulator.closed | self.wiring.mask(zone))

    def empty(self, zone: int) -> None:
        self.emulator.set_closed(self.emulator.closed & ~self.wiring.mask(zone))


def test_a_serial_scanner_is_learned(tmp_path: Path) -> None:
    config = write_config(tmp_path, "")
    wiring = scrambled_geometry(33)  # the emulated scanner reads 152 inputs
    out: list[str] = []
    with Emulator(tmp_path / "bgpi-scanner") as emulator:
        sensors = SerialSensors(152, port=str(emulator.link))
        board = ChainBoard(sensors, settle=0.01)
        hands = ScannerHands(emulator, wiring)
        try:
            code = Wizard(config, Geometry.default(), board, hands, out.append, timeout=5).run()
        finally:
            sensors.close()
    assert code == 0, out[-5:]
    assert load(config).geometry == wiring


def test_the_builder_at_the_terminal_answers_retry_skip_or_quit() -> None:
    answers = iter(["", "maybe", "R", "skip", "q"])
    said: list[str] = []
    terminal = Terminal(said.append, ask=lambda prompt: next(answers))
    finding = Finding(Kind.DEAD, (7, 1))
    assert terminal.decide(finding) is Choice.RETRY  # after two answers that were no choice
    assert terminal.decide(finding) is Choice.SKIP
    assert terminal.decide(finding) is Choice.QUIT

    def closed(prompt: str) -> str:
        raise EOFError

    assert Terminal(said.append, ask=closed).decide(finding) is Choice.QUIT


def test_the_leds_light_the_spot_asked_for(tmp_path: Path) -> None:
    config = write_config(tmp_path)
    wiring = small_wiring(12)
    board = SimBoard(wiring)
    ledmap = LedMap.default()
    pixels = SimPixels(ledmap.length, history=100_000)
    out: list[str] = []
    template = Geometry.default(point_slots=2, bar_slots=1)
    builder = SimBuilder(board, wiring, out.append)
    wizard = Wizard(config, template, SimChain(board), builder, out.append, pixels, ledmap)
    assert wizard.run() == 0
    lit = [tuple(i for i, rgb in enumerate(frame) if rgb != (0, 0, 0)) for frame in pixels.frames]
    # Each spot in turn: its own pixel, alone (slot 1 of point 7 is its zone's second pixel).
    assert (ledmap.pixels(1)[0],) in lit and (ledmap.pixels(7)[1],) in lit
    assert lit.index((ledmap.pixels(1)[0],)) < lit.index((ledmap.pixels(7)[1],))
    assert lit[-1] == ()  # dark when done


def test_without_usable_leds_the_wizard_goes_on_with_words(
    mock_factory: MockFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    from contextlib import ExitStack  # noqa: PLC0415

    from bgpi.builder.calibrate.command import _hardware  # noqa: PLC0415
    from bgpi.service.config import parse  # noqa: PLC0415

    config = parse({"sensors": {"backend": "gpio"}, "leds": {"backend": "neopixel"}})
    with ExitStack() as stack:
        board, _, pixels = _hardware(config, 152, stack)
        assert pixels is None and board.nbits == 152
    assert "the LEDs cannot be used (the neopixel backend" in capsys.readouterr().out


def test_the_wizard_numbers_chips_as_the_hardware_guide_does() -> None:
    # hardware/geometry.md's table: "| 6-11 | point 2 | 0-5 | chip 0 G-H, chip 1 A-D |". A
    # builder probes the chip the wizard names, so both must count from the same end.
    guide = (Path(__file__).resolve().parents[2] / "hardware" / "geometry.md").read_text()
    rows = re.findall(r"^\| (\d+)-(\d+) \| [^|]+ \| [^|]+ \| chip (\d+) ([A-H])-", guide, re.M)
    assert len(rows) >= 5
    for first, _last, chip, letter in rows:
        assert input_name(int(first)) == f"bit {first} (chip {chip}, input {letter})"
