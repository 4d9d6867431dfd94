"""The wiring documents and the code's defaults must agree: a builder wires from the docs."""

from __future__ import annotations

import re
from pathlib import Path

from gpiozero.pins.mock import MockFactory

from bgpi.hal import Geometry, PinMap
from bgpi.hal.gpio import DEFAULT_SCAN_HZ, SPI_MODE
from bgpi.hal.pins import BUZZER_PIN, buzzer_pin_error

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"


def pin_table() -> list[tuple[str, int, int]]:
    text = (HARDWARE / "pins.md").read_text()
    table = text.split("<!-- pin-table: begin -->")[1].split("<!-- pin-table: end -->")[0]
    rows = re.findall(r"^\| `(\w+)` \| (\d+) \| (\d+) \|", table, flags=re.MULTILINE)
    return [(name, int(gpio), int(header)) for name, gpio, header in rows]


def test_the_pin_table_is_the_default_pin_map() -> None:
    rows = pin_table()
    assert [(name, gpio) for name, gpio, _ in rows] == list(PinMap().as_dict().items())


def test_the_pin_table_header_pins_are_right() -> None:
    board = MockFactory().board_info
    for name, gpio, header in pin_table():
        (found,) = [info.number for _, info in board.find_pin(f"GPIO{gpio}")]
        assert found == header, f"{name}: GPIO{gpio} is header pin {found}, not {header}"


def test_the_geometry_doc_matches_the_default_order() -> None:
    text = (HARDWARE / "geometry.md").read_text()
    geometry = Geometry.default()
    rows = re.findall(r"^\| (\d+)-(\d+) \| ([a-z ]+?) (\d+)? ?\| (\d)-(\d) \|", text, re.MULTILINE)
    assert len(rows) >= 6
    for first, last, kind, point, slot_lo, slot_hi in rows:
        zone = int(point) if point else {"white bar": 25, "black bar": 26}[kind.strip()]
        assert geometry.bit_of(zone, int(slot_lo)) == int(first)
        assert geometry.bit_of(zone, int(slot_hi)) == int(last)
    assert f"{geometry.nbits} bits" in text


def test_the_wiring_doc_states_the_scan_rate_and_spi_mode() -> None:
    text = (HARDWARE / "wiring.md").read_text()
    assert f"{DEFAULT_SCAN_HZ:.0f} times a second" in text
    assert f"SPI mode {SPI_MODE}" in text


def buzzer_row() -> tuple[int, int]:
    text = (HARDWARE / "pins.md").read_text()
    table = text.split("<!-- buzzer-pin: begin -->")[1].split("<!-- buzzer-pin: end -->")[0]
    (row,) = re.findall(r"^\| `buzzer_pin` \| (\d+) \| (\d+) \|", table, flags=re.MULTILINE)
    return int(row[0]), int(row[1])


def test_the_buzzer_pin_clashes_with_nothing_in_the_pin_table() -> None:
    gpio, header = buzzer_row()
    assert gpio == BUZZER_PIN
    assert gpio not in [gpio for _, gpio, _ in pin_table()]
    assert header not in [header for _, _, header in pin_table()]
    for wiring in ("spi", "pwm"):
        assert buzzer_pin_error(gpio, PinMap(), wiring) == ""
    (found,) = [info.number for _, info in MockFactory().board_info.find_pin(f"GPIO{gpio}")]
    assert found == header
    assert f"GPIO{gpio}" in (HARDWARE / "wiring.md").read_text()


def test_a_buzzer_pin_already_used_is_refused_with_its_use() -> None:
    assert (
        buzzer_pin_error(PinMap().black_roll, PinMap()) == "GPIO13 is already black_roll ([pins])"
    )
    assert "SPI" in buzzer_pin_error(18, PinMap(), "spi")  # spi1-1cs claims it
    assert "SPI" in buzzer_pin_error(8, PinMap(), "pwm")  # SPI0, the sensor chain's
    assert "not a header GPIO" in buzzer_pin_error(1, PinMap())
