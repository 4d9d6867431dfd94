"""Power cuts: a demo match killed with SIGKILL at random moments and restarted, again and
again, ends with exactly the journal of an uninterrupted run with the same seed."""

import random
import signal
import subprocess
import sys
from pathlib import Path

from bgpi.app import JOURNAL_NAME, table_config
from bgpi.config import Config
from bgpi.records import Record
from bgpi.store import Journal
from bgpi.table import Table

SEED, LENGTH = 17, 5
DEMO_ARGS = ("--seed", str(SEED), "--length", str(LENGTH))


def demo(state_dir: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "bgpi", "demo", "--state-dir", str(state_dir), *DEMO_ARGS],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def journal_of(state_dir: Path) -> tuple[list[Record], bool]:
    with Journal.open(state_dir / JOURNAL_NAME) as journal:
        if not journal.matches():
            return [], False
        return journal.records(), journal.matches()[-1].finished


def test_the_match_survives_power_cuts(tmp_path: Path) -> None:
    reference_dir = tmp_path / "reference"
    assert demo(reference_dir).wait(timeout=300) == 0
    reference, finished = journal_of(reference_dir)
    assert finished

    state_dir, rng, cuts = tmp_path / "cut", random.Random(2026), 0
    for _ in range(200):
        process = demo(state_dir)
        try:
            code = process.wait(timeout=rng.uniform(0.3, 0.9))
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGKILL)
            process.wait()
            cuts += 1
        else:
            assert code == 0, process.stderr.read().decode() if process.stderr else code
        if not (state_dir / JOURNAL_NAME).exists():
            continue
        records, finished = journal_of(state_dir)
        # What was journaled is exactly the start of the uninterrupted match: nothing shown
        # was lost, nothing differs, and it replays by the rules.
        assert records == reference[: len(records)]
        if records:
            Table.replay(table_config(Config()), records)
        if finished:
            break
    assert finished, "the match did not finish in 200 restarts"
    assert records == reference
    assert cuts >= 5, "too few cuts landed mid-match to show anything"
