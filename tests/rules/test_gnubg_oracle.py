"""GNU Backgammon as an oracle: the same legal plays and the same Position IDs.

gnubg is in the dev extra, so CI runs this; it is skipped only where gnubg is not installed.
"""

import random

import pytest

from bgpi.rules import OFF, Position, legal_plays
from tests.rules.games import random_positions

gnubg = pytest.importorskip("gnubg", reason="the gnubg package (dev extra) is not installed")

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def gnubg_results(pos: Position, dice: tuple[int, int]) -> set[str]:
    """Position IDs of the results of every play gnubg finds (its boards: [opponent, player],
    points 1-24 then the bar)."""
    board = (pos.opponent[1:], pos.player[1:])
    context = gnubg.evalcontext(0, 0, 0, 0, 0.0)
    found = gnubg.find_best_moves(board, gnubg.cubeinfo(), context, dice)
    results = set()
    for entry in found:
        player, opponent = list(pos.player), list(pos.opponent)
        steps = entry["move"]
        for src, to in zip(steps[::2], steps[1::2], strict=True):
            dst = max(to, OFF)
            player[src] -= 1
            player[dst] += 1
            if dst != OFF and opponent[25 - dst] == 1:
                opponent[25 - dst], opponent[25] = 0, opponent[25] + 1
        results.add(Position(tuple(player), tuple(opponent)).id())
    if not found:
        results.add(pos.id())
    return results


def test_position_ids_agree_with_gnubg() -> None:
    for pos in random_positions(random.Random(5), 200):
        assert gnubg.positionid((pos.opponent[1:], pos.player[1:])) == pos.id()
        board = gnubg.positionfromid(pos.id())
        assert (tuple(board[1]), tuple(board[0])) == (pos.player[1:], pos.opponent[1:])


def test_heaviest_position_agrees_with_gnubg() -> None:
    pos = Position.from_id("AACAkCRJqqoAAA")
    assert {p.result.id() for p in legal_plays(pos, (1, 1))} == gnubg_results(pos, (1, 1))


@pytest.mark.parametrize("seed", range(4))
def test_legal_plays_agree_with_gnubg_in_random_games(seed: int) -> None:
    rng = random.Random(seed)
    for pos in random_positions(rng, 60):
        for dice in rng.sample(ROLLS, 6):
            mine = {p.result.id() for p in legal_plays(pos, dice)}
            assert mine == gnubg_results(pos, dice), f"{pos.id()} {dice}"
