"""Hypothesis strategies and helpers shared by the lights tests."""

from __future__ import annotations

from collections.abc import Iterable

from hypothesis import strategies as st

from bgpi.base.words import RGB, ZONES
from bgpi.lights import (
    AREAS,
    DEFAULT_PALETTE,
    PHASES,
    Alert,
    ClockBar,
    LedMap,
    Meaning,
    Scene,
    Style,
    render,
)
from bgpi.lights.marks import Target

zones = st.integers(min_value=1, max_value=28)
zone_sets = st.frozensets(zones, max_size=6)
players = st.sampled_from((0, 1))
dice_values = st.integers(min_value=1, max_value=6)
clock_bars = st.none() | st.builds(
    ClockBar, st.floats(0, 1, allow_nan=False), st.booleans(), st.booleans()
)

# Every meaning white: what is left to tell meanings apart is pattern, place and level.
MONOCHROME = Style(
    palette=dict.fromkeys(DEFAULT_PALETTE, (255, 255, 255)),
    brightness=1.0,
    gamma=1.0,
    max_current_ma=1e9,
)
DEFAULT_MAP = LedMap.default()


@st.composite
def scenes(draw: st.DrawFn) -> Scene:
    """Any scene the constructor accepts, from dark to everything at once."""
    counted = sorted(draw(st.dictionaries(zones, st.integers(1, 9), max_size=6)).items())
    split = draw(st.integers(0, len(counted)))
    turn = draw(st.none() | players)
    dice: tuple[int, ...] = ()
    dice_left: tuple[int, ...] = ()
    if turn is not None and draw(st.booleans()):
        dice = (draw(dice_values), draw(dice_values))
        playable = list(dice * 2 if dice[0] == dice[1] else dice)
        dice_left = tuple(draw(st.permutations(playable))[: draw(st.integers(0, len(playable)))])
    buttons = draw(
        st.dictionaries(
            st.tuples(players, st.sampled_from(("roll", "cube"))),
            st.sampled_from(Meaning),
            max_size=4,
        )
    )
    return Scene(
        destinations=draw(zone_sets),
        lifted=draw(zone_sets),
        extra=tuple(counted[:split]),
        missing=tuple(counted[split:]),
        correct=draw(zone_sets),
        last_play=draw(zone_sets),
        candidate=draw(zone_sets),
        mistake=draw(zone_sets),
        turn=turn,
        dice=dice,
        dice_left=dice_left,
        opening_dice=(draw(st.none() | dice_values), draw(st.none() | dice_values)),
        cube_value=2 ** draw(st.integers(0, 9)),
        cube_owner=draw(st.none() | players),
        cube_available=draw(st.booleans()),
        cube_offered=draw(st.booleans()),
        score=(draw(st.integers(0, 40)), draw(st.integers(0, 40))),
        length=draw(st.sampled_from((0, 1, 3, 5, 7, 11, 15, 16, 17, 25, 64))),
        prompts=tuple((p, b, m) for (p, b), m in sorted(buttons.items())),
        alert=draw(st.none() | st.sampled_from(Alert)),
        winner=draw(st.none() | players),
        clocks=(draw(clock_bars), draw(clock_bars)),
    )


@st.composite
def ledmaps(draw: st.DrawFn) -> LedMap:
    """Maps of any shape: each zone and area 0-8 pixels, scattered over the strip in any order,
    with some pixels unused."""
    targets: list[Target] = [*ZONES, *AREAS]
    sizes = draw(st.lists(st.integers(0, 8), min_size=len(targets), max_size=len(targets)))
    length = max(1, sum(sizes) + draw(st.integers(0, 10)))
    order = list(range(length))
    draw(st.randoms(use_true_random=False)).shuffle(order)
    zone_pixels: dict[int, list[int]] = {}
    area_pixels: dict[str, list[int]] = {}
    start = 0
    for target, size in zip(targets, sizes, strict=True):
        pixels = order[start : start + size]
        start += size
        if isinstance(target, int):
            zone_pixels[target] = pixels
        else:
            area_pixels[target] = pixels
    return LedMap.build(length, zone_pixels, area_pixels)


def at_phase(phase: int, style: Style, cycle: int = 3) -> float:
    """A time in the middle of ``phase`` of some blink cycle."""
    return (cycle * PHASES + phase + 0.5) * style.blink_period / PHASES


def frames(
    scene: Scene, ledmap: LedMap = DEFAULT_MAP, style: Style = MONOCHROME
) -> list[tuple[RGB, ...]]:
    """The frame in each phase of one blink cycle."""
    return [render(scene, ledmap, style, at_phase(phase, style)) for phase in range(PHASES)]


def on_off(
    scene: Scene, target: Target, ledmap: LedMap = DEFAULT_MAP, style: Style = MONOCHROME
) -> tuple[tuple[bool, ...], ...]:
    """Which of ``target``'s pixels are lit, phase by phase over one blink cycle."""
    pixels = ledmap.pixels(target)
    return tuple(
        tuple(frame[p] != (0, 0, 0) for p in pixels) for frame in frames(scene, ledmap, style)
    )


def levels(
    scene: Scene, target: Target, ledmap: LedMap = DEFAULT_MAP, style: Style = MONOCHROME
) -> tuple[tuple[RGB, ...], ...]:
    """``target``'s pixel values, phase by phase over one blink cycle."""
    pixels = ledmap.pixels(target)
    return tuple(tuple(frame[p] for p in pixels) for frame in frames(scene, ledmap, style))


def lit(frame: tuple[RGB, ...], pixels: Iterable[int] | None = None) -> set[int]:
    """The lit pixels of ``frame`` (among ``pixels`` if given)."""
    indices = range(len(frame)) if pixels is None else pixels
    return {p for p in indices if frame[p] != (0, 0, 0)}
