"""The computer's thinking time at the board, per gnubg level: run
``python benchmarks/engine_bench.py [PLAYS]`` (Debian's gnubg installed).

For each level, gnubg plays White against the built-in player on the simulated table, with
the same seeded dice (the positions part as the levels play differently), and each of its
turns is timed from the table's ask for its play (the dice
just rolled) to the table lighting the first move of the play it chose: gnubg's evaluation,
the answer checked against the legal plays, and the table's step into its guided phase.

The ratios are against ``expert`` (0-ply) measured in the same run. The Raspberry Pi Zero 2 W
line multiplies by a factor, not a measurement: the Zero 2 W's Cortex-A53 at 1 GHz runs
single-threaded, CPU-bound code about ``PI_ZERO_2W_FACTOR`` times slower than one core of a
current x86-64 laptop (gnubg's evaluation is single-threaded here).
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time

from bgpi.demo import PipPlayer, act
from bgpi.engine import GnubgEngine, Level
from bgpi.engine.seat import EngineSeat
from bgpi.records import MatchStarted, Seat
from bgpi.rules import Move
from bgpi.simtable import SimOptions, SimTable
from bgpi.table import Ask, DecisionRequest, Intent, Phase, Table

PI_ZERO_2W_FACTOR = 10.0
SEED = 11


class TimedSeat(EngineSeat):
    """gnubg's seat, noting when each ask for a play arrives."""

    asked_at: float = 0.0

    def __call__(self, request: DecisionRequest, table: Table) -> Intent | tuple[Move, ...] | None:
        if request.ask is Ask.PLAY:
            self.asked_at = time.perf_counter()
        return super().__call__(request, table)


def timings(level: Level, plays: int) -> list[float]:
    engine = GnubgEngine(level, timeout=600)
    seat = TimedSeat(engine, lambda line: print(line, file=sys.stderr))
    sim = SimTable(
        MatchStarted(25, seats=(Seat.ENGINE, Seat.PERSON)), options=SimOptions(seed=SEED)
    )
    sim.seats = {0: seat}
    players = (seat, PipPlayer())
    seen: list[float] = []
    lit_for = None
    try:
        for step in range(20_000):
            if len(seen) >= plays or sim.phase is Phase.MATCH_OVER:
                break
            if sim.phase is Phase.GUIDED and seat.asked_at and lit_for != seat.asked_at:
                lit_for = seat.asked_at
                seen.append(time.perf_counter() - seat.asked_at)
            act(sim, players, random.Random(f"{SEED}:{step}"))
    finally:
        engine.close()
    return seen[1:]  # the first includes gnubg's start


def main() -> None:
    plays = int(sys.argv[1]) if len(sys.argv) > 1 else 12
    os.environ.setdefault("HOME", tempfile.mkdtemp(prefix="bgpi-bench-"))
    results = {level: timings(level, plays) for level in Level}
    reference = statistics.median(results[Level.EXPERT])
    print(
        f"roll to play lit, median of {plays - 1} plays per level "
        "(the first, with gnubg's start, left out):"
    )
    print(f"{'level':<13}{'here':>10}{'max':>10}{'x expert':>10}{'Pi Zero 2 W':>14}")
    for level, seconds in results.items():
        median = statistics.median(seconds)
        print(
            f"{level.value:<13}{median * 1e3:>8.0f}ms{max(seconds) * 1e3:>8.0f}ms"
            f"{median / reference:>10.1f}{median * PI_ZERO_2W_FACTOR:>13.2f}s"
        )


if __name__ == "__main__":
    main()
