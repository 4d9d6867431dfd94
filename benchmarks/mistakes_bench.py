"""Cost of saying a mistake: run ``python benchmarks/mistakes_bench.py``.

The table diagnoses every settled wrong board (and looks for a hit left undone on every board
in flight) after the tracker's reading of it. This prints, for wrong boards and boards in
flight on the heaviest known roll and on turns from random games, the diagnosis's time as a
ratio of the tracker's own read of the same board, measured in the same run: the reference
is the read the table does anyway. Figures are the best of several runs.
"""

from __future__ import annotations

import random
import statistics
import timeit
from collections.abc import Callable

from bgpi.base.geometry import Geometry
from bgpi.base.words import WHITE
from bgpi.rules import Position, legal_plays
from bgpi.rules.result import game_result
from bgpi.sensing.board import Observation, capacities, observe
from bgpi.sensing.mistakes import diagnose
from bgpi.sensing.tracker import Kind, TurnTracker

CAPS = capacities(Geometry.default())
HEAVY = ("AACAkCRJqqoAAA", (1, 1))  # 2,220 plays


def best(stmt: Callable[[], object], number: int = 5, repeat: int = 3) -> float:
    return min(timeit.repeat(stmt, number=number, repeat=repeat)) / number


def boards(tracker: TurnTracker, rng: random.Random) -> list[Observation]:
    """Wrong boards and boards in flight: a checker lifted, or moved where no die takes it."""
    start = observe(tracker.start, tracker.mover, CAPS)
    occupied = [zone for zone in range(1, 25) if start[zone]]
    found = []
    for _ in range(20):
        seen = list(start)
        seen[rng.choice(occupied)] -= 1
        if rng.random() < 0.7:
            seen[rng.choice([z for z in range(1, 25) if seen[z] < CAPS[z]])] += 1
        found.append(tuple(seen))
    return found


def ratios(tracker: TurnTracker, rng: random.Random) -> dict[Kind, list[float]]:
    found: dict[Kind, list[float]] = {Kind.WRONG: [], Kind.IN_FLIGHT: []}
    for seen in boards(tracker, rng):
        reading = tracker.read(seen, near=0)  # warm the lazy caches, as a turn in play would
        if reading.kind is Kind.AT_NODE:
            continue
        read = best(lambda s=seen: tracker.read(s, near=0))
        said = best(lambda s=seen, r=reading: diagnose(tracker, s, r, 0))
        found[reading.kind].append(said / read)
    return found


def report(label: str, found: dict[Kind, list[float]]) -> None:
    parts = [
        f"{kind.value}: median {statistics.median(values):.2f}x, max {max(values):.2f}x "
        f"({len(values)} boards)"
        for kind, values in found.items()
        if values
    ]
    print(f"{label}: diagnosis / tracker read; " + "; ".join(parts))


def main() -> None:
    rng = random.Random(1)
    position_id, roll = HEAVY
    heavy = TurnTracker(Position.from_id(position_id), roll, WHITE, CAPS)
    heavy.prepare()
    report(f"{position_id} {roll[0]}-{roll[1]}", ratios(heavy, rng))
    total: dict[Kind, list[float]] = {Kind.WRONG: [], Kind.IN_FLIGHT: []}
    pos = Position.initial()
    for _ in range(60):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        tracker = TurnTracker(pos, dice, WHITE, CAPS)
        tracker.prepare()
        for kind, values in ratios(tracker, rng).items():
            total[kind] += values
        play = rng.choice(legal_plays(pos, dice))
        pos = Position.initial() if game_result(play.result) else play.result.swap()
    report("random games, 60 turns", total)


if __name__ == "__main__":
    main()
