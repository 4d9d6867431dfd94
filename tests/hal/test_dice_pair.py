"""``bgpi dice pair``: the GoDice heard on a fake radio (fake BLE clients under the ``godice``
library's own code), each asked its colour and battery; die 1 and die 2 chosen by colour or
address, written to the config with the rest of the file kept; one line, exit 1, when no
Bluetooth adapter answers."""

from __future__ import annotations

from pathlib import Path

import pytest

from bgpi.builder.dicepair import Found, PairingError, chosen, pair, with_dice
from bgpi.cli import main
from bgpi.hal.godice import FakeBleClient
from bgpi.service.config import load

RED, BLUE, GREEN = "C0:00:00:00:00:0A", "C0:00:00:00:00:0B", "C0:00:00:00:00:0C"


class FakeRadio:
    """A radio that hears the fake dice given, and a speaker that is no GoDice."""

    def __init__(self, *dice: tuple[str, int, int]) -> None:
        self.dice = {
            address: FakeBleClient(address, battery, colour) for address, colour, battery in dice
        }

    async def discover(self, seconds: float) -> list[tuple[str, str]]:
        heard = [(address, f"GoDice_{address[-2:]}_v04") for address in self.dice]
        return [*heard, ("11:22:33:44:55:66", "Kitchen speaker")]

    def client(self, address: str) -> FakeBleClient:
        return self.dice[address]


def config(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "bgpi.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_two_dice_found_are_paired_in_the_librarys_order_of_colours(tmp_path: Path) -> None:
    path = config(tmp_path, '# my board\n[players]\nwhite = "Anna"\n')
    said: list[str] = []
    one, other = pair(FakeRadio((BLUE, 3, 70), (RED, 1, 90)), path, seconds=0, say=said.append)
    assert (one.colour, other.colour) == ("red", "blue")
    assert said[1:3] == [
        "  C0:00:00:00:00:0A red (GoDice_0A_v04, battery 90%)",
        "  C0:00:00:00:00:0B blue (GoDice_0B_v04, battery 70%)",
    ]
    assert said[-1].startswith(f"die 1 is red {RED}, die 2 is blue {BLUE}: written to {path}.")
    loaded = load(path)
    assert loaded.dice.paired == (RED, BLUE) and loaded.players.white == "Anna"
    assert path.read_text().startswith('# my board\n[players]\nwhite = "Anna"\n')
    assert [p.name for p in tmp_path.glob("bgpi.toml.before-dice-pair-*")]


def test_the_dice_are_chosen_by_colour_or_address_among_more(tmp_path: Path) -> None:
    radio = FakeRadio((RED, 1, 90), (BLUE, 3, 70), (GREEN, 2, 60))
    path = config(tmp_path, "")
    one, other = pair(radio, path, first="blue", second=GREEN.lower(), seconds=0, say=print)
    assert (one.address, other.address) == (BLUE, GREEN)
    assert load(path).dice.paired == (BLUE, GREEN)
    with pytest.raises(PairingError, match=r"found 3 GoDice .*: say which two with --first"):
        pair(radio, path, seconds=0, say=print)


def test_too_few_dice_or_a_choice_that_is_no_die_is_said() -> None:
    red = Found(RED, "GoDice_0A", "red", 90)
    blue = Found(BLUE, "GoDice_0B", "blue", 90)
    with pytest.raises(PairingError, match="found 1 GoDice, not two: switch both on"):
        chosen([red], None, None)
    with pytest.raises(PairingError, match="purple names 0 of the GoDice found"):
        chosen([red, blue], "purple", "red")
    with pytest.raises(PairingError, match="name the same die"):
        chosen([red, blue], "red", RED)


def test_the_pair_replaces_the_addresses_and_keeps_the_rest_of_dice() -> None:
    text = '[dice]\nsource = "godice"\nfirst = "AA:AA:AA:AA:AA:AA"\n\n[seats]\nblack = "gnubg"\n'
    new = with_dice(text, RED, BLUE)
    assert new == (
        f'[dice]\nfirst = "{RED}"\nsecond = "{BLUE}"\nsource = "godice"\n\n'
        '[seats]\nblack = "gnubg"\n'
    )


def test_with_no_bluetooth_adapter_pairing_says_so_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = config(tmp_path, "")
    assert main(["dice", "pair", "--config", str(path), "--seconds", "0.2"]) == 1
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("bgpi dice: no Bluetooth adapter answers (")
    assert path.read_text() == ""  # nothing written
    assert main(["dice", "pair"]) == 2  # where to write it, not said
