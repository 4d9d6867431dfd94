"""The journal's cost: run ``python benchmarks/journal_bench.py``.

- a step's records in one transaction (``Journal.append_all``, what the driver does) against
  one commit per record (what bgpi did before), both with ``synchronous=FULL`` on the same
  disk in the same run: the ratio is what one transaction per step saves;
- opening a journal of many matches (schema check, migration, SQLite's quick check of every
  page, the journal's identity, its match list and the latest match's hash chain) against
  reading the latest match's records from it: the price of naming damage at start;
- what the hash chain adds to that: the match list and the latest match read with their
  chain checked (as opening does), against SQLite's quick check of every page (which opening
  did before the chain), both on the same file in the same run; and opening for writing (what
  ``bgpi run`` does: the read-only check first, then the writer's connection).
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

        def quick_check() -> float:
            db = sqlite3.connect(f"file:{big}?immutable=1", uri=True)
            start = time.perf_counter()
            db.execute("PRAGMA quick_check(3)").fetchall()
            taken = time.perf_counter() - start
            db.close()
            return taken

        def chain() -> float:
            with Journal.open(big, read_only=True) as journal:
                start = time.perf_counter()
                journal.matches()
                journal.records()
                return time.perf_counter() - start

        opened, read, wrote = best(opening), best(reading), best(writing)
        checked, chained = best(quick_check), best(chain)
        print(f"a journal of {MATCHES} matches ({size:.1f} MB): open {opened * 1e3:.1f} ms,")
        print(f"  read the latest match {read * 1e3:.1f} ms: opening is {opened / read:.1f}x that")
        print(f"  open to write (bgpi run) {wrote * 1e3:.1f} ms")
        print(f"  the chain's checks {chained * 1e3:.1f} ms, the quick check of every page")
        print(f"  {checked * 1e3:.1f} ms: the chain adds {chained / checked:.2f}x the quick check")


if __name__ == "__main__":
    main()
