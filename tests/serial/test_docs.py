"""The scanner's documents and its code must agree: builders wire and flash from the docs."""

from __future__ import annotations

import re
from typing import Any

from emulator import SOURCES, Sandbox
from emulator import device as emulated

from bgpi.hal import scanproto as sp
from tests.serial.conftest import FIRMWARE, ROOT

# The Raspberry Pi Pico's header: GP number -> pin number.
PICO_PINS = {
    **{gp: pin for gp, pin in zip(range(2), (1, 2), strict=True)},
    **{gp: pin for gp, pin in zip(range(2, 6), range(4, 8), strict=True)},
    **{gp: pin for gp, pin in zip(range(6, 10), range(9, 13), strict=True)},
    **{gp: pin for gp, pin in zip(range(10, 14), range(14, 18), strict=True)},
    **{gp: pin for gp, pin in zip(range(14, 18), range(19, 23), strict=True)},
    **{gp: pin for gp, pin in zip(range(18, 22), range(24, 28), strict=True)},
    22: 29,
    26: 31,
    27: 32,
    28: 34,
}


def board_module() -> Any:
    return Sandbox({}).load("board")


def pico_table() -> list[tuple[str, int, int]]:
    text = (ROOT / "hardware" / "pico.md").read_text()
    table = text.split("<!-- pico-pin-table: begin -->")[1].split("<!-- pico-pin-table: end -->")[0]
    rows = re.findall(r"^\| `(\w+)` \| (\d+) \| (\d+) \|", table, flags=re.MULTILINE)
    return [(name, int(gp), int(pin)) for name, gp, pin in rows]


def test_the_pico_pin_table_is_board_py() -> None:
    board = board_module()
    rows = pico_table()
    assert {name for name, _, _ in rows} == {"SCK", "MISO", "LATCH", "MOSI"}
    for name, gp, pin in rows:
        assert getattr(board, name) == gp, name
        assert PICO_PINS[gp] == pin, f"{name}: GP{gp} is pin {PICO_PINS[gp]}, not {pin}"


def test_the_emulator_wires_the_documented_pins() -> None:
    board = board_module()
    assert (emulated.SCK, emulated.MISO, emulated.LATCH) == (board.SCK, board.MISO, board.LATCH)


def test_the_readme_copies_every_file_the_pico_runs() -> None:
    text = (FIRMWARE / "README.md").read_text()
    command = text.split("mpremote cp ", 1)[1].split("reset", 1)[0]
    copied = set(re.findall(r"firmware/(\w+)\.py", command))
    assert "bgpi/hal/scanproto.py :scanproto.py" in command
    assert copied | {"scanproto"} == set(SOURCES)


def test_the_protocol_document_names_the_codes_of_scanproto() -> None:
    text = (FIRMWARE / "PROTOCOL.md").read_text()
    rows = dict(re.findall(r"^\| 0x([0-9A-F]{2}) \| (\w+) \|", text, flags=re.MULTILINE))
    assert {int(code, 16): name for code, name in rows.items()} == sp.TYPE_NAMES
    assert "0xCBF43926" in text and f"protocol version: {sp.VERSION}" in text
    for name, (low, high), default in (
        ("scan rate, Hz", sp.SCAN_HZ_RANGE, sp.DEFAULT_SCAN_HZ),
        ("debounce, scans", sp.DEBOUNCE_RANGE, sp.DEFAULT_DEBOUNCE_SCANS),
        ("heartbeat, ms", sp.HEARTBEAT_MS_RANGE, sp.DEFAULT_HEARTBEAT_MS),
    ):
        assert f"| {name} | {low}-{high} | {default} |" in text, name


def test_the_protocol_documents_example_is_the_vector(vectors: dict[str, Any]) -> None:
    text = (FIRMWARE / "PROTOCOL.md").read_text()
    example = text.split("and on the wire, 40 bytes:")[1].split("```")[1]
    vector = next(v for v in vectors["packets"] if v["name"].startswith("FRAME: switches 0, 15"))
    assert bytes.fromhex(example.replace("\n", " ")) == bytes.fromhex(vector["wire"])
    assert len(bytes.fromhex(vector["wire"])) == 40
