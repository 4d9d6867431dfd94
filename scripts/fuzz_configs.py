"""The config fuzz: mutations of the real example config, each checked by ``bgpi config check``.

    python scripts/fuzz_configs.py [--count 2000] [--seed 1] [--jobs 2] [--in-process]

Each case is ``systemd/config.toml`` changed one to three ways (wrong types, unknown keys and
sections, odd shapes of the maps and the palette, deep nesting, bad UTF-8, huge strings,
duplicate keys, control characters, truncation, flipped bytes); case ``n`` of a seed is the
same file on every run. Each is checked by a ``bgpi`` process of its own (``--in-process``:
through ``bgpi.cli.main``, quicker): accepted, and then ``bgpi config show`` must print valid
TOML, or refused with exit status 2 and one line naming the file. It prints the figures and
every failure, and exits with status 1 if there was any. The harness is the tests' own
(``tests/shell/configfuzz.py``), which check the first hundred cases of seed 1.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the harness is the tests' own

from tests.shell.configfuzz import Tally, campaign, in_process, in_subprocess  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=2000, help="how many configs (2000)")
    parser.add_argument("--seed", type=int, default=1, help="the campaign's seed (1)")
    parser.add_argument("--jobs", type=int, default=2, help="processes at once (2)")
    parser.add_argument(
        "--in-process", action="store_true", help="call bgpi.cli.main instead of running bgpi"
    )
    args = parser.parse_args()
    run, jobs = (in_process, 1) if args.in_process else (in_subprocess, args.jobs)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="bgpi-fuzz-") as work:
        tally = campaign(
            Path(work), seed=args.seed, numbers=range(args.count), run=run, jobs=jobs, tally=Tally()
        )
    print(f"seed {args.seed}: {tally} in {time.monotonic() - started:.0f} s")
    print("mutations: " + ", ".join(f"{kind} {n}" for kind, n in sorted(tally.kinds.items())))
    for failure in tally.failures:
        print(f"  {failure}")
    return 1 if tally.failures else 0


if __name__ == "__main__":
    sys.exit(main())
