"""Power cuts: a demo match killed with SIGKILL again and again, and restarted each time,
ends with exactly the journal of an uninterrupted run with the same seed.

Each cut is placed by the match's progress, not by the wall clock: the test reads the lines
the demo prints (each printed only once its records are journaled) and kills the demo after
a chosen number of them, at whatever instant of its work the signal lands. So on a loaded
machine as on an idle one, every cut but those after the last game lands mid-match."""

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

from bgpi.journal.records import Record
from bgpi.journal.store import JOURNAL_NAME, Journal
from bgpi.service.app import table_config
from bgpi.service.config import Config
from bgpi.table import Table

SEED, LENGTH = 17, 5
DEMO_ARGS = ("--seed", str(SEED), "--length", str(LENGTH))


def demo(state_dir: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "bgpi", "demo", "--state-dir", str(state_dir), *DEMO_ARGS],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},  # each line as soon as it is printed
    )


def journal_of(state_dir: Path) -> tuple[list[Record], bool]:
    with Journal.open(state_dir / JOURNAL_NAME) as journal:
        if not journal.matches():
            return [], False
        return journal.records(), journal.matches()[-1].finished


def cut_after(process: subprocess.Popen[str], lines: int) -> bool:
    """Kill ``process`` once it has printed ``lines`` lines; False if it ended first."""
    assert process.stdout is not None
    for _ in range(lines):
        if not process.stdout.readline():
            assert process.wait(timeout=300) == 0, process.stderr.read() if process.stderr else ""
            return False
    process.send_signal(signal.SIGKILL)
    process.wait()
    return True


def test_the_match_survives_power_cuts(tmp_path: Path) -> None:
    reference_dir = tmp_path / "reference"
    assert demo(reference_dir).wait(timeout=300) == 0
    reference, finished = journal_of(reference_dir)
    assert finished

    state_dir, rng, cuts = tmp_path / "cut", random.Random(2026), 0
    for _ in range(200):
        process = demo(state_dir)
        try:
            cut = cut_after(process, rng.randint(4, 24))
        finally:
            for pipe in (process.stdout, process.stderr):
                if pipe:
                    pipe.close()
        records, finished = journal_of(state_dir)
        # What was journaled is exactly the start of the uninterrupted match: nothing shown
        # was lost, nothing differs, and it replays by the rules.
        assert records == reference[: len(records)]
        if records:
            Table.replay(table_config(Config()), records)
        if not cut:
            break
        cuts += not finished  # the last lines come after the match's end
    assert finished, "the match did not finish in 200 restarts"
    assert records == reference
    assert cuts >= 5, "too few cuts landed mid-match to show anything"
