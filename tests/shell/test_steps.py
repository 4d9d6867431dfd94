"""A decision is one transaction: a writer killed at every statement of every kind of
multi-record step leaves the step whole or absent, never half, and the match resumes from
there to exactly the end an uninterrupted one reaches."""

from __future__ import annotations

import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from bgpi.base.geometry import Geometry
from bgpi.journal.records import (
    CubeAction,
    GameEnded,
    MatchStarted,
    OpeningRolled,
    Played,
    Record,
    ResignAnswered,
    to_json,
)
from bgpi.journal.store import Journal
from bgpi.sensing.board import capacities
from bgpi.service.driver import MemoryJournal
from bgpi.service.resume import complete
from bgpi.sim.demo import play_match
from bgpi.table import TableConfig
from tests.shell.presses import moves_on

ROOT = Path(__file__).resolve().parents[2]
# A 3-point demo match with a drop, a winning play and an accepted resignation in it.
SEED, START = 17, MatchStarted(3)
CONFIG = TableConfig(capacities(Geometry.default()))

# Appends one step's records (JSON lines on stdin) and SIGKILLs itself as SQLite begins its
# statement number argv[2] of that step: between the records, inside one, or before COMMIT.
WRITER = """
import os, signal, sys
from bgpi.journal.records import from_json
from bgpi.journal.store import Journal

records = [from_json(line) for line in sys.stdin.read().splitlines()]
statements = 0

def count(statement):
    global statements
    statements += 1
    if statements == int(sys.argv[2]):
        os.kill(os.getpid(), signal.SIGKILL)

with Journal.open(sys.argv[1]) as journal:
    journal._db.set_trace_callback(count)
    journal.append_all(records)
print(statements)
"""


@cache
def reference() -> tuple[Record, ...]:
    sim = play_match(START, seed=SEED, say=lambda _: None)
    return tuple(sim.driver.log)


def steps() -> dict[str, tuple[int, int]]:
    """One step of each multi-record kind in the reference: (start, end) indices."""
    records, found = reference(), {}
    for end, record in enumerate(records):
        before = records[end - 1]
        if isinstance(record, OpeningRolled):
            found.setdefault("opening dice", (end - 1, end + 1))
        elif isinstance(record, GameEnded) and isinstance(before, Played):
            found.setdefault("winning play", (end - 1, end + 1))
        elif isinstance(record, GameEnded) and isinstance(before, CubeAction):
            found.setdefault("drop", (end - 1, end + 1))
        elif isinstance(record, GameEnded) and isinstance(before, ResignAnswered):
            found.setdefault("accepted resignation", (end - 1, end + 1))
    return found


def write(path: Path, kill_at: int, records: list[Record]) -> bool:
    """Run the writer; True if it was killed before it finished."""
    result = subprocess.run(
        [sys.executable, "-c", WRITER, str(path), str(kill_at)],
        input="\n".join(map(to_json, records)),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert result.returncode in (0, -9), result.stderr
    return result.returncode == -9


@pytest.mark.parametrize("kind", ["opening dice", "winning play", "drop", "accepted resignation"])
def test_a_step_killed_at_any_statement_is_whole_or_absent(tmp_path: Path, kind: str) -> None:
    start, end = steps()[kind]
    records = list(reference())
    before, step = records[:start], records[start:end]
    kills = 0
    for kill_at in range(1, 50):
        path = tmp_path / f"{kill_at}.sqlite"
        with Journal.open(path) as journal:
            journal.append_all(before)
        killed = write(path, kill_at, step)
        with Journal.open(path) as journal:
            found = journal.records()
        assert found in (before, before + step), f"killed at statement {kill_at}"
        assert found == before + step or killed
        table, resumed = complete(CONFIG, found, MemoryJournal())
        assert resumed == found  # nothing half done for the resume to finish
        assert moves_on(table)
        if not killed:
            break
        kills += 1
    assert kills >= 2 * len(step) + 1  # BEGIN, each record's statements, COMMIT
    # The last cut (at COMMIT) resumes and plays on to the uninterrupted match's end.
    with Journal.open(tmp_path / f"{kills}.sqlite") as journal:
        sim = play_match(journal.records(), seed=SEED, say=lambda _: None, journal=journal)
        assert journal.records() == records
    assert sim.table.match.match_over


def test_a_new_match_killed_between_its_two_rows_is_absent(tmp_path: Path) -> None:
    records = list(reference())
    for kill_at in (1, 2, 3, 4):
        path = tmp_path / f"{kill_at}.sqlite"
        with Journal.open(path) as journal:
            journal.append_all(records)
        assert write(path, kill_at, [MatchStarted(5)])
        with Journal.open(path) as journal:
            assert len(journal.matches()) == 1
            assert journal.records() == records
