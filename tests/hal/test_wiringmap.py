"""The builder's wiring map in the config file: read back exactly, each refusal named by file,
entry and why, shown by ``bgpi config show``, and refused by ``bgpi config check`` (status 2)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bgpi.base.geometry import Geometry
from bgpi.base.wiringmap import map_toml, unused_toml
from bgpi.hal.sim import scrambled_geometry
from bgpi.service.config import ConfigError, load, parse, show

SMALL = "point_slots = 2\nbar_slots = 1\n"  # 50 switches: short files, same rules


def config_text(geometry: Geometry, sensors: str = SMALL) -> str:
    return f"[sensors]\n{sensors}{unused_toml(geometry)}\n\n{map_toml(geometry)}"


def small(seed: int, spare: int = 3) -> Geometry:
    return scrambled_geometry(seed, spare=spare, point_slots=2, bar_slots=1)


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "bgpi.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_scrambled_map_reads_back_to_the_same_geometry(tmp_path: Path, seed: int) -> None:
    wiring = small(seed)
    config = load(write(tmp_path, config_text(wiring)))
    assert config.geometry == wiring
    assert config.geometry != Geometry.default(point_slots=2, bar_slots=1)
    assert config.geometry.unused() == wiring.unused() and len(wiring.unused()) == 3


def test_without_a_map_the_default_order_holds() -> None:
    assert parse({"sensors": {"point_slots": 2, "bar_slots": 1}}).geometry == Geometry.default(
        point_slots=2, bar_slots=1
    )


def entries(geometry: Geometry) -> list[dict[str, object]]:
    return tomllib.loads(map_toml(geometry))["sensors"]["map"]  # type: ignore[no-any-return]


def refusal(tmp_path: Path, sensors: dict[str, object]) -> ConfigError:
    # Written as TOML and loaded, so the file name is part of what is checked.
    lines = [SMALL]
    if "unused" in sensors:
        lines.append(f"unused = {sensors['unused']!r}\n")
    text = "[sensors]\n" + "".join(lines) + "\n"
    for entry in sensors["map"]:  # type: ignore[attr-defined]
        text += "[[sensors.map]]\n" + "".join(
            f"{key} = {value!r}\n".replace("'", '"') for key, value in entry.items()
        )
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load(path)
    assert caught.value.source == str(path)
    return caught.value


WIRING = small(7)


def _where(bit: int) -> str:
    index = next(i for i, e in enumerate(entries(WIRING)) if e["bit"] == bit)
    return f"sensors.map entry {index + 1} (bit {bit})"


def test_a_missing_bit_is_named(tmp_path: Path) -> None:
    kept = [e for e in entries(WIRING) if e["bit"] != 10]
    error = refusal(tmp_path, {"map": kept, "unused": list(WIRING.unused())})
    assert error.key == "sensors.map"
    assert "bit 10 is missing" in error.why


def test_a_bit_given_twice_is_named_at_its_second_entry(tmp_path: Path) -> None:
    doubled = entries(WIRING)
    second = doubled[20]
    doubled[20] = {**second, "bit": doubled[4]["bit"]}
    error = refusal(tmp_path, {"map": doubled, "unused": list(WIRING.unused())})
    assert error.key == f"sensors.map entry 21 (bit {doubled[4]['bit']})"
    assert "given twice" in error.why


def test_a_bit_both_mapped_and_unused_is_named(tmp_path: Path) -> None:
    mapped = entries(WIRING)[0]["bit"]
    error = refusal(tmp_path, {"map": entries(WIRING), "unused": [*WIRING.unused(), mapped]})
    assert error.key == "sensors.unused"
    assert f"bit {mapped} is given twice" in error.why


def test_two_bits_on_one_switch_are_named(tmp_path: Path) -> None:
    crossed = entries(WIRING)
    crossed[9] = {**crossed[9], "zone": crossed[3]["zone"], "slot": crossed[3]["slot"]}
    error = refusal(tmp_path, {"map": crossed, "unused": list(WIRING.unused())})
    assert error.key == _where(crossed[9]["bit"])  # type: ignore[arg-type]
    assert f"both name {crossed[3]['zone']} slot {crossed[3]['slot']}" in error.why


def test_a_switch_with_no_bit_is_named(tmp_path: Path) -> None:
    moved = entries(WIRING)
    lost = next(e for e in moved if e["zone"] == "white bar")
    index = moved.index(lost)
    moved[index] = {**lost, "zone": "black bar", "slot": 0}
    error = refusal(tmp_path, {"map": moved, "unused": list(WIRING.unused())})
    # Two bits now name the black bar: the later one is at fault ...
    assert "both name black bar slot 0" in error.why
    moved.pop(index)
    error = refusal(tmp_path, {"map": moved, "unused": [*WIRING.unused(), lost["bit"]]})
    # ... and with that bit unused instead, the white bar has none.
    assert error.key == "sensors.map"
    assert error.why == "white bar slot 0 has no bit"


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"slot": 2}, "but a point has slots 0-1"),
        ({"zone": "point 25"}, "is not one of 'point 1'"),
        ({"zone": 3}, "expected a name like 'point 3'"),
        ({"slot": -1}, "slot is -1, expected 0 or more"),
        ({"colour": "white"}, "unknown key 'colour'"),
    ],
)
def test_a_bad_entry_is_named(tmp_path: Path, change: dict[str, object], why: str) -> None:
    bad = entries(WIRING)
    point = next(i for i, e in enumerate(bad) if str(e["zone"]).startswith("point"))
    bad[point] = {**bad[point], **change}
    error = refusal(tmp_path, {"map": bad, "unused": list(WIRING.unused())})
    assert error.key == f"sensors.map entry {point + 1} (bit {bad[point]['bit']})"
    assert why in error.why


def test_unused_without_a_map_is_refused() -> None:
    with pytest.raises(ConfigError, match=r"sensors.unused: is given without"):
        parse({"sensors": {"unused": [3]}})


def bgpi(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bgpi", *map(str, args)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


def test_config_check_refuses_a_bad_map_with_status_2_and_one_line(tmp_path: Path) -> None:
    bad = entries(WIRING)
    bad[5] = {**bad[5], "slot": 9}
    text = config_text(WIRING).replace(
        map_toml(WIRING), "".join(f"[[sensors.map]]\n{_entry(e)}" for e in bad)
    )
    path = write(tmp_path, text)
    result = bgpi("config", "check", "--config", path)
    assert result.returncode == 2
    assert result.stderr.startswith(f"bgpi: {path}: sensors.map entry 6 (bit {bad[5]['bit']}): ")
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


def _entry(entry: dict[str, object]) -> str:
    return f'bit = {entry["bit"]}\nzone = "{entry["zone"]}"\nslot = {entry["slot"]}\n'


def test_config_show_prints_the_effective_map_which_reads_back(tmp_path: Path) -> None:
    path = write(tmp_path, config_text(WIRING))
    result = bgpi("config", "show", "--config", path)
    assert result.returncode == 0, result.stderr
    assert f"the wiring map (from {path})" in result.stdout
    # What it prints is a config file giving the same map.
    shown = tmp_path / "shown.toml"
    shown.write_text(result.stdout, encoding="utf-8")
    assert load(shown).geometry == WIRING


def test_config_show_prints_the_default_map_when_the_file_gives_none() -> None:
    text = show(parse({}))
    assert "the wiring map (the default order): 152 chain inputs" in text
    assert '[[sensors.map]]\nbit = 151\nzone = "black bar"\nslot = 3' in text
