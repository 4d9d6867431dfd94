"""What stamping each state with the time it is sent costs the page's server: run
``python benchmarks/stamp_bench.py``.

A seeded demo game is played on the simulated table with the U.S. rules' clock, and the state
the page would be given after each step is kept. For those states, the time of
:func:`bgpi.web.server.stamped` (done once for each page a state is sent to) is measured
against the time of encoding the state as JSON (done once for each state published, whatever
the pages), both in the same run. A ratio well under 1 means stamping as it is sent costs
little beside what publishing already does, where encoding the state again for each page
would cost a ratio of 1 a page.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Mapping

from bgpi.base.words import ROLL, WHITE
from bgpi.service.config import ClockConfig, Config
from bgpi.sim.demo import PipPlayer, act
from bgpi.web.run import new_session
from bgpi.web.server import stamped

SEED = 3
ROUNDS = 5


def record_states() -> list[Mapping[str, object]]:
    """The page's state after each step of one clocked game of a seeded demo match."""
    session = new_session(Config(clock=ClockConfig("usbgf")), seed=SEED)
    sim = session.sim
    sim.press(WHITE, ROLL, hold=sim.table.config.long_press + 0.2)  # the config's match
    states = []
    players = (PipPlayer(), PipPlayer())
    for n in range(5000):
        if sim.match.game_winner is not None:
            break
        act(sim, players, random.Random(n), say=lambda _text: None)
        state = session.snapshot().state
        if state is not None:
            states.append(state)
    return states


def best_of(function: Callable[[int], object], count: int) -> float:
    """The fastest of ``ROUNDS`` passes over ``count`` items, in seconds."""
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for index in range(count):
            function(index)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    states = record_states()
    encoded = [json.dumps(state, separators=(",", ":")) for state in states]
    count = len(states)
    encode = best_of(lambda i: json.dumps(states[i], separators=(",", ":")), count)
    stamp = best_of(lambda i: stamped(encoded[i], 1234.5678 + i), count)
    size = sum(map(len, encoded)) / count
    print(f"{count} states of a seeded clocked demo game, {size:.0f} bytes each on average")
    print(f"json.dumps (reference): {encode / count * 1e6:8.1f} us a state")
    print(f"stamped               : {stamp / count * 1e6:8.1f} us a state sent")
    print(f"ratio stamped / encode: {stamp / encode:8.3f}")


if __name__ == "__main__":
    main()
