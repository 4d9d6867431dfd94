"""A match analysed by gnubg: the ratings gnubg itself prints, stored with the match so they
are not computed twice, printed by ``bgpi analyse``."""

from __future__ import annotations

import re
import sqlite3
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

from bgpi import engine as engine_package
from bgpi.cli import main
from bgpi.engine import GnubgEngine, Level, MatchAnalysis
from bgpi.engine.analysis import AnalysisStore, analysed, from_json, to_json
from bgpi.journal import schema
from bgpi.journal.export import export_mat
from bgpi.journal.records import GameEnded, MatchStarted, Record
from bgpi.journal.store import Journal
from bgpi.sim.demo import play_match
from tests.engine.conftest import needs_gnubg
from tests.engine.samples import SAMPLE


def journal_with_a_match(path: Path, length: int = 3, seed: int = 5) -> list[Record]:
    with Journal.open(path) as journal:
        play_match(MatchStarted(length), seed=seed, say=lambda _: None, journal=journal)
        return journal.records()


def gnubg_statistics(records: Sequence[Record], tmp_path: Path) -> str:
    mat = tmp_path / "gnubg-own.mat"
    mat.write_text(export_mat(records), encoding="utf-8")
    commands = [
        f"import mat {mat}",
        "set analysis chequerplay evaluation plies 0",
        "set analysis cubedecision evaluation plies 0",
        "set analysis chequerplay evaluation prune off",
        "set analysis cubedecision evaluation prune off",
        "analyse match",
        "show statistics match",
    ]
    return subprocess.run(
        ["/usr/games/gnubg", "-t", "-q", "-r"],
        input="\n".join(commands) + "\n",
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    ).stdout


def words(text: str, label: str) -> list[str]:
    line = next(line for line in text.splitlines() if line.startswith(label))
    return re.split(r"\s{2,}", line[len(label) :].strip())


@needs_gnubg
def test_the_ratings_are_gnubgs_own(tmp_path: Path) -> None:
    records = journal_with_a_match(tmp_path / "journal.sqlite")
    engine = GnubgEngine(analysis_level=Level.EXPERT)
    try:
        analysis = engine.analyse(records)
    finally:
        engine.close()
    stats = gnubg_statistics(records, tmp_path)
    white, black = analysis.match
    assert [white.rating, black.rating] == words(stats, "Overall rating")
    assert [white.luck_rating, black.luck_rating] == words(stats, "Luck rating")
    assert (white.name, black.name) == ("White", "Black")
    games = sum(isinstance(r, GameEnded) for r in records)
    assert len(analysis.games) == games
    assert analysis.engine == "gnubg expert"


class Counting:
    """An engine's analysis, counted."""

    def __init__(self, analysis: MatchAnalysis) -> None:
        self.analysis, self.calls = analysis, 0
        self.name = "counting"

    def analyse(self, records: Sequence[Record]) -> MatchAnalysis:
        self.calls += 1
        return self.analysis

    def close(self) -> None:
        pass


def test_an_analysis_is_stored_and_not_computed_twice(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    records = journal_with_a_match(path)
    engine = Counting(SAMPLE)
    store = AnalysisStore(path)
    first = analysed(store, 1, records, engine)  # type: ignore[arg-type]
    again = analysed(AnalysisStore(path), 1, records, engine)  # type: ignore[arg-type]
    assert (first, again) == ((SAMPLE, True), (SAMPLE, False))
    assert engine.calls == 1
    # More records (the match went on): analysed again.
    analysed(store, 1, records[:-1], engine)  # type: ignore[arg-type]
    assert engine.calls == 2
    assert from_json(to_json(SAMPLE)) == SAMPLE
    with Journal.open(path) as journal:  # the journal still opens and reads as before
        assert journal.records() == records


@needs_gnubg
def test_bgpi_analyse_prints_the_match_and_then_the_stored_analysis(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal_with_a_match(tmp_path / "journal.sqlite")
    assert main(["analyse", "--state-dir", str(tmp_path)]) == 0
    first = capsys.readouterr().out.splitlines()
    assert first[:2] == ["match 1", "analysed by gnubg expert"]
    assert first[-3] == "match:"
    assert first[-2].startswith("  White: error rate ")
    assert main(["analyse", "--state-dir", str(tmp_path), "--match", "1"]) == 0
    again = capsys.readouterr().out.splitlines()
    assert again == ["match 1 (stored analysis)", *first[1:]]


def test_bgpi_analyse_without_gnubg_or_journal_says_so_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["analyse", "--state-dir", str(tmp_path)]) == 1
    assert capsys.readouterr().err == (
        f"bgpi analyse: no journal at {tmp_path}/journal.sqlite: nothing has been played there\n"
    )
    journal_with_a_match(tmp_path / "journal.sqlite", length=1)
    monkeypatch.setattr(engine_package.process, "GNUBG", "/nonexistent/gnubg")
    monkeypatch.setenv("PATH", "/nonexistent")
    assert main(["analyse", "--state-dir", str(tmp_path)]) == 1
    assert capsys.readouterr().err == (
        "bgpi analyse: GNU Backgammon is not installed (no /nonexistent/gnubg): "
        "install it with `sudo apt-get install gnubg`\n"
    )


def test_the_shell_has_each_ended_game_analysed_on_its_own_thread(tmp_path: Path) -> None:
    from bgpi.engine.analysis import Analyst  # noqa: PLC0415
    from bgpi.service.app import App  # noqa: PLC0415
    from bgpi.service.config import parse  # noqa: PLC0415

    path = tmp_path / "journal.sqlite"
    records = journal_with_a_match(path)
    engine = Counting(SAMPLE)
    app = App(parse({}), tmp_path)
    app.analyst = Analyst(AnalysisStore(path), engine, say=print)  # type: ignore[arg-type]

    class Driver:  # what the loop's hook reads: the match's records so far
        def __init__(self) -> None:
            self.log: list[Record] = []

    driver = Driver()
    with Journal.open(path) as journal:
        for count in range(1, len(records) + 1):
            driver.log = records[:count]
            app._after_a_game(driver, journal)  # type: ignore[arg-type]
    app.analyst.close()
    games = sum(isinstance(r, GameEnded) for r in records)
    assert engine.calls == games  # once per game ended, never for a step without one
    assert app.analyst.done[-1] == (1, len(records))
    assert AnalysisStore(path).get(1, len(records), "counting") == SAMPLE


# -- journals of schema version 1, whose analyses were this module's own table ---------------

# The table as bgpi made it in a version 1 journal, on the first analysis stored.
V1_ANALYSES = """CREATE TABLE IF NOT EXISTS analyses (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    records INTEGER NOT NULL,
    engine TEXT NOT NULL,
    at REAL NOT NULL,
    analysis TEXT NOT NULL,
    PRIMARY KEY (match_id, records, engine)
)"""


def v1_journal(path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Record]:
    """A journal written by a bgpi of schema version 1, with a match in it."""
    with monkeypatch.context() as patch:
        patch.setattr(schema, "MIGRATIONS", schema.MIGRATIONS[:1])
        return journal_with_a_match(path)


def user_version(path: Path) -> int:
    db = sqlite3.connect(path)
    try:
        return int(db.execute("PRAGMA user_version").fetchone()[0])
    finally:
        db.close()


def test_a_v1_journal_keeps_the_analysis_its_own_table_held(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "journal.sqlite"
    records = v1_journal(path, monkeypatch)
    db = sqlite3.connect(path)  # as the old AnalysisStore stored an analysis
    with db:
        db.execute(V1_ANALYSES)
        db.execute(
            "INSERT OR REPLACE INTO analyses VALUES (?, ?, ?, ?, ?)",
            (1, len(records), "counting", 1.0, to_json(SAMPLE)),
        )
    db.close()
    engine = Counting(SAMPLE)
    assert user_version(path) == 1
    # Read before any writer opened it (bgpi analyse opens the journal read-only): found.
    assert analysed(AnalysisStore(path), 1, records, engine) == (SAMPLE, False)  # type: ignore[arg-type]
    with Journal.open(path) as journal:  # a writer brings it up to date
        assert journal.records() == records
    assert user_version(path) == schema.schema_version()
    assert analysed(AnalysisStore(path), 1, records, engine) == (SAMPLE, False)  # type: ignore[arg-type]
    assert engine.calls == 0  # never computed again


def test_a_v1_journal_without_analyses_gets_the_table_with_the_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "journal.sqlite"
    records = v1_journal(path, monkeypatch)
    kept = AnalysisStore(path)
    assert kept.latest(1) is None and user_version(path) == 1  # a read changes nothing
    engine = Counting(SAMPLE)
    assert analysed(kept, 1, records, engine) == (SAMPLE, True)  # type: ignore[arg-type]
    assert user_version(path) == schema.schema_version()  # storing it brought it up to date
    assert analysed(AnalysisStore(path), 1, records, engine) == (SAMPLE, False)  # type: ignore[arg-type]
    assert engine.calls == 1
    with Journal.open(path, read_only=True) as journal:
        assert journal.records() == records


def test_average_luck_is_said_in_words_not_as_gnubgs_none() -> None:
    from bgpi.engine.analysis import report  # noqa: PLC0415
    from bgpi.engine.api import GameAnalysis, PlayerRating  # noqa: PLC0415

    def rated(name: str, luck_rating: str) -> PlayerRating:
        return PlayerRating(name, 20, 30.0, 2, 0.0, 4.2, "Expert", 27.6, luck_rating)

    players = (rated("White", "None"), rated("Black", "Good dice, man!"))
    lines = report(MatchAnalysis("gnubg expert", (GameAnalysis(1, (0, 0), players),), players))
    assert lines[2].endswith("luck +27.6 per move (Average dice)")
    assert lines[3].endswith("luck +27.6 per move (Good dice, man!)")
    assert not any("(None)" in line for line in lines)
