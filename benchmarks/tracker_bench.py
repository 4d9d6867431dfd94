"""Speed of the move tracker: run ``python benchmarks/tracker_bench.py``.

Per roll: the preparation (the tree of partial plays, indexed by observation), which the
tracker does when an answer first needs it (see goals_bench.py for the roll's first answer).
Per settled observation: the answer, at a node, with a checker in the hand, and for a wrong
board. Measured on the heaviest positions known (doubles with 1,000+ plays) and on positions
from random games.
Figures are the best of several runs.
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
from bgpi.sensing.board import capacities, observe
from bgpi.sensing.tracker import TurnTracker

CAPS = capacities(Geometry.default())
HEAVY = [
    ("AACAkCRJqqoAAA", (1, 1)),  # 2,220 plays
]


def best(stmt: Callable[[], object], number: int = 3, repeat: int = 3) -> float:
    return min(timeit.repeat(stmt, number=number, repeat=repeat)) / number


def observations(tracker: TurnTracker, rng: random.Random) -> dict[str, list[tuple[int, ...]]]:
    """Observations of each kind for one turn: legal states, a checker lifted, wrong boards."""
    nodes = rng.sample(range(len(tracker.tree.nodes)), min(40, len(tracker.tree.nodes)))
    at = [tracker.expected(node) for node in nodes]
    lifted, wrong = [], []
    for obs in at:
        occupied = [zone for zone in range(1, 25) if obs[zone]]
        one = list(obs)
        one[rng.choice(occupied)] -= 1
        lifted.append(tuple(one))
        two = list(obs)
        two[rng.choice(occupied)] -= 1
        two[rng.choice([z for z in range(1, 25) if two[z] < CAPS[z]])] += 2
        wrong.append(tuple(two))
    return {"at node": at, "in flight": lifted, "wrong": wrong}


def prepared(pos: Position, roll: tuple[int, int]) -> TurnTracker:
    """A tracker with its tree and index built (each is built when an answer first needs it)."""
    tracker = TurnTracker(pos, roll, WHITE, CAPS)
    tracker.prepare()
    return tracker


def measure(label: str, pos: Position, roll: tuple[int, int], rng: random.Random) -> None:
    prepare = best(lambda: prepared(pos, roll), number=1)
    tracker = TurnTracker(pos, roll, WHITE, CAPS)
    worst = {}
    for kind, observed in observations(tracker, rng).items():
        for obs in observed:
            tracker.read(obs, near=0)  # warm the lazy caches, as a turn in play would
        worst[kind] = max(best(lambda o=o: tracker.read(o, near=0)) for o in observed)
    print(
        f"{label}: {len(legal_plays(pos, roll))} plays, {len(tracker.tree.nodes)} states; "
        f"prepare {prepare * 1e3:.1f} ms; worst read "
        + ", ".join(f"{k} {v * 1e3:.2f} ms" for k, v in worst.items())
    )


def main() -> None:
    rng = random.Random(1)
    for position_id, roll in HEAVY:
        measure(f"{position_id} {roll[0]}-{roll[1]}", Position.from_id(position_id), roll, rng)
    # The heaviest doubles met in random games.
    found: list[tuple[int, Position, tuple[int, int]]] = []
    pos = Position.initial()
    for _ in range(3000):
        for die in range(1, 7):
            count = len(legal_plays(pos, (die, die)))
            if count >= 1000:
                found.append((count, pos, (die, die)))
        play = rng.choice(legal_plays(pos, (rng.randint(1, 6), rng.randint(1, 6))))
        pos = Position.initial() if game_result(play.result) else play.result.swap()
    for _count, heavy, roll in sorted(found, key=lambda item: -item[0])[:3]:
        measure(f"random-game {heavy.id()} {roll[0]}-{roll[1]}", heavy, roll, rng)
    # Typical turns.
    prepares, reads = [], []
    pos = Position.initial()
    for _ in range(200):
        roll = (rng.randint(1, 6), rng.randint(1, 6))
        prepares.append(best(lambda p=pos, r=roll: prepared(p, r), number=1))
        tracker = TurnTracker(pos, roll, WHITE, CAPS)
        obs = observe(pos, WHITE, CAPS)
        reads.append(best(lambda t=tracker, o=obs: t.read(o)))
        play = rng.choice(legal_plays(pos, roll))
        pos = Position.initial() if game_result(play.result) else play.result.swap()
    print(
        f"typical turns: prepare median {statistics.median(prepares) * 1e3:.2f} ms "
        f"(max {max(prepares) * 1e3:.1f}), read at the start median "
        f"{statistics.median(reads) * 1e6:.0f} us"
    )


if __name__ == "__main__":
    main()
