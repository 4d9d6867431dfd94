"""``bgpi demo --dice godice``: the simulated hands throw a simulated GoDice pair (the real
notification bytes through the ``godice`` library's own code and the real link); a die that
lands cocked forces a re-roll the output and the journal show; the .mat gnubg imports has
the score printed, the re-rolls nowhere in it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bgpi.cli import main
from bgpi.journal.records import DiceSource, OpeningDie, Rethrown, Rolled, Unfit
from bgpi.journal.store import JOURNAL_NAME, Journal
from tests.engine.conftest import needs_gnubg
from tests.engine.gnubg_cli import imported_score


@needs_gnubg
def test_a_demo_of_godice_exports_a_match_gnubg_imports_with_the_printed_score(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state"
    args = ["--state-dir", str(state), "--seed", "3", "--length", "3", "--dice", "godice"]
    assert main(["demo", *args]) == 0
    out = capsys.readouterr().out
    final = out.strip().splitlines()[-1]
    assert final.startswith("final score: White ")
    with Journal.open(state / JOURNAL_NAME) as journal:
        records = journal.records()
    rolls = [r for r in records if isinstance(r, Rolled | OpeningDie)]
    assert rolls and {roll.source for roll in rolls} == {DiceSource.GODICE}
    # Seed 3 has a cocked die: thrown again, in the journal and in what the demo printed.
    again = [r for r in records if isinstance(r, Rethrown)]
    assert again and again[0].why is Unfit.COCKED
    name = ("White", "Black")[again[0].player]
    assert f"  {name}'s die {again[0].die} came to rest cocked: roll again\n" in out
    mat = tmp_path / "m.mat"
    assert main(["export", "--state-dir", str(state), "-o", str(mat)]) == 0
    assert "again" not in mat.read_text() and "rethrow" not in mat.read_text()
    white, black = (int(part.split()[-1]) for part in final.split(":")[1].split(","))
    assert f"is: White {white}, Black {black} (match to 3 points" in imported_score(mat)


def test_a_demo_of_godice_refuses_when_no_hands_are_at_the_board(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["--seed", "3", "--white", "gnubg", "--black", "gnubg", "--dice", "godice"]
    assert main(["demo", *args]) == 2
    assert "Nobody sits at this board to throw dice by hand" in capsys.readouterr().err
