"""The simulated hands of ``bgpi run --self-play`` press each button once per action: they
act only once the service's loop has taken every event of their last action, so no ROLL of
theirs lands on the roll it made (the log said "... ROLL does nothing: the play is not
complete" some 240 times in a five-point match before)."""

from __future__ import annotations

import random
from pathlib import Path

from bgpi.journal.records import Played
from tests.shell.cuts import journal_of, run_once, write_config


def test_self_play_hands_never_press_a_roll_the_table_refuses(tmp_path: Path) -> None:
    config = write_config(tmp_path / "bgpi.toml", 1)
    outcome, stderr = run_once(tmp_path / "state", config, 3, None, random.Random(0))
    assert outcome == "ended", f"{outcome}: {stderr}"
    records, finished = journal_of(tmp_path / "state")
    assert finished and sum(isinstance(r, Played) for r in records) > 10
    assert "does nothing" not in stderr, stderr
