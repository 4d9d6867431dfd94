from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bgpi.base.words import BAR_WHITE, BLACK, RGB, WHITE, ZONES
from bgpi.lights import (
    AREAS,
    PHASES,
    Alert,
    LedMap,
    Meaning,
    PowerBudgetError,
    Scene,
    Style,
    check_power,
    estimate_current_ma,
    limit_power,
    next_change,
    render,
    tick_at,
    tick_start,
)

from .strategies import DEFAULT_MAP, MONOCHROME, at_phase, ledmaps, lit, scenes

STYLE = Style()
BRIGHT = Style(brightness=1.0, max_current_ma=1e9)


def _changed(scene: Scene, ledmap: LedMap = DEFAULT_MAP, style: Style = STYLE) -> set[int]:
    """The pixels ``scene`` lights differently from a scene without its zone marks."""
    base = render(Scene(), ledmap, style, 0.0)
    frame = render(scene, ledmap, style, 0.0)
    return {p for p in range(ledmap.length) if frame[p] != base[p]}


def test_a_destination_lights_exactly_its_zones_pixels_in_the_default_map() -> None:
    frame = render(Scene(destinations=frozenset({7})), DEFAULT_MAP, STYLE, 0.0)
    assert _changed(Scene(destinations=frozenset({7}))) == set(range(36, 42))
    assert {frame[p] for p in range(36, 42)} == {STYLE.shade("destination")}


def test_a_destination_lights_exactly_its_zones_pixels_in_a_custom_map() -> None:
    zones = {zone: [zone + 100] for zone in ZONES}
    zones[7] = [40, 3, 17]
    ledmap = LedMap.build(130, zones, {"cube.centre": [0]})
    assert _changed(Scene(destinations=frozenset({7})), ledmap) == {40, 3, 17}
    assert _changed(Scene(destinations=frozenset({7, 8})), ledmap) == {40, 3, 17, 108}


@given(scenes(), st.randoms(use_true_random=False), st.integers(0, PHASES - 1))
def test_the_map_decides_where_and_only_where(scene: Scene, rnd: random.Random, phase: int) -> None:
    # Move every pixel of the default map elsewhere: the frame moves with it, unchanged.
    permutation = list(range(DEFAULT_MAP.length))
    rnd.shuffle(permutation)
    moved = LedMap.build(
        DEFAULT_MAP.length,
        {z: [permutation[p] for p in DEFAULT_MAP.pixels(z)] for z in ZONES},
        {a: [permutation[p] for p in DEFAULT_MAP.pixels(a)] for a in AREAS},
    )
    now = at_phase(phase, STYLE)
    original = render(scene, DEFAULT_MAP, STYLE, now)
    shuffled = render(scene, moved, STYLE, now)
    assert all(shuffled[permutation[p]] == original[p] for p in range(DEFAULT_MAP.length))


@given(scenes(), ledmaps(), st.floats(-1e6, 1e6))
def test_a_frame_is_one_colour_of_three_bytes_per_pixel(
    scene: Scene, ledmap: LedMap, now: float
) -> None:
    frame = render(scene, ledmap, STYLE, now)
    assert isinstance(frame, tuple)
    assert len(frame) == ledmap.length
    for colour in frame:
        assert isinstance(colour, tuple)
        assert len(colour) == 3
        assert all(type(c) is int and 0 <= c <= 255 for c in colour)


def test_gamma_and_brightness_are_applied() -> None:
    scene = Scene(destinations=frozenset({7}))
    grey = {"destination": (128, 128, 128)}
    frame = render(scene, DEFAULT_MAP, Style(palette=grey, gamma=2.2, brightness=0.5), 0.0)
    assert frame[36] == (28, 28, 28)  # 128 -> 56 through gamma 2.2, then halved
    frame = render(scene, DEFAULT_MAP, Style(palette=grey, gamma=1.0, brightness=1.0), 0.0)
    assert frame[36] == (128, 128, 128)
    frame = render(scene, DEFAULT_MAP, Style(palette=grey, gamma=1.0, brightness=0.25), 0.0)
    assert frame[36] == (32, 32, 32)
    frame = render(scene, DEFAULT_MAP, Style(palette=grey, brightness=0.0), 0.0)
    assert lit(frame) == set()


def _estimate(frame: tuple[RGB, ...], style: Style) -> Fraction:
    lit_units = sum(sum(colour) for colour in frame)
    return (
        Fraction(style.idle_ma_per_pixel) * len(frame)
        + Fraction(lit_units) * Fraction(style.ma_per_channel) / 255
    )


@st.composite
def budgets(draw: st.DrawFn, ledmap: LedMap) -> Style:
    idle = draw(st.floats(0, 2))
    return Style(
        brightness=draw(st.floats(0, 1)),
        gamma=draw(st.floats(0.5, 3)),
        ma_per_channel=draw(st.floats(1, 60)),
        idle_ma_per_pixel=idle,
        max_current_ma=idle * ledmap.length + draw(st.floats(1, 5000)),
    )


@given(st.data(), scenes(), ledmaps() | st.just(DEFAULT_MAP), st.floats(0, 1e5))
def test_the_power_budget_is_never_exceeded(
    data: st.DataObject, scene: Scene, ledmap: LedMap, now: float
) -> None:
    style = data.draw(budgets(ledmap))
    frame = render(scene, ledmap, style, now)
    assert _estimate(frame, style) <= Fraction(style.max_current_ma)
    assert estimate_current_ma(frame, style) <= style.max_current_ma * (1 + 1e-12)


def test_a_frame_over_budget_is_scaled_uniformly_down_to_it() -> None:
    everything = Scene(destinations=frozenset(ZONES))
    generous = render(everything, DEFAULT_MAP, BRIGHT, 0.0)
    assert estimate_current_ma(generous, BRIGHT) > 2000  # the default budget would cut it
    tight = Style(brightness=1.0, max_current_ma=1000.0)
    scaled = render(everything, DEFAULT_MAP, tight, 0.0)
    assert 950 < estimate_current_ma(scaled, tight) <= 1000
    red, green, blue = generous[36]
    idle = DEFAULT_MAP.length  # mA: every pixel at 1 mA dark
    factor = (1000 - idle) / (estimate_current_ma(generous, BRIGHT) - idle)
    assert scaled[36] == (
        math.floor(red * factor),
        math.floor(green * factor),
        math.floor(blue * factor),
    )
    assert lit(scaled) == lit(generous)


def test_a_frame_within_budget_is_left_alone() -> None:
    frame = [(10, 20, 30)] * 10
    assert limit_power(frame, STYLE) == tuple(frame)
    assert estimate_current_ma(frame, STYLE) == pytest.approx(10 * 1.0 + 600 * 20 / 255)


def test_a_strip_that_overdraws_the_budget_when_dark_is_refused() -> None:
    style = Style(max_current_ma=200.0)  # 264 pixels idle at 1 mA each
    with pytest.raises(PowerBudgetError, match="264 dark pixels at 1 mA draw 264 mA, over"):
        check_power(DEFAULT_MAP, style)
    with pytest.raises(PowerBudgetError):
        render(Scene(), DEFAULT_MAP, style, 0.0)
    check_power(DEFAULT_MAP, Style(max_current_ma=264.0))
    assert lit(render(Scene(), DEFAULT_MAP, Style(max_current_ma=264.0), 0.0)) == set()


# --- the shell writes a frame only when it changes ---------------------------------------


class Shell:
    """What the shell does with frames: write one only if it differs from the last."""

    def __init__(self) -> None:
        self.last: tuple[RGB, ...] | None = None
        self.writes = 0

    def show(self, frame: tuple[RGB, ...]) -> None:
        if frame != self.last:
            self.last = frame
            self.writes += 1


@given(scenes(), st.integers(-1000, 10**6), st.lists(st.floats(0, 1), min_size=1, max_size=5))
def test_an_unchanged_scene_within_a_phase_writes_nothing_more(
    scene: Scene, tick: int, fractions: list[float]
) -> None:
    start, end = tick_start(tick, STYLE), tick_start(tick + 1, STYLE)
    shell = Shell()
    shell.show(render(scene, DEFAULT_MAP, STYLE, start))
    for fraction in fractions:
        now = min(start + fraction * (end - start), math.nextafter(end, -math.inf))
        assert tick_at(now, STYLE) == tick
        shell.show(render(scene, DEFAULT_MAP, STYLE, now))
    shell.show(render(scene, DEFAULT_MAP, STYLE, math.nextafter(end, -math.inf)))
    assert shell.writes == 1


def test_a_steady_scene_renders_the_same_at_any_time() -> None:
    scene = Scene(destinations=frozenset({3, 9}), turn=0, score=(2, 1), length=5)
    assert next_change(scene, STYLE, 12.3) is None
    assert len({render(scene, DEFAULT_MAP, STYLE, t / 7) for t in range(50)}) == 1


def test_next_change_is_the_next_blink_edge() -> None:
    lifted = Scene(lifted=frozenset({13}))  # slow blink: on phases 0-3, off 4-7
    assert next_change(lifted, STYLE, 0.1) == 0.5
    assert next_change(lifted, STYLE, 0.5) == 1.0
    assert next_change(lifted, STYLE, 0.99) == 1.0
    fast = Scene(extra=((13, 1),))  # changes every phase
    assert next_change(fast, STYLE, 0.01) == 0.125
    both = Scene(lifted=frozenset({13}), extra=((5, 2),))
    assert next_change(both, STYLE, 0.3) == 0.375
    slower = Style(blink_period=2.0)
    assert next_change(lifted, slower, 0.1) == 1.0


@given(scenes(), st.floats(0, 1e6))
def test_the_frame_holds_until_next_change_and_changes_there(scene: Scene, now: float) -> None:
    frame = render(scene, DEFAULT_MAP, BRIGHT, now)
    change = next_change(scene, BRIGHT, now)
    if change is None:
        later = [now + 0.125 * k for k in range(1, PHASES + 1)]
        assert all(render(scene, DEFAULT_MAP, BRIGHT, t) == frame for t in later)
        return
    assert change > now
    before = math.nextafter(change, -math.inf)
    assert render(scene, DEFAULT_MAP, BRIGHT, before) == frame
    assert render(scene, DEFAULT_MAP, BRIGHT, (now + before) / 2) == frame
    assert render(scene, DEFAULT_MAP, BRIGHT, change) != frame


@given(st.integers(-(10**9), 10**9), st.floats(0.01, 10))
def test_tick_start_is_the_first_float_of_its_tick(tick: int, period: float) -> None:
    style = Style(blink_period=period)
    start = tick_start(tick, style)
    assert tick_at(start, style) == tick
    assert tick_at(math.nextafter(start, -math.inf), style) == tick - 1


def test_time_must_be_finite() -> None:
    with pytest.raises(ValueError, match="time nan is not a finite number"):
        render(Scene(), DEFAULT_MAP, STYLE, math.nan)


# --- what each part of the scene lights ----------------------------------------------------


def _lit_in(scene: Scene, target: int | str, phase: int = 0) -> list[int]:
    """The positions of ``target``'s pixels lit in ``phase``."""
    frame = render(scene, DEFAULT_MAP, MONOCHROME, at_phase(phase, MONOCHROME))
    return [i for i, p in enumerate(DEFAULT_MAP.pixels(target)) if frame[p] != (0, 0, 0)]


def test_extra_checkers_count_from_the_tip_and_missing_ones_from_the_base() -> None:
    assert _lit_in(Scene(extra=((7, 2),)), 7) == [4, 5]
    assert _lit_in(Scene(extra=((7, 2),)), 7, phase=1) == []
    assert _lit_in(Scene(missing=((8, 3),)), 8) == [0, 1, 2]
    assert _lit_in(Scene(missing=((BAR_WHITE, 9),)), BAR_WHITE) == [0, 1, 2, 3]  # saturates


def test_a_zone_shows_its_most_urgent_meaning_only() -> None:
    scene = Scene(destinations=frozenset({7}), lifted=frozenset({7}), last_play=frozenset({7}))
    assert frames_of(scene, 7) == frames_of(Scene(lifted=frozenset({7})), 7)
    scene = Scene(extra=((7, 1),), candidate=frozenset({7}))
    assert frames_of(scene, 7) == frames_of(Scene(extra=((7, 1),)), 7)


def frames_of(scene: Scene, target: int | str) -> list[list[int]]:
    return [_lit_in(scene, target, phase) for phase in range(PHASES)]


def test_the_cube_is_a_bar_graph_of_its_doublings_at_its_owners_side() -> None:
    scene = Scene(cube_value=8, cube_owner=1)
    assert _lit_in(scene, "cube.black") == [0, 1, 2]
    assert _lit_in(scene, "cube.white") == _lit_in(scene, "cube.centre") == []
    assert _lit_in(Scene(cube_value=64, cube_owner=0), "cube.white") == [0, 1, 2, 3, 4, 5]
    assert _lit_in(Scene(cube_value=512, cube_owner=0), "cube.white") == [0, 1, 2, 3, 4, 5]
    assert _lit_in(Scene(cube_value=2), "cube.centre") == [0]  # an automatic double
    assert _lit_in(Scene(), "cube.centre") == []  # at 1: nothing doubled, nothing lit


def test_the_crawford_cube_is_a_dim_dotted_line_at_the_centre() -> None:
    scene = Scene(cube_available=False, cube_owner=None)
    assert frames_of(scene, "cube.centre") == [[1, 3, 5]] * PHASES
    frame = render(scene, DEFAULT_MAP, MONOCHROME, 0.0)
    assert frame[DEFAULT_MAP.pixels("cube.centre")[1]] == (89, 89, 89)


def test_an_offered_double_flashes_the_new_value() -> None:
    scene = Scene(turn=0, cube_value=2, cube_owner=0, cube_offered=True)
    assert frames_of(scene, "cube.white") == [[0, 1], [], [0, 1], [], [], [], [], []]


def test_the_dice_show_on_the_side_of_the_player_on_turn() -> None:
    scene = Scene(turn=1, dice=(5, 2), dice_left=(2,))
    assert _lit_in(scene, "dice.white") == []
    assert _lit_in(scene, "dice.black") == [4, 6, 7]  # the 5 played: only its fifth pixel
    frame = render(scene, DEFAULT_MAP, MONOCHROME, 0.0)
    dice = DEFAULT_MAP.pixels("dice.black")
    assert frame[dice[4]] == (89, 89, 89)
    assert frame[dice[6]] == (255, 255, 255)


def test_a_double_shows_two_moves_per_half_the_first_half_played_first() -> None:
    four = Scene(turn=0, dice=(4, 4), dice_left=(4, 4, 4, 4))
    assert frames_of(four, "dice.white") == [[0, 1, 2, 3, 6, 7, 8, 9]] * PHASES
    three = Scene(turn=0, dice=(4, 4), dice_left=(4, 4, 4))
    winking = [[0, 1, 2, 3, 6, 7, 8, 9]] * 6 + [[6, 7, 8, 9]] * 2
    assert frames_of(three, "dice.white") == winking
    one = Scene(turn=0, dice=(4, 4), dice_left=(4,))
    assert frames_of(one, "dice.white") == [[3, 6, 7, 8, 9]] * 6 + [[3]] * 2


def test_the_opening_roll_shows_each_players_die_on_their_side() -> None:
    scene = Scene(opening_dice=(4, 6))
    assert _lit_in(scene, "dice.white") == [0, 1, 2, 3]
    assert _lit_in(scene, "dice.black") == [0, 1, 2, 3, 4, 5]


def test_the_score_is_a_bar_with_the_goal_marked() -> None:
    scene = Scene(score=(3, 0), length=7)
    assert _lit_in(scene, "score.white") == [0, 1, 2, 6]
    assert _lit_in(scene, "score.black") == [6]
    # 25 points on 15 pixels: two points a pixel, a half-won pixel dim, the goal at 13 pixels.
    scene = Scene(score=(7, 24), length=25)
    assert _lit_in(scene, "score.white") == [0, 1, 2, 3, 12]
    frame = render(scene, DEFAULT_MAP, MONOCHROME, 0.0)
    bar = DEFAULT_MAP.pixels("score.white")
    assert [frame[bar[i]][0] for i in (2, 3, 12)] == [255, 89, 89]
    assert _lit_in(scene, "score.black") == list(range(13))
    # A money game: a pixel a point, full at the end of the bar.
    assert _lit_in(Scene(score=(20, 2)), "score.white") == list(range(15))
    assert _lit_in(Scene(score=(20, 2)), "score.black") == [0, 1]


def test_buttons_turn_and_alerts() -> None:
    scene = Scene(
        turn=WHITE, prompts=((BLACK, "cube", Meaning.TAKE), (WHITE, "roll", Meaning.ROLL))
    )
    frame = render(scene, DEFAULT_MAP, STYLE, 0.0)
    assert frame[DEFAULT_MAP.pixels("button.black.cube")[0]] == STYLE.shade("take")
    assert frame[DEFAULT_MAP.pixels("button.white.roll")[0]] == STYLE.shade("roll")
    assert lit(frame, DEFAULT_MAP.pixels("button.white.cube")) == set()
    assert {frame[p] for p in DEFAULT_MAP.pixels("turn.white")} == {STYLE.shade("white")}
    assert lit(frame, DEFAULT_MAP.pixels("turn.black")) == set()
    wrong = Scene(turn=WHITE, alert=Alert.WRONG)
    assert frames_of(wrong, "turn.white") == frames_of(wrong, "turn.black") == [[0, 1], []] * 4
    over = Scene(alert=Alert.MATCH_OVER, winner=BLACK)
    assert frames_of(over, "turn.white") == [[]] * PHASES
    assert frames_of(over, "turn.black") == [[0], [0], [1], [1]] * 2
