"""``bgpi demo --takebacks``: the built-in player now and then takes back a play by
agreement. The SQLite journal keeps the play and the takeback, a power cut while asking or
while the checkers go back resumes to the very journal an uninterrupted match makes, and
the ``.mat`` holds only the plays that stood: GNU Backgammon imports it (Debian's gnubg
and its Python module) with every play and the score as the journal has them, and the
``--times`` comments on the takebacks change nothing it reads."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from bgpi.cli import main
from bgpi.journal.records import (
    CubeAction,
    GameEnded,
    MatchStarted,
    Played,
    Record,
    Rolled,
    TakebackRefused,
    TakenBack,
)
from bgpi.journal.store import Journal
from tests.engine.conftest import needs_gnubg
from tests.engine.gnubg_cli import imported_score
from tests.shell.test_export import (
    _side,
    gnubg,
    gnubg_actions,
    gnubg_final_score,
    gnubg_import,
)

SEED = "3"  # a 3-point match with takebacks agreed and refused
DEMO = ["demo", "--length", "3", "--seed", SEED, "--takebacks", "0.2"]


@pytest.fixture
def gnubg_quiet() -> None:
    """gnubg's module as other tests left it: both players entered by hand (so it never
    plays on its own) and no question before a match in progress is replaced."""
    for command in ("set player 0 human", "set player 1 human", "set confirm new off"):
        gnubg.command(command)


def demo(state: Path) -> list[Record]:
    assert main([*DEMO, "--state-dir", str(state)]) == 0
    with Journal.open(state / "journal.sqlite", read_only=True) as journal:
        return journal.records()


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Record]]:
    state = tmp_path_factory.mktemp("demo") / "state"
    return state, demo(state)


def standing(records: Sequence[Record]) -> list[tuple[int, tuple[tuple[int, int], ...]]]:
    """Each play that stood (not taken back): its player and moves (from, to)."""
    plays: list[tuple[int, tuple[tuple[int, int], ...]]] = []
    for record in records:
        if isinstance(record, Played):
            plays.append((record.player, _pairs(record.moves)))
        elif isinstance(record, TakenBack):
            assert plays.pop() == (record.player, _pairs(record.moves))
    return plays


def _pairs(moves: Sequence[tuple[int, int, int, bool]]) -> tuple[tuple[int, int], ...]:
    """The moves (from, to), in the order gnubg lists them."""
    return tuple(sorted(((src, dst) for src, dst, _die, _hit in moves), reverse=True))


def test_the_journal_keeps_each_play_taken_back_and_the_takeback(
    played: tuple[Path, list[Record]],
) -> None:
    _state, records = played
    taken = [n for n, record in enumerate(records) if isinstance(record, TakenBack)]
    assert len(taken) >= 3
    for n in taken:
        before, takeback, after = records[n - 1 : n + 2]
        assert isinstance(before, Played) and isinstance(takeback, TakenBack)
        assert (takeback.player, takeback.moves) == (before.player, before.moves)
        assert isinstance(after, Played) and after.player == before.player  # the same dice
    assert not any(isinstance(records[n - 1], Rolled) for n in taken)


def test_the_journal_keeps_each_refusal_after_the_play_that_stood(
    played: tuple[Path, list[Record]],
) -> None:
    _state, records = played
    refused = [n for n, record in enumerate(records) if isinstance(record, TakebackRefused)]
    assert refused
    for n in refused:
        before, refusal, after = records[n - 1 : n + 2]
        assert isinstance(before, Played) and isinstance(refusal, TakebackRefused)
        assert (refusal.player, refusal.moves) == (before.player, before.moves)
        # The play stood: the opponent rolls or doubles next.
        assert isinstance(after, Rolled | CubeAction) and after.player == before.player.other


def test_a_power_cut_while_asking_or_taking_back_resumes_to_the_same_journal(
    tmp_path: Path, played: tuple[Path, list[Record]]
) -> None:
    """Cut right after the play that is then taken back (the asking is not journaled: the
    player asks again), right after the takeback (the hands put the checkers back), and
    around a refusal (asked again and refused again; once journaled, the play stands)."""
    _state, whole = played
    first = next(n for n, record in enumerate(whole) if isinstance(record, TakenBack))
    refused = next(n for n, record in enumerate(whole) if isinstance(record, TakebackRefused))
    for cut in (first, first + 1, refused, refused + 1):
        state = tmp_path / f"cut{cut}"
        state.mkdir()
        first_record = whole[0]
        assert isinstance(first_record, MatchStarted)
        with Journal.open(state / "journal.sqlite") as journal:
            journal.new_match(first_record)
            for record in whole[1:cut]:
                journal.append(record)
        assert demo(state) == whole


@needs_gnubg
def test_gnubg_imports_only_the_plays_that_stood_with_the_same_score(
    gnubg_quiet: None, tmp_path: Path, played: tuple[Path, list[Record]]
) -> None:
    state, records = played
    mat = tmp_path / "takebacks.mat"
    assert main(["export", "--state-dir", str(state), "-o", str(mat)]) == 0
    text = mat.read_text(encoding="utf-8")
    assert "took back" not in text
    score = [0, 0]
    for record in records:
        if isinstance(record, GameEnded):
            score[record.winner] += record.points
    imported = imported_score(mat)  # Debian's gnubg, /usr/games/gnubg
    assert f"is: White {score[0]}, Black {score[1]} (match to 3 points" in imported
    start = records[0]
    assert isinstance(start, MatchStarted)
    match = gnubg_import(text, tmp_path, start)
    assert gnubg_plays(match) == [(_side(p), moves) for p, moves in standing(records)]
    assert gnubg_final_score(match) == (score[0], score[1])


@needs_gnubg
def test_the_times_say_each_takeback_in_comments_gnubg_ignores(
    gnubg_quiet: None, tmp_path: Path, played: tuple[Path, list[Record]]
) -> None:
    """With the times, a comment at the top says each takeback (gnubg keeps them as the
    match's comment): without them gnubg reads the very same match."""
    state, records = played
    timed = tmp_path / "timed.mat"
    assert main(["export", "--state-dir", str(state), "--times", "-o", str(timed)]) == 0
    lines = timed.read_text(encoding="utf-8").splitlines()
    notes = [n for n, line in enumerate(lines) if "took back" in line]
    taken = [record for record in records if isinstance(record, TakenBack)]
    assert len(notes) == len(taken)
    assert max(notes) < lines.index(" 3 point match")  # at the top, before the match
    assert lines[notes[0]].startswith("; Game 1, line ")
    assert all(lines[n].startswith("; ") and lines[n].endswith(", as agreed") for n in notes)
    start = records[0]
    assert isinstance(start, MatchStarted)
    with_notes = gnubg_import("\n".join(lines) + "\n", tmp_path, start)
    kept = [line for n, line in enumerate(lines) if n not in notes]
    without = gnubg_import("\n".join(kept) + "\n", tmp_path, start)
    assert gnubg_actions(with_notes) == gnubg_actions(without)
    assert "took back" in with_notes["match-info"]["comment"]


def gnubg_plays(match: dict[str, Any]) -> list[tuple[str, tuple[tuple[int, int], ...]]]:
    """Every play gnubg read, in order: its side and its moves (from, to) as written."""
    return [
        (action[1], tuple(action[3]))
        for game in gnubg_actions(match)
        for action in game
        if action[0] == "move"
    ]
