"""``bgpi demo --white SEAT --black SEAT``: gnubg plays through the simulated hands, and the
journal exports to a .mat that gnubg imports."""

from __future__ import annotations

from pathlib import Path

import pytest

from bgpi import engine
from bgpi.cli import main
from tests.engine.conftest import needs_gnubg
from tests.engine.gnubg_cli import imported_score


@needs_gnubg
def test_gnubg_against_gnubg_plays_a_match_that_gnubg_imports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state"
    args = ["--state-dir", str(state), "--seed", "3", "--length", "3"]
    assert main(["demo", "--white", "gnubg", "--black", "gnubg:beginner", *args]) == 0
    final = capsys.readouterr().out.strip().splitlines()[-1]
    assert final.startswith("final score: White ")
    mat = tmp_path / "m.mat"
    assert main(["export", "--state-dir", str(state), "-o", str(mat)]) == 0
    out = imported_score(mat)
    white, black = (int(part.split()[-1]) for part in final.split(":")[1].split(","))
    assert f"is: White {white}, Black {black} (match to 3 points" in out


def test_without_gnubg_the_built_in_player_plays_and_says_why(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(engine.process, "GNUBG", "/nonexistent/gnubg")
    monkeypatch.setenv("PATH", "/nonexistent")
    assert main(["demo", "--white", "gnubg:expert", "--seed", "2", "--length", "1"]) == 0
    captured = capsys.readouterr()
    assert captured.err == (
        "bgpi demo: GNU Backgammon is not installed (no /nonexistent/gnubg): install it with "
        "`sudo apt-get install gnubg`; the built-in player plays this seat\n"
    )
    assert "final score: White" in captured.out


@pytest.mark.parametrize(
    ("seat", "error"),
    [
        ("person", "the demo has no hands for a person"),
        ("gnubg:godlike", "unknown gnubg level 'godlike'"),
        ("robot", "is not person, demo, gnubg or gnubg:LEVEL"),
    ],
)
def test_a_seat_that_cannot_play_is_a_usage_error(
    seat: str, error: str, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        code = main(["demo", "--black", seat, "--length", "1"])
    except SystemExit as exc:  # argparse refuses before main's body runs
        code = int(str(exc.code))
    assert code == 2
    assert error in capsys.readouterr().err


def test_a_resumed_demo_keeps_its_seats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--state-dir", str(tmp_path), "--seed", "3", "--length", "25", "--games", "1"]
    assert main(["demo", "--white", "demo", "--black", "demo", *args]) == 0
    capsys.readouterr()
    with_engine = ["demo", "--black", "gnubg:expert", "--state-dir", str(tmp_path)]
    assert main(with_engine) == 1
    assert capsys.readouterr().err == (
        "bgpi demo: the match resumed seats person and person, not person and engine: "
        "give --white and --black as when it began\n"
    )
