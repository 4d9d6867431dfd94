from __future__ import annotations

import tomllib
from typing import Any

import pytest
from hypothesis import given

from bgpi.base.words import BAR_BLACK, BAR_WHITE, TRAY_BLACK, TRAY_WHITE, ZONES
from bgpi.lights import AREAS, LedMap, LedMapError

from .strategies import ledmaps

DEFAULT = LedMap.default()


def _small_config(**changes: Any) -> dict[str, Any]:
    """A valid map: one pixel per zone (zone z at pixel z - 1), the areas after them."""
    config: dict[str, Any] = {
        "length": 60,
        "zones": {str(zone): [zone - 1] for zone in ZONES},
        "areas": {"cube.centre": {"first": 28, "count": 6}, "turn.white": [34]},
    }
    config.update(changes)
    return config


def test_the_default_map_gives_every_zone_and_area_its_pixels_disjoint_and_on_the_strip() -> None:
    assert DEFAULT.length == 264
    seen: dict[int, str] = {}
    targets = [(str(z), DEFAULT.pixels(z)) for z in ZONES] + [(a, DEFAULT.pixels(a)) for a in AREAS]
    for name, pixels in targets:
        assert pixels, name
        for pixel in pixels:
            assert 0 <= pixel < DEFAULT.length, (name, pixel)
            assert pixel not in seen, (name, seen.get(pixel), pixel)
            seen[pixel] = name
    assert sorted(seen) == list(range(DEFAULT.length))  # and nothing wasted


def test_the_default_map_has_one_pixel_per_slot_and_the_documented_area_sizes() -> None:
    for point in range(1, 25):
        assert len(DEFAULT.pixels(point)) == 6
    assert [len(DEFAULT.pixels(z)) for z in (BAR_WHITE, BAR_BLACK, TRAY_WHITE, TRAY_BLACK)] == [
        4,
        4,
        6,
        6,
    ]
    sizes = {area: len(DEFAULT.pixels(area)) for area in AREAS}
    assert sizes == {
        "cube.white": 6,
        "cube.centre": 6,
        "cube.black": 6,
        "dice.white": 12,
        "dice.black": 12,
        "score.white": 15,
        "score.black": 15,
        "button.white.roll": 1,
        "button.white.cube": 1,
        "button.black.roll": 1,
        "button.black.cube": 1,
        "turn.white": 2,
        "turn.black": 2,
        "clock.white": 10,
        "clock.black": 10,
    }


def test_the_default_map_puts_the_clocks_last_so_a_board_laid_before_them_keeps_its_pixels() -> (
    None
):
    assert DEFAULT.pixels("clock.black") == tuple(range(244, 254))  # on from Black's panel
    assert DEFAULT.pixels("clock.white") == tuple(range(254, 264))
    assert max(DEFAULT.pixels("score.black")) == 243


def test_the_default_strip_snakes_base_to_tip_then_tip_to_base() -> None:
    assert DEFAULT.pixels(1) == (0, 1, 2, 3, 4, 5)
    assert DEFAULT.pixels(2) == (11, 10, 9, 8, 7, 6)
    assert DEFAULT.pixels(24) == (143, 142, 141, 140, 139, 138)
    assert DEFAULT.pixels(BAR_WHITE) == (144, 145, 146, 147)
    assert DEFAULT.pixels("cube.centre") == tuple(range(148, 154))
    assert DEFAULT.owner(0) == 1
    assert DEFAULT.owner(148) == "cube.centre"


def test_the_config_round_trips() -> None:
    config = DEFAULT.to_config()
    assert config["zones"]["2"] == {"first": 11, "count": 6, "step": -1}  # type: ignore[index]
    assert LedMap.from_config(config) == DEFAULT


@given(ledmaps())
def test_any_map_round_trips_through_its_config(ledmap: LedMap) -> None:
    assert LedMap.from_config(ledmap.to_config()) == ledmap


def test_a_custom_map_reads_from_toml_in_every_documented_form() -> None:
    zones = "\n".join(f"{z} = [{z + 10}]" for z in range(3, 29))
    text = f"""
length = 60
[zones]
1 = {{ first = 0, count = 3 }}
2 = {{ first = 5, count = 3, step = -1 }}
{zones}
[areas]
"cube.white" = [50, 52, 51]
"""
    ledmap = LedMap.from_config(tomllib.loads(text))
    assert ledmap.pixels(1) == (0, 1, 2)
    assert ledmap.pixels(2) == (5, 4, 3)
    assert ledmap.pixels(28) == (38,)
    assert ledmap.pixels("cube.white") == (50, 52, 51)
    assert ledmap.pixels("dice.black") == ()  # left out: no pixels
    assert ledmap.owner(59) is None


def test_a_zone_may_have_no_pixels_but_must_be_given() -> None:
    config = _small_config()
    config["zones"]["27"] = []
    assert LedMap.from_config(config).pixels(27) == ()
    del config["zones"]["27"]
    with pytest.raises(LedMapError, match=r"white tray \(zone 27\) is missing") as caught:
        LedMap.from_config(config)
    assert caught.value.target == "white tray"


def _with_zone(zone: str, spec: object) -> dict[str, Any]:
    config = _small_config()
    config["zones"][zone] = spec
    return config


def _with_area(area: str, spec: object) -> dict[str, Any]:
    config = _small_config()
    config["areas"][area] = spec
    return config


@pytest.mark.parametrize(
    ("config", "message", "target", "pixel"),
    [
        (_with_zone("3", [1]), "pixel 1 is claimed by both point 2 and point 3", "point 3", 1),
        (
            _with_area("cube.white", [35, 30]),
            "pixel 30 is claimed by both cube.white and cube.centre",
            "cube.centre",
            30,
        ),
        (_with_zone("26", [25, 40, 40]), "black bar names pixel 40 twice", "black bar", 40),
        (
            _with_zone("7", [6, 60]),
            r"point 7 names pixel 60, past the strip of 60 pixels \(0-59\)",
            "point 7",
            60,
        ),
        (
            _with_area("dice.black", {"first": 58, "count": 4}),
            "dice.black names pixel 60, past the strip",
            "dice.black",
            60,
        ),
        (
            _with_zone("5", [-1]),
            "point 5 names pixel -1: pixels are numbered from 0",
            "point 5",
            -1,
        ),
        (
            _with_zone("5", {"first": 2, "count": 4, "step": -1}),
            "point 5 names pixel -1",
            "point 5",
            -1,
        ),
        (_with_zone("29", [40]), "unknown zone '29': zones are 1-24", "zone '29'", None),
        (_with_zone("bar", [40]), "unknown zone 'bar'", "zone 'bar'", None),
        (
            _with_area("cube.middle", [40]),
            "unknown area 'cube.middle': areas are",
            "cube.middle",
            None,
        ),
        (_with_zone("4", [3.5]), "point 4 names pixel 3.5, not an integer", "point 4", None),
        (
            _with_zone("4", "0-5"),
            "point 4 is '0-5': give a list of pixels or a run",
            "point 4",
            None,
        ),
        (
            _with_zone("4", {"first": 40, "count": 2, "step": 2}),
            "point 4's run has step 2",
            "point 4",
            None,
        ),
        (_with_zone("4", {"first": 40}), "point 4's run .* needs first and count", "point 4", None),
        (
            _with_zone("4", {"first": 40, "count": 2, "stride": 1}),
            "point 4's run .* no more",
            "point 4",
            None,
        ),
        (
            _with_zone("4", {"first": 40, "count": -2}),
            "point 4's run .* count 0 or more",
            "point 4",
            None,
        ),
    ],
)
def test_a_bad_map_is_refused_naming_the_zone_or_area_and_the_pixel(
    config: dict[str, Any], message: str, target: str, pixel: int | None
) -> None:
    with pytest.raises(LedMapError, match=message) as caught:
        LedMap.from_config(config)
    assert caught.value.target == target
    assert caught.value.pixel == pixel


@pytest.mark.parametrize(
    ("config", "message"),
    [
        (_small_config(length=0), "a strip has 1 or more pixels, not length=0"),
        (_small_config(length="60"), "the LED map's length is '60', not a number of pixels"),
        (_small_config(colour="grb"), "unknown LED map key 'colour'"),
        (_small_config(zones=[1, 2]), r"the LED map's zones is \[1, 2\], not a table"),
        ({"length": 10}, "the LED map has no zones table"),
    ],
)
def test_a_malformed_config_is_refused_saying_what(config: dict[str, Any], message: str) -> None:
    with pytest.raises(LedMapError, match=message):
        LedMap.from_config(config)


def test_a_zone_given_twice_is_refused() -> None:
    config = _small_config()
    config["zones"][7] = [40]  # as well as "7"
    with pytest.raises(LedMapError, match="point 7 is given twice"):
        LedMap.from_config(config)


def test_unknown_targets_are_refused_when_asked_for() -> None:
    with pytest.raises(LedMapError, match="unknown zone 0"):
        DEFAULT.pixels(0)
    with pytest.raises(LedMapError, match="unknown area 'dice'"):
        DEFAULT.pixels("dice")
    with pytest.raises(LedMapError, match="pixel 264 is outside the strip of 264"):
        DEFAULT.owner(264)


def _described_pixels(table: str) -> list[tuple[int, int, str, str]]:
    rows = []
    for line in table.splitlines()[2:]:
        span, what, order = (cell.strip() for cell in line.strip("|").split("|"))
        first, _, last = span.partition("-")
        rows.append((int(first), int(last or first), what, order))
    return rows


def test_describe_gives_a_markdown_row_per_run_covering_the_strip_once() -> None:
    table = DEFAULT.describe()
    assert table.startswith("| pixels | zone or area | order |\n| --- | --- | --- |\n")
    assert "| 0-5 | point 1 (zone 1) | base to tip |" in table
    assert "| 6-11 | point 2 (zone 2) | tip to base |" in table
    assert "| 148-153 | `cube.centre` | first to last |" in table
    assert "| 172 | `button.white.roll` |  |" in table
    rows = _described_pixels(table)
    covered = [p for first, last, _, _ in rows for p in range(first, last + 1)]
    assert covered == list(range(DEFAULT.length))


def test_describe_shows_unused_pixels_and_a_zone_in_pieces() -> None:
    config = _small_config()
    config["zones"]["1"] = [0, 40, 41, 45]
    rows = _described_pixels(LedMap.from_config(config).describe())
    point_1 = [(first, last) for first, last, what, _ in rows if what == "point 1 (zone 1)"]
    assert point_1 == [(0, 0), (40, 41), (45, 45)]
    assert (35, 39, "unused", "") in rows
    assert (46, 59, "unused", "") in rows


@given(ledmaps())
def test_describe_accounts_for_every_pixel_of_any_map(ledmap: LedMap) -> None:
    rows = _described_pixels(ledmap.describe())
    covered = [p for first, last, _, _ in rows for p in range(first, last + 1)]
    assert covered == list(range(ledmap.length))
    for first, last, what, _ in rows:
        owners = {ledmap.owner(p) for p in range(first, last + 1)}
        assert len(owners) == 1
        owner = owners.pop()
        if owner is None:
            assert what == "unused"
        elif isinstance(owner, str):
            assert what == f"`{owner}`"
        else:
            assert what.endswith(f"(zone {owner})")
