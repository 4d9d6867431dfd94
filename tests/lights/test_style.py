from __future__ import annotations

import math
from typing import Any

import pytest

from bgpi.lights import DEFAULT_PALETTE, Style, StyleError


def test_defaults() -> None:
    style = Style()
    assert (style.brightness, style.gamma, style.max_current_ma, style.ma_per_channel) == (
        0.5,
        2.2,
        2000.0,
        20.0,
    )
    assert dict(style.palette) == dict(DEFAULT_PALETTE)
    assert style == Style()
    assert hash(style) == hash(Style())


def test_a_palette_names_only_what_it_changes_and_lists_are_colours() -> None:
    style = Style(palette={"lifted": [1, 2, 3]})
    assert style.colour("lifted") == (1, 2, 3)
    assert style.colour("extra") == DEFAULT_PALETTE["extra"]
    assert set(style.palette) == set(DEFAULT_PALETTE)
    assert Style(palette=style.palette) == style


@pytest.mark.parametrize(
    ("palette", "message"),
    [
        ({"purple": (1, 2, 3)}, "palette names 'purple', not a meaning: the meanings are"),
        ({"lifted": (256, 0, 0)}, r"palette 'lifted' is \(256, 0, 0\), not \(red, green, blue\)"),
        ({"extra": (-1, 0, 0)}, "palette 'extra' is"),
        ({"take": (1, 2)}, r"palette 'take' is \(1, 2\)"),
        ({"drop": (1.0, 2, 3)}, "palette 'drop' is"),
        ({"roll": (True, 0, 0)}, "palette 'roll' is"),
        ({"roll": "#ff0000"}, "palette 'roll' is '#ff0000'"),
        ([("roll", (1, 2, 3))], "is not a mapping of meaning to colour"),
    ],
)
def test_a_bad_palette_is_refused_naming_the_entry(palette: Any, message: str) -> None:
    with pytest.raises(StyleError, match=message):
        Style(palette=palette)


@pytest.mark.parametrize(
    ("setting", "value", "message"),
    [
        ("brightness", 1.5, "brightness is 1.5: it must be from 0 up to 1"),
        ("brightness", -0.1, "brightness is -0.1"),
        ("brightness", "full", "brightness is 'full', not a number"),
        ("brightness", True, "brightness is True, not a number"),
        ("gamma", 0, "gamma is 0: it must be above 0 up to 10"),
        ("dim", 0.0, "dim is 0.0: it must be above 0 and below 1"),
        ("dim", 1.0, "dim is 1.0"),
        ("blink_period", 0, "blink_period is 0: it must be above 0"),
        ("max_current_ma", math.nan, "max_current_ma is nan, not a number"),
        ("max_current_ma", math.inf, "max_current_ma is inf: it must be above 0"),
        ("ma_per_channel", -20, "ma_per_channel is -20"),
        ("idle_ma_per_pixel", -1, "idle_ma_per_pixel is -1: it must be from 0"),
    ],
)
def test_a_bad_setting_is_refused_naming_it(setting: str, value: object, message: str) -> None:
    with pytest.raises(StyleError, match=message):
        Style(**{setting: value})


def test_edges_of_the_ranges_are_allowed() -> None:
    Style(brightness=0, idle_ma_per_pixel=0)
    Style(brightness=1, dim=0.99, gamma=10)


def test_the_gamma_table_has_known_values() -> None:
    table = Style(gamma=2.2).gamma_table
    assert len(table) == 256
    assert (table[0], table[64], table[128], table[255]) == (0, 12, 56, 255)
    assert list(table) == sorted(table)
    assert Style(gamma=1.0).gamma_table == tuple(range(256))


def test_shade_applies_level_then_gamma_then_brightness() -> None:
    style = Style(palette={"destination": (255, 128, 0)}, gamma=2.2, brightness=0.5)
    assert style.shade("destination") == (128, 28, 0)
    linear = Style(palette={"destination": (200, 100, 0)}, gamma=1.0, brightness=1.0, dim=0.5)
    assert linear.shade("destination", dim=True) == (100, 50, 0)
    assert Style(brightness=0).shade("cube") == (0, 0, 0)
    with pytest.raises(StyleError, match="the palette has no colour for 'sparkle'"):
        style.shade("sparkle")


def test_from_config_takes_a_table_and_keywords_and_refuses_unknown_settings() -> None:
    style = Style.from_config({"brightness": 0.3, "palette": {"cube": [9, 9, 9]}}, gamma=2.0)
    assert (style.brightness, style.gamma, style.colour("cube")) == (0.3, 2.0, (9, 9, 9))
    assert Style.from_config() == Style()
    with pytest.raises(StyleError, match="unknown lights setting 'colour_order'"):
        Style.from_config({"colour_order": "grb"})
