"""The build guide in hardware/ and the default configuration agree: the LED map, the bill of
materials, the power budget and its feeds. (tests/hal/test_hardware_docs.py keeps the pin
table and the sensor order.)"""

from __future__ import annotations

import math
import re

from bgpi.config import Config, LedsConfig
from bgpi.hal import Geometry
from bgpi.lights.ledmap import LedMap
from bgpi.lights.render import Style
from bgpi.words import BUTTONS, PLAYERS
from tests.deploy.fakesystem import REPO

HARDWARE = REPO / "hardware"
CHECKERS = 30


def between(text: str, name: str) -> str:
    after = text.split(f"<!-- {name}: begin -->\n", maxsplit=1)[1]
    return after.split(f"<!-- {name}: end -->", maxsplit=1)[0]


def bom() -> dict[str, tuple[str, str]]:
    """part -> (quantity, notes)."""
    table = between((HARDWARE / "README.md").read_text(), "bom")
    rows = re.findall(r"^\| ([^|]+?) \| ([^|]*?) \| ([^|]*?) \|$", table, flags=re.MULTILINE)
    return {part: (count, notes) for part, count, notes in rows[2:]}


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
    assert quantity(parts, "WS2812B") == config.ledmap.length == 244
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
