"""The speed goals of "instant on a Pi Zero 2 W", each figure with its ratio, in one run:
``python benchmarks/goals_bench.py`` (``--quick`` for fewer positions, ``--no-shell`` to skip
start-up).

- roll -> the tracker's first reading (what the dice frame waits for), in the heaviest known
  position (AACAkCRJqqoAAA, 1-1) and over rolls of random games (median, 99.9th percentile),
  against the goal and against building the whole tree first, as before;
- the tree the first lift of a checker needs, built while the hand is on its way;
- a committed play checked against the tracker's index, against generating the plays again;
- ``legal_plays`` against gnubg's C move generator, as the gnubg-nn package of the dev extra
  exposes it (``gnubg_nn.moves``; gnubg_reference.py says why not the gnubg package), on the
  same positions and rolls, checked to find the same resulting positions before either is
  timed: the heaviest position, the rolls of random games (median and worst ratio, doubles
  and other rolls apart) and the opening's 15 rolls;
- ``import bgpi.service.app`` (CPU time, less the interpreter's own start) and ``bgpi run`` ready on
  the simulator, both from source and from bytecode.

Figures are medians of repeated runs (a percentile over rolls takes each roll's best of
three; each generator's time on a roll is its best of several short rounds); ratios compare
figures taken in this same run, since the machine's other load changes from run to run.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
from collections.abc import Callable
from pathlib import Path

from gnubg_reference import HEAVY, OPENING, Roll, gnubg_nn, summary, timing, timings

from bgpi.base.geometry import Geometry
from bgpi.rules import Position, legal_plays
from bgpi.rules.result import game_result
from bgpi.sensing.board import capacities, observe
from bgpi.sensing.tracker import TurnTracker

CAPS = capacities(Geometry.default())
DEMO = ("--seed", "3", "--length", "7", "--games", "1")


def median(stmt: Callable[[], object], number: int, repeat: int = 5) -> float:
    """Seconds per call, the median of ``repeat`` rounds of ``number`` calls."""
    return statistics.median(timeit.repeat(stmt, number=number, repeat=repeat)) / number


def best(stmt: Callable[[], object], repeat: int = 3) -> float:
    """Seconds of one call, the best of ``repeat``."""
    return min(timeit.repeat(stmt, number=1, repeat=repeat))


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def game_rolls(count: int, seed: int) -> list[tuple[Position, Roll]]:
    """(position, roll) as met in games of random plays."""
    rng = random.Random(seed)
    found, pos = [], Position.initial()
    while len(found) < count:
        roll = (rng.randint(1, 6), rng.randint(1, 6))
        found.append((pos, roll))
        play = rng.choice(legal_plays(pos, roll))
        pos = Position.initial() if game_result(play.result) else play.result.swap()
    return found


def first_reading(pos: Position, roll: Roll, obs: tuple[int, ...], *, eager: bool) -> object:
    """What the dice frame waits for: the tracker prepared and the board read."""
    tracker = TurnTracker(pos, roll, 0, CAPS)
    if eager:
        tracker.prepare()
    reading = tracker.read(obs)
    return tracker.node(reading.nodes[0]).dice_left


def roll_to_reading(turns: list[tuple[Position, Roll]]) -> None:
    obs = observe(HEAVY, 0, CAPS)
    lazy = median(lambda: first_reading(HEAVY, (1, 1), obs, eager=False), number=20)
    eager = median(lambda: first_reading(HEAVY, (1, 1), obs, eager=True), number=1)
    print(
        f"roll -> first reading, AACAkCRJqqoAAA 1-1: {lazy * 1e3:.3f} ms "
        f"({lazy / 10e-3:.3f} of the 10 ms goal); the whole tree first: {eager * 1e3:.1f} ms "
        f"({eager / lazy:.0f}x)"
    )
    # Each roll's figure is its best of three: a percentile of thousands of short calls would
    # otherwise measure the other load on the machine.
    lazies, eagers = [], []
    for pos, roll in turns:
        start = observe(pos, 0, CAPS)
        lazies.append(best(lambda p=pos, r=roll, o=start: first_reading(p, r, o, eager=False)))
        eagers.append(best(lambda p=pos, r=roll, o=start: first_reading(p, r, o, eager=True)))
    top, top_eager = percentile(lazies, 0.999), percentile(eagers, 0.999)
    print(
        f"roll -> first reading, {len(turns)} random-game rolls: median "
        f"{statistics.median(lazies) * 1e6:.0f} us, 99.9th percentile {top * 1e3:.3f} ms "
        f"({top / 2e-3:.3f} of the 2 ms goal); the whole tree first: 99.9th percentile "
        f"{top_eager * 1e3:.2f} ms ({top_eager / top:.0f}x)"
    )
    print(
        f"  the tree, built by the first lift: AACAkCRJqqoAAA 1-1 {eager * 1e3:.1f} ms, "
        f"random-game median {statistics.median(eagers) * 1e3:.2f} ms"
    )


def commit_check() -> None:
    play = max(legal_plays(HEAVY, (1, 1)), key=lambda p: len(p.moves))
    tracker = TurnTracker(HEAVY, (1, 1), 0, CAPS)
    tracker.prepare()

    def regenerate() -> bool:
        return play.result in {p.result for p in legal_plays(HEAVY, (1, 1))}

    assert tracker.is_legal(play) and regenerate()
    index = median(lambda: tracker.is_legal(play), number=200)
    again = median(regenerate, number=3)
    print(
        f"commit check, heaviest play: tracker.is_legal {index * 1e6:.0f} us, "
        f"legal_plays regenerated {again * 1e3:.2f} ms ({again / index:.0f}x)"
    )


def against_gnubg(turns: list[tuple[Position, Roll]]) -> None:
    nn = gnubg_nn()
    if nn is None:
        print("legal_plays against gnubg-nn: the gnubg-nn package (dev extra) is not installed")
        return
    heavy = timing(nn, HEAVY, (1, 1), rounds=15)
    print(
        f"legal_plays, AACAkCRJqqoAAA 1-1: {heavy.ours * 1e3:.2f} ms, gnubg-nn "
        f"{heavy.theirs * 1e3:.2f} ms: {heavy.ratio:.1f}x (goal 10x)"
    )
    found = timings(nn, turns)
    total = sum(t.ours for t in found) / sum(t.theirs for t in found)
    print(
        summary(f"legal_plays, {len(turns)} random-game rolls", found, goal=" (goal 15x)")
        + f"; all together {total:.1f}x"
    )
    for label, doubles in (("doubles alone", True), ("other rolls", False)):
        print(summary(f"  {label}", [t for t in found if (t.roll[0] == t.roll[1]) == doubles]))
    opening = timings(nn, [(Position.initial(), roll) for roll in OPENING])
    print(summary(f"legal_plays, the opening's {len(OPENING)} rolls", opening))


def interpreter(code: str, env: dict[str, str]) -> float:
    """CPU seconds of a fresh interpreter running ``code``: less disturbed than wall time
    by the other work of a shared machine."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", code], check=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def ready(state_dir: Path, env: dict[str, str]) -> float:
    """Wall seconds from spawning ``bgpi run`` on the simulator to its "ready" log line."""
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "bgpi", "run", "-v", "--state-dir", str(state_dir)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert process.stderr is not None
    try:
        for line in process.stderr:
            if "ready" in line:
                return time.perf_counter() - start
        raise RuntimeError("bgpi run ended without becoming ready")
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=10)


def start_up(runs: int) -> None:
    """Import and start-up, from source (each import compiles every module, as here when
    PYTHONDONTWRITEBYTECODE is set or with an editable install whose directory is read-only)
    and from bytecode (as pip installs bgpi on the Pi: it compiles the modules at install)."""
    source = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    with tempfile.TemporaryDirectory() as tmp:
        compiled = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        compiled["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        state = Path(tmp) / "state"
        # A journal with a match in progress, so start-up includes its replay.
        subprocess.run(
            [sys.executable, "-m", "bgpi", "demo", "--state-dir", str(state), *DEMO],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        ready(state, compiled)  # writes the bytecode of everything start-up imports
        for label, env in (("from source", source), ("from bytecode", compiled)):
            base = min(interpreter("pass", env) for _ in range(runs))
            app = min(interpreter("import bgpi.service.app", env) for _ in range(runs)) - base
            ups = [ready(state, env) for _ in range(5)]
            up = statistics.median(ups)
            print(
                f"{label}: import bgpi.service.app {app * 1e3:.0f} ms CPU "
                f"({app / 0.150:.2f} of the "
                f"150 ms goal); bgpi run ready on the simulator: median {up * 1e3:.0f} ms "
                f"({up / 0.5:.2f} of the 0.5 s goal), best {min(ups) * 1e3:.0f} ms"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="200 rolls instead of 2,000")
    parser.add_argument("--no-shell", action="store_true", help="skip import and start-up")
    args = parser.parse_args()
    turns = game_rolls(200 if args.quick else 2000, seed=16)
    roll_to_reading(turns)
    commit_check()
    against_gnubg(turns[: len(turns) // 4])
    if not args.no_shell:
        start_up(runs=5 if args.quick else 11)


if __name__ == "__main__":
    main()
