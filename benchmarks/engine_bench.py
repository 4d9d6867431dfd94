"""The computer's thinking time at the board, per gnubg level: run
``python benchmarks/engine_bench.py [PLAYS]`` (Debian's gnubg installed).

For each level, gnubg plays White against the built-in player on the simulated table, with
the same seeded dice (the positions part as the levels play differently), and each of its
turns is timed from the table's ask for its play (the dice just rolled) to the table lighting
the first move of the play it chose: gnubg's evaluation, the answer checked against the legal
plays, and the table's step into its guided phase.

A second table times a hint at the board: a person on roll (the built-in player's hands)
holds ROLL before moving, and each hint is timed from the release of the held button to the
table lighting the first move of gnubg's play, through the same engine thread ``bgpi run``
and ``bgpi sim`` use (the request queued, gnubg asked, the answer posted back and taken).

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

from bgpi.base.words import ROLL
from bgpi.engine import GnubgEngine, Level
from bgpi.engine.seat import EngineSeat
from bgpi.engine.seats import gnubg_advisor
from bgpi.engine.worker import EngineWorker
from bgpi.journal.records import MatchStarted, Seat
from bgpi.sim.demo import PipPlayer, act
from bgpi.sim.simtable import SimOptions, SimTable
from bgpi.table import Ask, DecisionRequest, Phase, Table
from bgpi.table.seats import SeatAnswer

PI_ZERO_2W_FACTOR = 10.0
SEED = 11


class TimedSeat(EngineSeat):
    """gnubg's seat, noting when each ask for a play arrives."""

    asked_at: float = 0.0

    def __call__(self, request: DecisionRequest, table: Table) -> SeatAnswer | None:
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


def hint_timings(level: Level, plays: int) -> list[float]:
    """Seconds from each held ROLL's release to the first move of gnubg's hint lit."""
    advisor = gnubg_advisor(level, say=lambda line: print(line, file=sys.stderr), timeout=600)
    sim = SimTable(MatchStarted(25), options=SimOptions(seed=SEED, hints=frozenset({0, 1})))
    worker = EngineWorker({}, sim.post, advisor=advisor)
    sim.advise = worker.hint
    players = (PipPlayer(), PipPlayer())
    seen: list[float] = []
    asked_at = -1  # the journal's length when a hint was last asked: once per turn
    try:
        for step in range(20_000):
            if len(seen) >= plays or sim.phase is Phase.MATCH_OVER:
                break
            turn = sim.match.turn
            if sim.phase is Phase.MOVING and turn is not None and asked_at != len(sim.driver.log):
                asked_at = len(sim.driver.log)
                sim.buttons.press(turn, ROLL)
                sim.advance(1.0)  # held past the long press (simulated time)
                start = time.perf_counter()
                sim.buttons.release(turn, ROLL)
                sim.advance(0.0)  # the release reaches the table: the hint is asked
                worker.idle()
                sim.advance(0.0)  # the answer taken and the scene built
                if sim.scene.lifted:
                    seen.append(time.perf_counter() - start)
            act(sim, players, random.Random(f"{SEED}:{step}"))
    finally:
        worker.close()
    return seen[1:]  # the first includes gnubg's start


def table(title: str, results: dict[Level, list[float]]) -> None:
    reference = statistics.median(results[Level.EXPERT])
    print(title)
    print(f"{'level':<13}{'here':>10}{'max':>10}{'x expert':>10}{'Pi Zero 2 W':>14}")
    for level, seconds in results.items():
        median = statistics.median(seconds)
        print(
            f"{level.value:<13}{median * 1e3:>8.0f}ms{max(seconds) * 1e3:>8.0f}ms"
            f"{median / reference:>10.1f}{median * PI_ZERO_2W_FACTOR:>13.2f}s"
        )


def main() -> None:
    plays = int(sys.argv[1]) if len(sys.argv) > 1 else 12
    os.environ.setdefault("HOME", tempfile.mkdtemp(prefix="bgpi-bench-"))
    results = {level: timings(level, plays) for level in Level}
    table(
        f"roll to play lit, median of {plays - 1} plays per level "
        "(the first, with gnubg's start, left out):",
        results,
    )
    hints = {level: hint_timings(level, plays) for level in Level}
    table(
        f"\nheld ROLL released to the hint's first move lit, median of {plays - 1} hints:",
        hints,
    )


if __name__ == "__main__":
    main()
