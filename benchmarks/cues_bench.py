"""What hearing the table costs the event loop: run ``python benchmarks/cues_bench.py``.

A seeded demo match is played on the simulated table while every step the driver takes is
recorded (the table before it and the step). Then, for the same steps, the time of
:func:`bgpi.present.cues.step_cues` (what the driver now asks of every step, sound on or off) is
measured against the time of the table's own step (``Table.handle``), the work the loop does
anyway, both in the same run. A ratio well under 1 means the cues add little to a step.
"""

from __future__ import annotations

import random
import time

from bgpi.journal.records import MatchStarted
from bgpi.present.cues import step_cues
from bgpi.sim.demo import PipPlayer, act
from bgpi.sim.simtable import SimOptions, SimTable
from bgpi.table import Event, Step, Table

SEED = 3
ROUNDS = 5


def record_steps() -> list[tuple[Table, Event, Step]]:
    """Every (table, event, step) of one game of a seeded demo match."""
    sim = SimTable(MatchStarted(1), options=SimOptions(seed=SEED))
    steps: list[tuple[Table, Event, Step]] = []
    dispatch = sim.driver.dispatch

    def recording(event: Event) -> None:
        before = sim.driver.table
        steps.append((before, event, before.handle(event)))
        dispatch(event)

    sim.driver.dispatch = recording  # type: ignore[method-assign]
    players = (PipPlayer(), PipPlayer())
    for n in range(5000):
        if sim.match.game_winner is not None:
            break
        act(sim, players, random.Random(n))
    return steps


def best_of(function: object, steps: list[tuple[Table, Event, Step]]) -> float:
    """The fastest of ``ROUNDS`` passes over the steps, in seconds."""
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for before, event, step in steps:
            function(before, event, step)  # type: ignore[operator]
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    steps = record_steps()
    handle = best_of(lambda before, event, step: before.handle(event), steps)
    cues = best_of(lambda before, event, step: step_cues(before, step), steps)
    print(f"{len(steps)} steps of a seeded demo game")
    print(f"Table.handle (reference): {handle / len(steps) * 1e6:8.1f} us a step")
    print(f"step_cues               : {cues / len(steps) * 1e6:8.1f} us a step")
    print(f"ratio step_cues / handle: {cues / handle:8.3f}")


if __name__ == "__main__":
    main()
