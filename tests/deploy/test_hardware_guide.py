"""The build guide in hardware/ and the default configuration agree: the LED map, the bill of
materials, the power budget and its feeds. (tests/hal/test_hardware_docs.py keeps the pin
table and the sensor order.)"""

from __future__ import annotations

import math
import re
import sys

from gpiozero.pins.mock import MockFactory

from bgpi.base.words import BUTTONS, PLAYERS
from bgpi.hal import Geometry, PinMap
from bgpi.lights.ledmap import LedMap
from bgpi.lights.render import Style
from bgpi.service.config import Config, LedsConfig
from tests.deploy.fakesystem import REPO

HARDWARE = REPO / "hardware"
CHECKERS = 30


def between(text: str, name: str) -> str:
    after = text.split(f"<!-- {name}: begin -->\n", maxsplit=1)[1]
    return after.split(f"<!-- {name}: end -->", maxsplit=1)[0]


def bom_rows() -> list[tuple[str, str, str, str]]:
    """(part, quantity, what to buy, notes) of every line of the bill of materials."""
    table = between((HARDWARE / "README.md").read_text(), "bom")
    cell = r" ([^|]*?) \|"
    rows = re.findall(r"^\|" + cell * 4 + "$", table, flags=re.MULTILINE)
    return rows[2:]


def bom() -> dict[str, tuple[str, str]]:
    """part -> (quantity, notes)."""
    return {part: (count, notes) for part, count, _, notes in bom_rows()}


def test_every_bom_line_says_what_to_buy() -> None:
    rows = bom_rows()
    table = between((HARDWARE / "README.md").read_text(), "bom")
    assert len(rows) == table.count("\n| ") - 1  # every line but the header's two
    for part, _, buy, _ in rows:
        assert len(buy) >= 8, f"{part}: no part number or search-ready description"


def test_the_level_shifters_5_v_has_one_answer() -> None:
    # It comes from the LED supply, whose 5 V the strip reads its data against; the Pi's 5 V
    # pins feed nothing of the build.
    wiring = (HARDWARE / "wiring.md").read_text()
    assert "| 74AHCT125 VCC (pin 14) | 100 nF to GND | 5 V of the LED supply" in wiring
    assert "from the LED supply" in (HARDWARE / "power.md").read_text()
    pins = (HARDWARE / "pins.md").read_text()
    (row,) = [line for line in pins.splitlines() if line.startswith("| 2, 4 | 5 V |")]
    assert "nothing" in row and "LED supply" in row


def quantity(parts: dict[str, tuple[str, str]], starts: str) -> int:
    (found,) = [count for part, (count, _) in parts.items() if part.startswith(starts)]
    return int(found)


def test_the_led_map_page_is_the_default_map() -> None:
    text = (HARDWARE / "leds.md").read_text()
    assert between(text, "led-map") == LedMap.default().describe()
    assert f"{LedMap.default().length} by default" in text


def test_the_bill_of_materials_counts_the_default_board() -> None:
    parts = bom()
    config = Config()
    geometry = Geometry.default()
    switches = len(geometry.entries())
    chips = math.ceil(geometry.nbits / 8)
    assert switches == 152 and chips == 19
    assert quantity(parts, "reed switch") == switches
    assert quantity(parts, "74HC165") == chips
    assert quantity(parts, "10 kΩ bussed resistor network") == chips
    assert quantity(parts, "100 nF") == chips + 1  # and the level shifter's
    assert quantity(parts, "neodymium disc magnet") == CHECKERS
    assert quantity(parts, "checker") == CHECKERS
    assert quantity(parts, "WS2812B") == config.ledmap.length == 264
    assert quantity(parts, "momentary push button") == len(PLAYERS) * len(BUTTONS)
    assert quantity(parts, "74AHCT125") == 1
    text = (HARDWARE / "placement.md").read_text()
    assert f"**{switches}** by default" in text
    assert f"**{CHECKERS}**, one per checker" in text


def test_the_power_page_sizes_the_supply_from_the_default_budget() -> None:
    text = (HARDWARE / "power.md").read_text()
    budget = LedsConfig().max_current_ma
    assert budget == Style().max_current_ma
    assert f"(default **{budget} mA**)" in text
    length = LedMap.default().length
    idle = length * Style().idle_ma_per_pixel
    assert f"draws {idle:.0f} mA dark" in text
    at_least = 1.2 * budget / 1000
    assert (
        f"| {budget} (the default) | 5 V {at_least:g} A | **5 V {math.ceil(at_least)} A**" in text
    )
    assert f"5 V {math.ceil(at_least)} A at least" in bom()["5 V power supply for the LEDs"][1]


def test_the_feeds_are_where_the_runs_of_the_strip_begin_and_end() -> None:
    ledmap = LedMap.default()
    text = (HARDWARE / "power.md").read_text()
    feeds = dict(re.findall(r"^\| \d \| (\d+) \| ([^|]+) \|$", text, flags=re.MULTILINE))
    expected = {
        0: (1, "base"),
        71: (12, "base"),
        72: (13, "base"),
        143: (24, "base"),
        144: (25, "first"),
        170: ("turn.white", "first"),
        207: ("turn.black", "first"),
    }
    assert sorted(map(int, feeds)) == sorted(expected)
    for pixel, (owner, end) in expected.items():
        assert ledmap.owner(pixel) == owner
        pixels = ledmap.pixels(owner)
        assert pixels[0 if end in ("base", "first") else -1] == pixel


def test_every_page_the_guide_names_is_there() -> None:
    index = (HARDWARE / "README.md").read_text()
    pages = set(re.findall(r"`([a-z]+\.md)`", index))
    assert {"placement.md", "leds.md", "power.md", "wiring.md", "pins.md"} <= pages
    # pico.md belongs to the Pico scanner's work; the rest are this guide's.
    for page in pages - {"pico.md"}:
        assert (HARDWARE / page).is_file(), page


def svg_labels(svg: bytes) -> set[str]:
    """The header's labels in a wiring picture: "name: GPIOn (pin m)"."""
    texts = re.findall(r"<tspan[^>]*>([^<]*)</tspan>", svg.decode())
    return {text for text in texts if re.fullmatch(r"\w+: GPIO\d+ \(pin \d+\)", text)}


def test_the_wiring_picture_is_drawn_from_the_pin_table() -> None:
    sys.path.insert(0, str(REPO / "scripts"))
    try:
        import wiring_diagram  # noqa: PLC0415
    finally:
        sys.path.remove(str(REPO / "scripts"))
    board = MockFactory().board_info
    expected = set()
    for name, gpio in PinMap().as_dict().items():
        ((_, info),) = board.find_pin(f"GPIO{gpio}")
        expected.add(f"{name}: GPIO{gpio} (pin {info.number})")
    committed = (HARDWARE / "wiring.svg").read_bytes()
    assert svg_labels(committed) == expected, "run python scripts/wiring_diagram.py"
    assert svg_labels(wiring_diagram.svg(PinMap())) == expected
    assert "wiring.svg" in (HARDWARE / "wiring.md").read_text()
