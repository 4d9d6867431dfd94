"""The damaged-journal fuzz: ``bgpi status`` and ``bgpi export`` on hundreds of damaged journals.

    python scripts/fuzz_journals.py [--count 300] [--seed 1]

Each case damages a copy of a sound journal (bytes flipped, a page zeroed, the file cut short,
another journal's -wal, an old -wal of its own, records swapped, deleted or of another kind, a
byte of the -wal; and sound controls) and runs both commands on it (see
``tests/shell/journal_fuzz.py``). It prints the figures and each problem, and exits with
status 1 if there was any traceback, silent wrong answer, file changed or sound journal
refused.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the harness is the tests' own

from tests.shell.journal_fuzz import campaign  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300, help="damaged journals (default 300)")
    parser.add_argument("--seed", type=int, default=1, help="the campaign's seed (default 1)")
    parser.add_argument("--workers", type=int, default=2, help="cases at once (default 2)")
    args = parser.parse_args()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="bgpi-fuzz-") as work:
        tally = campaign(
            Path(work), count=args.count, seed=args.seed, workers=args.workers, say=print
        )
    print(f"\n{tally} in {time.monotonic() - started:.0f} s")
    for damage, count in sorted(tally.by_damage.items()):
        print(f"  {count:4d} {damage}")
    for problem in tally.problems:
        print(f"  {problem}")
    return 1 if tally.bad else 0


if __name__ == "__main__":
    sys.exit(main())
