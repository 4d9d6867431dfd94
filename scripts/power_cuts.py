"""The power-cut campaign: self-play matches of ``bgpi run`` SIGKILLed again and again.

    python scripts/power_cuts.py [--matches 10] [--length 3] [--seed 1]

Each match (self-play seeds ``seed``, ``seed + 1``, ...) is first played uninterrupted, then
played again with the service killed after a random number of journaled records (3 to 40)
plus a random instant, and restarted, until it finishes. It prints the figures (kills,
matches, records lost, diverged journals, wedged resumes, tracebacks) and exits with status 1
if any of the last four is not 0.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the harness is the tests' own

from tests.shell.cuts import Tally, campaign  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10, help="how many matches (default 10)")
    parser.add_argument("--length", type=int, default=3, help="match length (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="the first self-play seed")
    args = parser.parse_args()
    tally, rng, started = Tally(), random.Random(args.seed), time.monotonic()
    with tempfile.TemporaryDirectory(prefix="bgpi-cuts-") as work:
        for seed in range(args.seed, args.seed + args.matches):
            match_dir = Path(work) / str(seed)
            match_dir.mkdir()
            campaign(match_dir, length=args.length, seed=seed, rng=rng, tally=tally)
            print(f"match {seed}: {tally}", flush=True)
    print(f"\n{tally} in {time.monotonic() - started:.0f} s")
    for problem in tally.problems:
        print(f"  {problem}")
    bad = tally.lost or tally.diverged or tally.wedged or tally.tracebacks or tally.problems
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
