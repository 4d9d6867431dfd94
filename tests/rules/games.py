"""Random reachable positions for property tests: positions from games of random plays."""

import random

from bgpi.rules import Position, legal_plays
from bgpi.rules.result import game_result


def random_positions(rng: random.Random, count: int) -> list[Position]:
    """``count`` positions met during games of random legal plays, the player on roll to move."""
    found: list[Position] = []
    pos = Position.initial()
    while len(found) < count:
        found.append(pos)
        play = rng.choice(legal_plays(pos, (rng.randint(1, 6), rng.randint(1, 6))))
        pos = Position.initial() if game_result(play.result) else play.result.swap()
    return found
