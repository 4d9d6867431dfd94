"""GNU Backgammon as an oracle: the same legal plays and the same Position IDs.

gnubg is in the dev extra, so CI runs this; it is skipped only where gnubg is not installed.
"""

import random

import pytest

from bgpi.rules import Position, legal_plays
from tests.rules.games import random_positions

gnubg = pytest.importorskip("gnubg", reason="the gnubg package (dev extra) is not installed")

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
# A centred cube in money play, given in full: the module's defaults are its current match's,
# which a test that imported a finished match into it leaves behind.
MONEY = gnubg.cubeinfo(1, -1, 0, 0, (0, 0), 0, 0)


def gnubg_plays(pos: Position, dice: tuple[int, int]) -> tuple[int, set[str] | None]:
    """How many plays gnubg finds, and the Position IDs of their results (its boards:
    [opponent, player], points 1-24 then the bar).

    The binding ends a play's move list at its first bear-off (it writes off as 0, which ends
    the list), so the results are known only when no play bears off: None otherwise.
    """
    board = (pos.opponent[1:], pos.player[1:])
    context = gnubg.evalcontext(0, 0, 0, 0, 0.0)
    found = gnubg.find_best_moves(board, MONEY, context, dice)
    results: set[str] | None = set()
    for entry in found:
        steps = entry["move"]
        if len(steps) % 2 or results is None:
            results = None
            continue
        player, opponent = list(pos.player), list(pos.opponent)
        for src, dst in zip(steps[::2], steps[1::2], strict=True):
            player[src] -= 1
            player[dst] += 1
            if opponent[25 - dst] == 1:
                opponent[25 - dst], opponent[25] = 0, opponent[25] + 1
        results.add(Position(tuple(player), tuple(opponent)).id())
    if not found and results is not None:
        results.add(pos.id())
    return max(len(found), 1), results


def agree(pos: Position, dice: tuple[int, int]) -> None:
    mine = {p.result.id() for p in legal_plays(pos, dice)}
    count, theirs = gnubg_plays(pos, dice)
    assert len(mine) == count, f"{pos.id()} {dice}"
    if theirs is not None:
        assert mine == theirs, f"{pos.id()} {dice}"


def test_position_ids_agree_with_gnubg() -> None:
    for pos in random_positions(random.Random(5), 200):
        assert gnubg.positionid((pos.opponent[1:], pos.player[1:])) == pos.id()
        board = gnubg.positionfromid(pos.id())
        assert (tuple(board[1]), tuple(board[0])) == (pos.player[1:], pos.opponent[1:])


def test_heaviest_position_agrees_with_gnubg() -> None:
    agree(Position.from_id("AACAkCRJqqoAAA"), (1, 1))


@pytest.mark.parametrize("seed", range(4))
def test_legal_plays_agree_with_gnubg_in_random_games(seed: int) -> None:
    rng = random.Random(seed)
    for pos in random_positions(rng, 60):
        for dice in rng.sample(ROLLS, 6):
            agree(pos, dice)


def bear_off_positions(rng: random.Random, count: int) -> list[Position]:
    """Races near their end: a few checkers home each, where one die can end the game."""
    found = []
    while len(found) < count:
        mine = {point: rng.randint(0, 2) for point in rng.sample(range(1, 7), rng.randint(1, 3))}
        theirs = {point: rng.randint(0, 3) for point in rng.sample(range(1, 7), 3)}
        if not any(mine.values()) or not any(theirs.values()):
            continue
        found.append(Position.from_points(mine, theirs))
    return found


def test_bear_offs_agree_with_gnubg() -> None:
    for pos in bear_off_positions(random.Random(9), 150):
        for dice in ROLLS:
            agree(pos, dice)
