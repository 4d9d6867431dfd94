"""While a takeback is asked three buttons are lit at once: the opponent's ROLL (let it be
taken back) and CUBE (refuse), and the asker's own CUBE (withdraw the request). Each must be
told from the others at a glance, by a colour-blind player too, and by someone who looks up
at any moment of the blink cycle."""

from __future__ import annotations

from itertools import combinations

from bgpi.base.words import BLACK, COLOUR_NAMES, CUBE, ROLL, WHITE, ButtonName, Player
from bgpi.lights import PHASES, Meaning, Style
from bgpi.table import Phase
from tests.lights.strategies import DEFAULT_MAP, levels, on_off
from tests.table.test_takeback import LONG, white_opened

LIT = {
    (BLACK, ROLL): Meaning.ACCEPT,
    (BLACK, CUBE): Meaning.DECLINE,
    (WHITE, CUBE): Meaning.WITHDRAW,
}


def _area(player: Player, button: ButtonName) -> str:
    return f"button.{COLOUR_NAMES[player]}.{button}"


def _rotations(timeline: tuple[bool, ...]) -> set[tuple[bool, ...]]:
    return {timeline[shift:] + timeline[:shift] for shift in range(len(timeline))}


def test_the_three_buttons_lit_while_a_takeback_is_asked_look_different() -> None:
    sim = white_opened()
    sim.press(WHITE, ROLL, hold=LONG)
    assert sim.phase is Phase.TAKEBACK_ASKED
    scene = sim.scene
    assert {(player, button): meaning for player, button, meaning in scene.prompts} == LIT
    # Without colour (the shared monochrome palette): a blink that is no other's shifted in
    # time, since a player who looks up does not know where in the cycle he caught it.
    blinks = {key: tuple(phase[0] for phase in on_off(scene, _area(*key))) for key in LIT}
    assert all(len(blink) == PHASES and any(blink) for blink in blinks.values())
    for (a, blink_a), (b, blink_b) in combinations(blinks.items(), 2):
        assert blink_b not in _rotations(blink_a), f"{a} and {b} blink alike"
    # With colour, as the board shows it: three different colours when lit.
    style = Style()
    colours = {
        key: {pixel for phase in levels(scene, _area(*key), DEFAULT_MAP, style) for pixel in phase}
        - {(0, 0, 0)}
        for key in LIT
    }
    assert all(len(shades) == 1 for shades in colours.values()), colours
    assert len({shade for shades in colours.values() for shade in shades}) == len(LIT)
