"""``bgpi demo --clock usbgf``: a clocked match on simulated time, whose journal ``bgpi
status`` reads with the clock and ``bgpi export`` writes with the clock's header line."""

from __future__ import annotations

from pathlib import Path

from bgpi.journal.records import Clocked
from bgpi.journal.store import Journal
from tests.shell.test_cli import bgpi


def test_a_clocked_demo_is_journaled_with_its_clock_and_shown_by_status_and_export(
    tmp_path: Path,
) -> None:
    bgpi("demo", "--clock", "usbgf", "--seed", "3", "--length", "3", "--state-dir", tmp_path)
    with Journal.open(tmp_path / "journal.sqlite", read_only=True) as journal:
        records = journal.records()
    clocks = [r for r in records if isinstance(r, Clocked)]
    assert clocks and clocks[-1].running is None  # stopped when the match ended
    status = bgpi("status", "--state-dir", tmp_path).stdout.splitlines()
    white, black = (f"{int(left) // 60}:{int(left) % 60:02d}" for left in clocks[-1].reserve)
    assert f"clock: White {white}, Black {black}" in status
    assert white != "6:00"  # the demo's hands thought longer than the delay now and then
    mat = bgpi("export", "--state-dir", tmp_path).stdout
    assert '; [Clock "usbgf, 12 s a move"]\n' in mat


def test_money_play_has_no_clock(tmp_path: Path) -> None:
    bgpi("demo", "--clock", "usbgf", "--money", "--games", "1", "--state-dir", tmp_path)
    with Journal.open(tmp_path / "journal.sqlite", read_only=True) as journal:
        records = journal.records()
    assert not any(isinstance(r, Clocked) for r in records)


def test_a_clock_the_config_cannot_have_is_refused_with_status_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[clock]\nmode = "hourglass"\n', encoding="utf-8")
    result = bgpi("config", "check", "--config", bad, check=False)
    assert result.returncode == 2
    assert f"{bad}: clock.mode: is 'hourglass', expected one of ('off', 'usbgf'" in result.stderr
