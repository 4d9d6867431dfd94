"""``[seats] takeback_wait_s``: how long the computer waits after a person's play before it
rolls or doubles, bounded and checked against the held press that asks, and carried to the
table by every command that builds one (``bgpi run``, ``bgpi sim``, ``bgpi demo``; the
commands that replay a journal read it the same way)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bgpi.cli import main
from bgpi.journal.records import Played, TakenBack
from bgpi.journal.store import Journal
from bgpi.service.app import table_config
from bgpi.service.config import ConfigError, load, parse
from bgpi.table.phases import TAKEBACK_WAIT
from bgpi.web.run import new_session
from tests.engine.conftest import needs_gnubg

REPO = Path(__file__).resolve().parents[2]


def test_the_wait_is_two_seconds_unless_the_config_says_otherwise() -> None:
    assert parse({}).seats.takeback_wait_s == TAKEBACK_WAIT == 2.0
    assert table_config(parse({})).takeback_wait == TAKEBACK_WAIT
    for given in (0, 0.8, 5, 60):
        config = parse({"seats": {"takeback_wait_s": given}})
        assert table_config(config).takeback_wait == float(given)  # bgpi run, status, export


def test_bgpi_sim_builds_its_table_with_the_configs_wait() -> None:
    session = new_session(parse({"seats": {"takeback_wait_s": 7}}), seed=1)
    try:
        assert session.sim.table.config.takeback_wait == 7.0
    finally:
        session.close()


@pytest.mark.parametrize(
    ("value", "why"),
    [
        (-1, "expected 0 to 60"),
        (61, "expected 0 to 60"),
        ("2", "expected float"),
        (True, "expected float"),
        (0.5, "shorter than buttons.long_press_ms (800 ms)"),
        (0.79, "a held ROLL could ask for a takeback"),
    ],
)
def test_a_wrong_wait_is_refused_naming_the_key(value: object, why: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse({"seats": {"takeback_wait_s": value}}, "bgpi.toml")
    assert caught.value.key == "seats.takeback_wait_s"
    assert why in caught.value.why
    assert "seats.takeback_wait_s" in str(caught.value)


def test_a_wait_as_long_as_a_shorter_held_press_is_enough() -> None:
    """The wait is checked against the config's own long press, not the default one."""
    config = parse({"seats": {"takeback_wait_s": 0.5}, "buttons": {"long_press_ms": 400}})
    assert table_config(config).takeback_wait == 0.5
    assert table_config(config).long_press == 0.4


def test_the_pis_config_shows_the_key_in_a_commented_example_that_loads(tmp_path: Path) -> None:
    """systemd/config.toml's commented [seats] example, uncommented, is a config bgpi loads."""
    text = (REPO / "systemd" / "config.toml").read_text()
    lines = text.splitlines()
    start = lines.index("#     [seats]")
    example = []
    for line in lines[start:]:
        if not line.startswith("#     "):
            break
        example.append(line.removeprefix("#     "))
    assert any(re.match(r"takeback_wait_s = \d", line) for line in example)
    path = tmp_path / "config.toml"
    path.write_text(text + "\n" + "\n".join(example) + "\n")
    assert load(path).seats.takeback_wait_s == 2.0


def _takebacks(tmp_path: Path, wait: float | None) -> list[object]:
    """The records of ``bgpi demo`` against gnubg whose built-in player asks to take back
    every play it can, with ``wait`` in the config (None: the default)."""
    tmp_path.mkdir()
    config = tmp_path / "bgpi.toml"
    config.write_text("" if wait is None else f"[seats]\ntakeback_wait_s = {wait}\n")
    state = tmp_path / "state"
    args = ["demo", "--config", str(config), "--length", "1", "--seed", "4"]
    assert main([*args, "--black", "gnubg", "--takebacks", "1", "--state-dir", str(state)]) == 0
    with Journal.open(state / "journal.sqlite", read_only=True) as journal:
        return list(journal.records())


@needs_gnubg
def test_bgpi_demo_lets_the_computer_wait_as_the_config_says(tmp_path: Path) -> None:
    """Against gnubg the built-in player (a person's hands) asks back every play it may:
    with the default wait it takes plays back; with the wait off (0) the computer rolls at
    once after each play, so nothing is ever taken back."""
    waited = _takebacks(tmp_path / "default", None)
    assert any(isinstance(record, TakenBack) for record in waited)
    at_once = _takebacks(tmp_path / "zero", 0)
    assert any(isinstance(record, Played) for record in at_once)
    assert not any(isinstance(record, TakenBack) for record in at_once)
