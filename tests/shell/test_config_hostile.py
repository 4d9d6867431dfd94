"""A config file that is no config at all is refused in one line naming the file (exit
status 2), never a traceback; ``bgpi config show`` hides the secrets and prints valid TOML
whatever the strings hold."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bgpi.service.config import MAX_SAID, ConfigError, load, parse, show


def bgpi(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bgpi", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_kilobyte_of_500_nested_arrays_is_a_config_error_naming_the_file(
    tmp_path: Path,
) -> None:
    path = tmp_path / "nested.toml"
    path.write_text("[players]\nwhite = " + "[" * 500 + "]" * 500 + "\n", encoding="utf-8")
    assert path.stat().st_size < 1100
    result = bgpi("config", "check", path)
    assert result.returncode == 2
    assert result.stderr == f"bgpi: {path}: (syntax): arrays or tables nested more than 16 deep\n"
    assert bgpi("run", "--config", path).returncode == 2  # the service too: no restart loop


@pytest.mark.parametrize(
    "text",
    [
        "[players]\nwhite = " + "{a = " * 300 + "1" + "}" * 300,  # tomllib's own recursion
        "[players]\nwhite = " + "[" * 17 + "]" * 17,  # parsed, but deeper than a config goes
        "[players]\nwhite" + ".x" * 5000 + " = 1",  # dotted keys: tables without recursion
        "[players" + ".x" * 3000 + "]\nname = 1",
    ],
)
def test_nesting_of_every_kind_is_refused_before_anything_reads_it(
    tmp_path: Path, text: str
) -> None:
    path = tmp_path / "nested.toml"
    path.write_text(text + "\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load(path)
    assert (caught.value.source, caught.value.key) == (str(path), "(syntax)")
    assert "nested more than 16 deep" in caught.value.why


def test_a_file_over_a_megabyte_is_not_read_as_a_config(tmp_path: Path) -> None:
    path = tmp_path / "big.toml"
    path.write_text("# " + "x" * (1 << 20) + "\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="over a megabyte"):
        load(path)


def test_a_huge_or_many_lined_value_is_shown_in_a_short_line(tmp_path: Path) -> None:
    path = tmp_path / "long.toml"
    path.write_text('[rules]\nlength = "' + "\\n" * 100_000 + '"\n', encoding="utf-8")
    result = bgpi("config", "check", path)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"bgpi: {path}: rules.length: is '\\n\\n")
    assert len(result.stderr) < len(str(path)) + 2 * MAX_SAID


def test_an_led_map_longer_than_any_strip_is_refused_before_it_is_built() -> None:
    with pytest.raises(ConfigError, match="length is 1000000000: a strip of at most 10000"):
        parse({"leds": {"map": {"length": 10**9, "zones": {}}}}, "big.toml")


TRICKY = (
    "a\nnew line",
    "quotes \" and '",
    "back\\slash \\n \\u0041",
    "tab\tand\rreturn\x00nul\x1besc\x7fdel",
    "\u2028 line separator, 😀, é",
    '"""triple""" and \'\'\'',
    "# not a comment",
    "",
)


@pytest.mark.parametrize("value", TRICKY)
def test_config_show_is_valid_toml_whatever_the_strings_hold(value: str) -> None:
    config = parse(
        {
            "players": {"white": value, "black": value[::-1]},
            "remote": {"username": value, "ca_file": value},
            "state": {"dir": value},
        },
        f"odd {value}.toml",
    )
    shown = tomllib.loads(show(config))
    assert (shown["players"]["white"], shown["players"]["black"]) == (value, value[::-1])
    assert shown["remote"]["username"] == value and shown["remote"]["ca_file"] == value
    assert shown["state"]["dir"] == value


def test_config_show_masks_the_match_code_as_it_masks_the_password(tmp_path: Path) -> None:
    path = tmp_path / "remote.toml"
    path.write_text(
        '[remote]\nbroker = "mqtts://broker.example"\nusername = "board"\n'
        'password = "hunter2"\nmatch = "k7m2q-x9p4r"\n[players]\nwhite = "Line\\nbreak"\n',
        encoding="utf-8",
    )
    result = bgpi("config", "show", path)
    assert result.returncode == 0, result.stderr
    assert "hunter2" not in result.stdout
    assert "K7M2Q" not in result.stdout.upper()
    shown = tomllib.loads(result.stdout)
    assert shown["remote"]["password"] == shown["remote"]["match"] == "********"
    assert shown["remote"]["username"] == "board"
    assert shown["players"]["white"] == "Line\nbreak"
    # Unset, they are shown as the empty strings they are.
    empty = tomllib.loads(show(parse({})))
    assert empty["remote"]["password"] == empty["remote"]["match"] == ""


def test_a_terminal_escape_in_a_key_is_shown_not_sent(tmp_path: Path) -> None:
    path = tmp_path / "escape.toml"
    path.write_text('["\\u001b]0;owned\\u0007\\u001b[2J"]\nx = 1\n', encoding="utf-8")
    result = bgpi("config", "check", path)
    assert result.returncode == 2
    assert "\x1b" not in result.stderr and "\x07" not in result.stderr
    assert result.stderr.startswith(f"bgpi: {path}: \\x1b]0;owned\\x07\\x1b[2J: unknown section")
