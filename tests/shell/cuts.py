"""Power cuts to the service itself: ``bgpi run --self-play`` SIGKILLed again and again and
restarted each time, its journal compared with an uninterrupted run's.

Each cut is placed by the match's progress: the service prints each record as it journals
it, and the harness kills it once it has printed a chosen number of them, plus a random
instant more. A restart that prints nothing for :data:`WEDGED` seconds is a wedged resume.
Shared by ``tests/shell/test_service_cuts.py`` and the larger campaign,
``scripts/power_cuts.py``.
"""

from __future__ import annotations

import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from bgpi.journal.records import Record
from bgpi.journal.store import JOURNAL_NAME, Journal
from bgpi.service.app import table_config
from bgpi.service.config import Config
from bgpi.table import Table

WEDGED = 60.0  # seconds without a record: the resumed service is stuck
ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Tally:
    """What a campaign saw."""

    kills: int = 0
    mid_match: int = 0  # kills that left an unfinished match
    matches: int = 0
    lost: int = 0  # records a restarted service no longer had
    diverged: int = 0  # journals that differ from the uninterrupted run's
    wedged: int = 0
    tracebacks: int = 0
    problems: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return (
            f"kills {self.kills} ({self.mid_match} mid-match), matches {self.matches}, "
            f"records lost {self.lost}, diverged {self.diverged}, wedged resumes "
            f"{self.wedged}, tracebacks {self.tracebacks}"
        )


def write_config(path: Path, length: int) -> Path:
    path.write_text(f"[rules]\nlength = {length}\n\n[web]\nenabled = false\n", encoding="utf-8")
    return path


def service(state_dir: Path, config: Path, seed: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bgpi",
            "run",
            *("--self-play", "--seed", str(seed), "--matches", "1"),
            *("--state-dir", str(state_dir), "--config", str(config)),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


def journal_of(state_dir: Path) -> tuple[list[Record], bool]:
    path = state_dir / JOURNAL_NAME
    if not path.exists():
        return [], False
    with Journal.open(path, read_only=True) as journal:
        matches = journal.matches()
        return (journal.records(), matches[-1].finished) if matches else ([], False)


def _lines(process: subprocess.Popen[str]) -> queue.Queue[str | None]:
    """The process's stdout lines as they come; None at its end."""
    lines: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    return lines


def run_once(
    state_dir: Path, config: Path, seed: int, cut_after: int | None, rng: random.Random
) -> tuple[str, str]:
    """Run the service until it has printed ``cut_after`` records (then SIGKILL it at a
    random instant within 50 ms) or to its end. ("cut" | "ended" | "wedged", its stderr)."""
    process = service(state_dir, config, seed)
    lines, records, outcome = _lines(process), 0, "ended"
    try:
        while True:
            try:
                line = lines.get(timeout=WEDGED)
            except queue.Empty:
                outcome = "wedged"
                break
            if line is None:
                break
            records += not line.startswith("bgpi run:")
            if cut_after is not None and records >= cut_after:
                time.sleep(rng.uniform(0, 0.05))
                outcome = "cut"
                break
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
        process.wait(timeout=60)
        assert process.stderr is not None
        stderr = process.stderr.read()
        process.stderr.close()
    if outcome == "ended" and process.returncode != 0:
        outcome = f"failed with status {process.returncode}"
    return outcome, stderr


def reference(work: Path, length: int, seed: int) -> list[Record]:
    """The journal of an uninterrupted self-play match."""
    state_dir = work / f"reference-{seed}"
    config = write_config(work / "bgpi.toml", length)
    outcome, stderr = run_once(state_dir, config, seed, None, random.Random(0))
    assert outcome == "ended", f"{outcome}: {stderr}"
    records, finished = journal_of(state_dir)
    assert finished, "the uninterrupted run did not finish its match"
    return records


def campaign(
    work: Path, *, length: int, seed: int, rng: random.Random, tally: Tally, most: int = 40
) -> None:
    """Cut one self-play match, each time after 3 to ``most`` records, until it finishes;
    add what was seen to ``tally``."""
    expected = reference(work, length, seed)
    state_dir, config = work / f"cut-{seed}", work / "bgpi.toml"
    had = 0
    for _ in range(10_000):
        outcome, stderr = run_once(state_dir, config, seed, rng.randint(3, most), rng)
        tally.tracebacks += "Traceback" in stderr
        records, finished = journal_of(state_dir)
        if len(records) < had:
            tally.lost += had - len(records)
        had = len(records)
        if records != expected[: len(records)]:
            tally.diverged += 1
            tally.problems.append(f"seed {seed}: the journal left a prefix of the match")
        if records:
            Table.replay(table_config(Config()), records)
        if outcome == "wedged":
            tally.wedged += 1
            tally.problems.append(f"seed {seed}: a resume wedged after {len(records)} records")
            return
        if outcome != "cut":
            if outcome != "ended":
                tally.problems.append(f"seed {seed}: the service {outcome}: {stderr[-300:]}")
            break
        tally.kills += 1
        tally.mid_match += not finished
    if records == expected:
        tally.matches += 1
    else:
        tally.diverged += 1
        tally.problems.append(f"seed {seed}: the match ended unlike the uninterrupted one")
