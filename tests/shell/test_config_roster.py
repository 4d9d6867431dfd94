"""``[players] roster``: the club's players, chosen from at the board; a roster the board
could not offer is refused naming the key, and ``bgpi config``'s TOML gives it back."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from bgpi.service.app import table_config
from bgpi.service.config import ConfigError, load, show


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "bgpi.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_roster_is_read_in_order_and_reaches_the_table(tmp_path: Path) -> None:
    path = write(
        tmp_path, '[players]\nroster = ["Anna", "Ben Öberg", "Cleo"]\nwhite = "Ben Öberg"\n'
    )
    config = load(path)
    assert config.players.roster == ("Anna", "Ben Öberg", "Cleo")
    assert table_config(config).roster == ("Anna", "Ben Öberg", "Cleo")
    assert config.match_record().names == ("Ben Öberg", "Black")
    shown = tomllib.loads(show(config))
    assert shown["players"]["roster"] == ["Anna", "Ben Öberg", "Cleo"]


def test_the_engines_side_keeps_its_own_name(tmp_path: Path) -> None:
    text = '[players]\nroster = ["Anna"]\nblack = "gnubg"\n[seats]\nblack = "demo"\n'
    assert load(write(tmp_path, text)).match_record().names == ("White", "gnubg")


def test_without_a_roster_nothing_changes(tmp_path: Path) -> None:
    config = load(write(tmp_path, '[players]\nwhite = "Zed"\n'))
    assert config.players.roster == () and table_config(config).roster == ()
    assert config.match_record().names == ("Zed", "Black")


@pytest.mark.parametrize(
    ("text", "key", "why"),
    [
        ('roster = "Anna"', "players.roster", "expected array"),
        ("roster = [1, 2]", "players.roster", "1: a name is text, not int"),
        ('roster = ["Anna", ""]', "players.roster", "a name has 1 to 40 characters"),
        ('roster = ["  "]', "players.roster", "a name has 1 to 40 characters"),
        (f'roster = ["{"x" * 41}"]', "players.roster", "a name has 1 to 40 characters"),
        ('roster = ["Ann\\nLee"]', "players.roster", "no control characters"),
        ('roster = ["Ann\\u200fLee"]', "players.roster", "no control characters"),
        ('roster = ["Anna", "Ben", "Anna"]', "players.roster", "'Anna': given twice"),
        ('roster = ["White"]', "players.roster", "nobody in particular"),
        (
            "roster = [" + ", ".join(f'"P{n}"' for n in range(26)) + "]",
            "players.roster",
            "has 26 names, at most 25",
        ),
        ('roster = ["Anna"]\nwhite = "Zed"', "players.white", "'Zed', not in players.roster"),
        ('roster = ["Anna"]\nblack = "Anna"\nwhite = "Anna"', "players.black", "both sides"),
    ],
)
def test_a_roster_the_board_could_not_offer_is_refused_naming_the_key(
    tmp_path: Path, text: str, key: str, why: str
) -> None:
    path = write(tmp_path, f"[players]\n{text}\n")
    with pytest.raises(ConfigError) as caught:
        load(path)
    assert (caught.value.key, caught.value.source) == (key, str(path))
    assert why in caught.value.why
