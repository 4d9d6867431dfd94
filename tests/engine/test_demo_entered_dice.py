"""``bgpi demo --dice entered``: the simulated hands throw dice of their own (from the seed)
and enter them with the buttons; the journal keeps each roll's source and exports a .mat that
gnubg imports with the score printed."""

from __future__ import annotations

from pathlib import Path

import pytest

from bgpi.cli import main
from bgpi.journal.records import DiceSource, OpeningDie, Rolled
from bgpi.journal.store import JOURNAL_NAME, Journal
from tests.engine.conftest import needs_gnubg
from tests.engine.gnubg_cli import imported_score


@needs_gnubg
def test_a_demo_of_entered_dice_exports_a_match_gnubg_imports_with_the_printed_score(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state"
    args = ["--state-dir", str(state), "--seed", "3", "--length", "3", "--dice", "entered"]
    assert main(["demo", *args]) == 0
    final = capsys.readouterr().out.strip().splitlines()[-1]
    assert final.startswith("final score: White ")
    with Journal.open(state / JOURNAL_NAME) as journal:
        rolls = [r for r in journal.records() if isinstance(r, Rolled | OpeningDie)]
    assert rolls and {roll.source for roll in rolls} == {DiceSource.ENTERED}
    mat = tmp_path / "m.mat"
    assert main(["export", "--state-dir", str(state), "-o", str(mat)]) == 0
    out = imported_score(mat)
    white, black = (int(part.split()[-1]) for part in final.split(":")[1].split(","))
    assert f"is: White {white}, Black {black} (match to 3 points" in out
