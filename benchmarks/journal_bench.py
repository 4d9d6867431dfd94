"""The journal's cost: run ``python benchmarks/journal_bench.py``.

- a step's records in one transaction (``Journal.append_all``, what the driver does) against
  one commit per record (what bgpi did before), both with ``synchronous=FULL`` on the same
  disk in the same run: the ratio is what one transaction per step saves;
- opening a journal of many matches (schema check, migration, SQLite's quick check of every
  page, the journal's identity, its match list and the latest match's hash chain) against
  reading the latest match's records from it: the price of naming damage at start;
- what opening costs now against what it did before the journal had a chain and opened
  through a snapshot (a read-only connection, the schema version, the tables and SQLite's
  quick check of every page, done here as it was), on the same file in the same run: the
  price of the identity, the chain and the checks of the match list and the latest match;
  and opening for writing (what ``bgpi run`` does: that check first, then the writer's
  connection).
"""

from __future__ import annotations

import sqlite3
import tempfile
import time
from pathlib import Path

from bgpi.journal.records import MatchStarted, Played, Record, Rolled
from bgpi.journal.store import Journal

STEPS = 300
MATCHES = 200  # of the big journal
PER_MATCH = 250


def step(n: int) -> list[Record]:
    return [Rolled(n % 2, (3, 1)), Played(n % 2, ((8, 5, 3, False), (6, 5, 1, False)))]


def per_record(path: Path) -> float:
    with Journal.open(path) as journal:
        journal.new_match(MatchStarted(5))
        start = time.perf_counter()
        for n in range(STEPS):
            for record in step(n):
                journal.append(record)
        return (time.perf_counter() - start) / STEPS


def per_step(path: Path) -> float:
    with Journal.open(path) as journal:
        journal.new_match(MatchStarted(5))
        start = time.perf_counter()
        for n in range(STEPS):
            journal.append_all(step(n))
        return (time.perf_counter() - start) / STEPS


def big_journal(path: Path) -> None:
    with Journal.open(path) as journal:
        for _ in range(MATCHES):
            journal.append_all(
                [MatchStarted(5), *(r for n in range(PER_MATCH // 2) for r in step(n))]
            )


def best(measure: object, runs: int = 5) -> float:
    assert callable(measure)
    return min(measure() for _ in range(runs))


def main() -> None:
    with tempfile.TemporaryDirectory(dir=Path.cwd()) as tmp:
        root = Path(tmp)
        one = per_record(root / "a.sqlite")
        whole = per_step(root / "b.sqlite")
        print(f"a 2-record step: {whole * 1e3:.2f} ms in one transaction, {one * 1e3:.2f} ms as")
        print(f"  one commit per record: one transaction per step is {one / whole:.2f}x as fast")
        big = root / "big.sqlite"
        big_journal(big)
        size = big.stat().st_size / 1e6

        def opening() -> float:
            start = time.perf_counter()
            Journal.open(big, read_only=True).close()
            return time.perf_counter() - start

        def reading() -> float:
            with Journal.open(big, read_only=True) as journal:
                start = time.perf_counter()
                journal.records()
                return time.perf_counter() - start

        def writing() -> float:
            start = time.perf_counter()
            Journal.open(big).close()
            return time.perf_counter() - start

        def opening_before() -> float:
            start = time.perf_counter()
            db = sqlite3.connect(f"file:{big}?mode=ro", uri=True, isolation_level=None)
            db.execute("PRAGMA user_version").fetchone()
            db.execute("SELECT name FROM sqlite_schema WHERE type = 'table'").fetchall()
            db.execute("PRAGMA quick_check(3)").fetchall()
            db.close()
            return time.perf_counter() - start

        opening_before()  # the file in the page cache before any is measured
        opened, read, wrote = best(opening), best(reading), best(writing)
        before = best(opening_before)
        print(f"a journal of {MATCHES} matches ({size:.1f} MB): open {opened * 1e3:.1f} ms,")
        print(f"  read the latest match {read * 1e3:.1f} ms: opening is {opened / read:.1f}x that")
        print(f"  opened as before the chain {before * 1e3:.1f} ms: now {opened / before:.2f}x")
        print(f"  open to write (bgpi run) {wrote * 1e3:.1f} ms: {wrote / before:.2f}x that")


if __name__ == "__main__":
    main()
