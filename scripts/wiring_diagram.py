"""Draws ``hardware/wiring.svg``, the wiring of the Pi's header to the sensor chain, the LED
strip's level shifter and the buttons, from the code's own pin table (``bgpi.hal.pins``), so
the picture cannot disagree with the software. ``tests/deploy/test_hardware_guide.py`` checks
the committed picture against the pin table.

Run ``python scripts/wiring_diagram.py`` (schemdraw and gpiozero: the dev extra) after a pin
changes; ``--output FILE`` writes elsewhere.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import schemdraw
from gpiozero.pins.mock import MockFactory
from schemdraw import elements as elm

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bgpi.hal.pins import PinMap  # noqa: E402

OUTPUT = ROOT / "hardware" / "wiring.svg"
# Where each of the Pi's signals goes: (part, that part's pin).
DESTINATIONS = {
    "sensor_clock": ("chain", "CLK (2)"),
    "sensor_data": ("chain", "QH (9), chip 0"),
    "sensor_select": ("chain", "CLK INH (15)"),
    "sensor_latch": ("chain", "SH/LD (1)"),
    "led_data": ("shifter", "1A (2)"),
    "white_roll": ("buttons", "White ROLL"),
    "white_cube": ("buttons", "White CUBE"),
    "black_roll": ("buttons", "Black ROLL"),
    "black_cube": ("buttons", "Black CUBE"),
}
TITLES = {
    "chain": "19 x 74HC165 (3.3 V)",
    "shifter": "74AHCT125 (5 V of the LED supply)",
    "buttons": "buttons, other side to GND",
}


SPACING = 1.0
GAP = 2
PART_X = 15.0
NOTE = (
    "Also: 3.3 V (pin 1) to every 74HC165 VCC (16) and the pull-ups; one ground for the Pi, "
    "the chain, the 74AHCT125 and the LED supply; 74AHCT125 1Y (3) through 330 ohm to the "
    "strip's DIN"
)


def header_pin(gpio: int) -> int:
    ((_, info),) = MockFactory().board_info.find_pin(f"GPIO{gpio}")
    return int(info.number)


def pi_label(name: str, gpio: int) -> str:
    return f"{name}: GPIO{gpio} (pin {header_pin(gpio)})"


def draw(pins: PinMap) -> schemdraw.Drawing:
    """The drawing of ``pins``: the Pi's header on the left, each part on the right, every
    signal a straight wire from the Pi's pin to the part's."""
    signals = list(pins.as_dict().items())
    # schemdraw stacks a side's pins from the bottom up: reversed, the table reads top down.
    # Blank pins between the parts keep their boxes apart.
    header: list[elm.IcPin] = []
    for index, (name, gpio) in enumerate(signals):
        if index and DESTINATIONS[name][0] != DESTINATIONS[signals[index - 1][0]][0]:
            header += [elm.IcPin(name="", side="right") for _ in range(GAP)]
        header.append(elm.IcPin(name=pi_label(name, gpio), side="right", anchorname=name))
    drawing = schemdraw.Drawing(show=False)
    drawing.config(fontsize=11, unit=2)
    pi = elm.Ic(
        pins=header[::-1],
        edgepadW=5.5,
        pinspacing=SPACING,
        label="Raspberry Pi header",
        lblloc="top",
    )
    drawing += pi
    for part, title in TITLES.items():
        names = [name for name, _ in signals if DESTINATIONS[name][0] == part][::-1]
        ic = elm.Ic(
            pins=[
                elm.IcPin(name=DESTINATIONS[name][1], side="left", anchorname=name)
                for name in names
            ],
            edgepadW=3.2,
            pinspacing=SPACING,
            label=title,
            lblloc="top",
        )
        first = pi.absanchors[names[0]]
        drawing += ic.at((PART_X, first[1])).anchor(names[0])
        for name in names:
            drawing += elm.Wire("-").at(pi.absanchors[name]).to(ic.absanchors[name])
    bottom = min(pi.absanchors[name][1] for name, _ in signals) - 2.0
    drawing += elm.Label().at((0, bottom)).label(NOTE, halign="left")
    return drawing


def svg(pins: PinMap) -> bytes:
    data: bytes = draw(pins).get_imagedata("svg")
    return data


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args()
    args.output.write_bytes(svg(PinMap()))
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
