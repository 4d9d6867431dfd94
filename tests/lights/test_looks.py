"""Meaning is never carried by colour alone.

Each test renders with a palette in which every meaning is the same white: whatever still tells
two meanings apart on the same pixels is pattern (blink, which pixels) or level, which a
colour-blind player sees too.
"""

from __future__ import annotations

import doctest
from itertools import combinations

import pytest
from hypothesis import given

import bgpi.lights
from bgpi.base.words import BAR_BLACK, TRAY_WHITE
from bgpi.lights import (
    DEFAULT_PALETTE,
    PATTERNS,
    Alert,
    ClockBar,
    Meaning,
    Pattern,
    Scene,
    compose,
)

from .strategies import levels, on_off, scenes


def _zone_scenes(zone: int, pixels: int) -> dict[str, Scene]:
    looks = {
        "destination": Scene(destinations=frozenset({zone})),
        "lifted": Scene(lifted=frozenset({zone})),
        "candidate": Scene(candidate=frozenset({zone})),
        "mistake": Scene(mistake=frozenset({zone})),
        "correct": Scene(correct=frozenset({zone})),
        "last play": Scene(last_play=frozenset({zone})),
    }
    for count in range(1, pixels + 1):
        looks[f"extra {count}"] = Scene(extra=((zone, count),))
        looks[f"missing {count}"] = Scene(missing=((zone, count),))
    return looks


def _assert_distinct(timelines: dict[str, object]) -> None:
    """Every two timelines of different meanings differ ("extra 1" and "extra 2" are one
    meaning, told apart by count)."""
    for (a, line_a), (b, line_b) in combinations(timelines.items(), 2):
        if a.split()[0] != b.split()[0]:
            assert line_a != line_b, f"{a} and {b} look the same without colour"


@pytest.mark.parametrize(("zone", "pixels"), [(7, 6), (BAR_BLACK, 4), (TRAY_WHITE, 6)])
def test_every_zone_meaning_has_its_own_on_off_timeline(zone: int, pixels: int) -> None:
    timelines = {name: on_off(scene, zone) for name, scene in _zone_scenes(zone, pixels).items()}
    _assert_distinct(timelines)
    # Counts are read from the number of lit pixels, so each count differs from the others.
    for kind in ("extra", "missing"):
        counts = [timelines[f"{kind} {n}"] for n in range(1, pixels + 1)]
        assert len(set(counts)) == pixels


def test_every_button_meaning_has_its_own_blink_even_on_one_pixel() -> None:
    timelines = {
        meaning: on_off(Scene(prompts=((0, "cube", meaning),)), "button.white.cube")
        for meaning in Meaning
    }
    assert all(len(line[0]) == 1 for line in timelines.values())  # one pixel per button
    _assert_distinct(timelines)


def test_every_alert_and_the_turn_light_differ_on_the_turn_light() -> None:
    timelines = {"turn": on_off(Scene(turn=0), "turn.white")}
    for alert in Alert:
        timelines[alert.replace(" ", "-")] = on_off(
            Scene(turn=0, alert=alert, winner=0), "turn.white"
        )
    _assert_distinct(timelines)


def test_the_cubes_states_differ_at_each_place() -> None:
    centre = {
        "at-1": on_off(Scene(), "cube.centre"),
        "crawford": on_off(Scene(cube_available=False), "cube.centre"),
        "offered": on_off(Scene(turn=0, cube_offered=True), "cube.centre"),
    }
    for doublings in range(1, 7):
        centre[f"value {2**doublings}"] = on_off(Scene(cube_value=2**doublings), "cube.centre")
    _assert_distinct(centre)
    owned = {
        f"value {2**d}": on_off(Scene(cube_value=2**d, cube_owner=1), "cube.black")
        for d in range(1, 7)
    }
    owned["offered"] = on_off(
        Scene(turn=1, cube_value=2, cube_owner=1, cube_offered=True), "cube.black"
    )
    assert len(set(owned.values())) == len(owned)


def test_dice_to_play_played_and_half_played_differ_without_colour() -> None:
    for value in range(1, 7):
        to_play = levels(
            Scene(turn=0, dice=(value, 6 if value != 6 else 1), dice_left=(value,)), "dice.white"
        )
        played = levels(Scene(turn=0, dice=(value, 6 if value != 6 else 1)), "dice.white")
        half = levels(Scene(turn=0, dice=(value, value), dice_left=(value,) * 3), "dice.white")
        first_half = [tuple(phase[:6]) for phase in (to_play, played, half)]
        assert len(set(first_half)) == 3, value


def test_pattern_timelines_are_all_distinct_and_checked() -> None:
    keys = [(p.timeline, p.alternate) for p in PATTERNS]
    assert len(set(keys)) == len(keys)
    with pytest.raises(ValueError, match="pattern 'odd' has timeline '1012', not 8 characters"):
        Pattern("odd", "1012")
    assert Pattern("steady", "1" * 8).steady
    assert not Pattern("blink", "10" * 4).steady


@given(scenes())
def test_every_colour_a_scene_asks_for_is_in_the_palette(scene: Scene) -> None:
    assert {mark.colour for mark in compose(scene)} <= set(DEFAULT_PALETTE)


def test_every_palette_entry_is_used_by_some_scene() -> None:
    examples = [
        Scene(
            destinations=frozenset({1}),
            lifted=frozenset({2}),
            extra=((3, 1),),
            missing=((4, 1),),
            correct=frozenset({5}),
            last_play=frozenset({6}),
            candidate=frozenset({7}),
            mistake=frozenset({8}),
            turn=0,
            score=(0, 1),
            length=5,
        ),
        Scene(turn=1, dice=(2, 1), cube_available=False),
        Scene(cube_value=2, cube_owner=0),
        *(Scene(turn=0, alert=alert) for alert in Alert),
        *(Scene(prompts=((0, "roll", meaning),)) for meaning in Meaning),
        Scene(clocks=(ClockBar(0.5, delay=True), None)),
    ]
    used = {mark.colour for scene in examples for mark in compose(scene)}
    assert used == set(DEFAULT_PALETTE)


def test_the_package_docstring_example_runs() -> None:
    assert doctest.testmod(bgpi.lights).failed == 0
