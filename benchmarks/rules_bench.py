"""Speed of the rules engine: run ``python benchmarks/rules_bench.py``.

Measures legal play generation over positions from random games (all 21 rolls each), the
heaviest known position (AACAkCRJqqoAAA with 1-1: 2,220 distinct plays), and the tree of
partial plays the move tracker prepares once per roll. Figures are the best of several runs,
so other load on the machine matters less.

Then, where the gnubg-nn package (dev extra) is installed, ``legal_plays`` against gnubg's C
move generator as gnubg-nn's ``moves`` exposes it (gnubg_reference.py): the ratio of their
times on the same positions and rolls, checked to find the same resulting positions first,
for the heaviest position, the random-game calls above (median and worst) and the opening's
15 rolls. A ratio of two times taken side by side depends far less on the machine's other
load than the times above.
"""

from __future__ import annotations

import argparse
import random
import statistics
import timeit

from gnubg_reference import HEAVY, OPENING, Case, gnubg_nn, summary, timing, timings

from bgpi.rules import Position, legal_plays
from bgpi.rules.result import game_result
from bgpi.rules.tree import partial_plays

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def positions(count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    found, pos = [], Position.initial()
    while len(found) < count:
        found.append(pos)
        play = rng.choice(legal_plays(pos, (rng.randint(1, 6), rng.randint(1, 6))))
        pos = Position.initial() if game_result(play.result) else play.result.swap()
    return found


def best(stmt: object, number: int, repeat: int = 5) -> float:
    """Seconds per call, best of ``repeat`` rounds of ``number`` calls."""
    return min(timeit.repeat(stmt, number=number, repeat=repeat)) / number  # type: ignore[arg-type]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=300)
    args = parser.parse_args()

    sample = positions(args.positions, seed=1)
    calls = [(pos, roll) for pos in sample for roll in ROLLS]
    per_call = [best(lambda p=p, r=r: legal_plays(p, r), number=3, repeat=3) for p, r in calls]
    plays = sum(len(legal_plays(p, r)) for p, r in calls)
    total = sum(per_call)
    print(f"random-game positions: {len(sample)} x 21 rolls = {len(calls)} calls")
    print(
        f"  legal_plays median {statistics.median(per_call) * 1e6:.1f} us, "
        f"mean {total / len(calls) * 1e6:.1f} us, "
        f"max {max(per_call) * 1e3:.2f} ms"
    )
    print(f"  {plays / total:,.0f} plays per second ({plays:,} plays)")

    count = len(legal_plays(HEAVY, (1, 1)))
    print(
        f"heaviest AACAkCRJqqoAAA 1-1: {count} plays, "
        f"legal_plays {best(lambda: legal_plays(HEAVY, (1, 1)), 10) * 1e3:.2f} ms, "
        f"partial-play tree {best(lambda: partial_plays(HEAVY, (1, 1)), 3) * 1e3:.2f} ms"
    )
    tree = [best(lambda p=p, r=r: partial_plays(p, r), number=1, repeat=3) for p, r in calls[:2000]]
    print(
        f"partial-play tree over {len(tree)} calls: median {statistics.median(tree) * 1e6:.0f} us, "
        f"max {max(tree) * 1e3:.2f} ms"
    )
    against_gnubg(calls)


def against_gnubg(calls: list[Case]) -> None:
    nn = gnubg_nn()
    if nn is None:
        print("against gnubg-nn: the gnubg-nn package (dev extra) is not installed")
        return
    heavy = timing(nn, HEAVY, (1, 1), rounds=15)
    print(
        f"against gnubg-nn's moves, AACAkCRJqqoAAA 1-1: legal_plays {heavy.ours * 1e3:.2f} ms, "
        f"gnubg-nn {heavy.theirs * 1e3:.2f} ms: {heavy.ratio:.1f}x"
    )
    random_game = timings(nn, calls, rounds=3)
    print(summary(f"  {len(calls)} random-game calls", random_game))
    opening = timings(nn, [(Position.initial(), roll) for roll in OPENING])
    print(summary(f"  the opening's {len(OPENING)} rolls", opening))


if __name__ == "__main__":
    main()
