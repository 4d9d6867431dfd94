"""The remote commands' bad input: one line naming what is wrong, the documented status."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bgpi.cli import main
from bgpi.service.config import ConfigError, load, show
from tests.remote.conftest import free_port

DEMO = ["demo", "--side", "white", "--length", "1"]


CODE = ["--match", "K7QDM-2PXWA"]
BAD_ARGUMENTS = [
    (
        ["--remote", "http://127.0.0.1", *CODE],
        "broker 'http://127.0.0.1': expected mqtt://HOST[:PORT] or mqtts://HOST[:PORT]",
    ),
    (
        ["--remote", "mqtt://127.0.0.1:99999", *CODE],
        "broker 'mqtt://127.0.0.1:99999': Port out of range 0-65535",
    ),
    (
        ["--remote", "mqtt://127.0.0.1"],
        "--remote needs the match code: --match CODE or [remote] match",
    ),
    (
        ["--remote", "mqtt://127.0.0.1", "--match", "K7QDM-2PXW0"],
        "match code 'K7QDM-2PXW0': '0' is not in 23456789ABCDEFGHJKLMNPQRSTUVWXYZ",
    ),
]


@pytest.mark.parametrize(("args", "message"), BAD_ARGUMENTS)
def test_a_bad_argument_is_a_usage_error_in_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*DEMO, *args]) == 2
    assert capsys.readouterr().err == f"bgpi demo: {message}\n"


def test_a_broker_that_is_not_there_fails_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    port = free_port()
    url = f"mqtt://127.0.0.1:{port}"
    code = main([*DEMO, "--remote", url, "--match", "K7QDM-2PXWA", "--state-dir", str(tmp_path)])
    assert code == 1
    assert capsys.readouterr().err == f"bgpi demo: broker {url}: no broker answers there\n"
    assert main(["club", "results", "--broker", url, "--club", "x"]) == 1
    assert capsys.readouterr().err == f"bgpi club: broker {url}: no broker answers there\n"


def test_club_results_need_a_club_and_a_broker_url_or_it_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["club", "results", "--broker", "mqtt://127.0.0.1"]) == 2
    assert capsys.readouterr().err == "bgpi club: no club: give --club NAME or set [remote] club\n"
    assert main(["club", "results", "--broker", "mqtt://127.0.0.1", "--club", "a/b"]) == 2
    assert "club name 'a/b': 1 to 64 characters, none of / + #" in capsys.readouterr().err
    assert main(["club", "results", "--broker", "notaurl", "--club", "x"]) == 2  # as demo's
    assert "broker 'notaurl': expected mqtt://HOST[:PORT]" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "key", "why"),
    [
        ('broker = "tcp://x"', "remote.broker", "expected mqtt://HOST[:PORT]"),
        ('match = "ABC"', "remote.match", "has 3 letters, expected 10"),
        ('side = "red"', "remote.side", "expected one of ('white', 'black')"),
        ("club = 3", "remote.club", "is 3 (int), expected str"),
    ],
)
def test_a_bad_remote_section_names_the_key(tmp_path: Path, text: str, key: str, why: str) -> None:
    path = tmp_path / "bgpi.toml"
    path.write_text(f"[remote]\n{text}\n")
    with pytest.raises(ConfigError, match=re.escape(why)) as caught:
        load(path)
    assert caught.value.key == key


def test_the_config_shows_that_a_password_is_set_but_not_the_password(tmp_path: Path) -> None:
    path = tmp_path / "bgpi.toml"
    path.write_text(
        '[remote]\nbroker = "mqtts://b.example.org"\nusername = "anna"\npassword = "s3cret"\n'
    )
    text = show(load(path))
    assert "s3cret" not in text
    assert 'password = "********"  # set, not shown' in text and 'username = "anna"' in text


def test_sim_remote_takes_the_same_seat_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--remote", "mqtt://127.0.0.1", "--side", "black"]) == 2
    assert capsys.readouterr().err == (
        "bgpi sim: --remote needs the match code: --match CODE or [remote] match\n"
    )


def test_a_demo_for_a_club_needs_a_broker_before_it_plays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "bgpi.toml"
    config.write_text("")
    assert main(["demo", "--config", str(config), "--length", "1", "--club", "x"]) == 2
    assert capsys.readouterr() == (
        "",
        "bgpi demo: no broker: give --remote/--broker URL or set [remote] broker\n",
    )
    config.write_text('[remote]\nbroker = "mqtt://127.0.0.1:1"\n')
    assert main(["demo", "--config", str(config), "--length", "1", "--club", "a/b"]) == 2
    assert "club name 'a/b': 1 to 64 characters" in capsys.readouterr().err
