"""The tree builder against the one it replaced, kept here as the reference: the same nodes in
the same order (state, dice left, the moves of the first way there, complete), the same
children and the same parents, on every roll of many positions from random games.

The reference is the straightforward builder: breadth first over (packed position, dice left),
a generator of single moves that rescans every point, one object per node.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

import pytest

from bgpi.rules import Move, Position
from bgpi.rules import packed as pk
from bgpi.rules.dice import check_roll, dice_to_move
from bgpi.rules.plays import _MOVES
from bgpi.rules.tree import partial_plays
from tests.rules.games import random_positions

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
Node = tuple[tuple[Move, ...], int, tuple[int, ...], bool]
Reference = tuple[list[Node], list[list[tuple[Move, int]]], list[int]]


def reference_tree(pos: Position, dice: Sequence[int]) -> Reference:
    """(nodes, children, parents) as the replaced builder made them."""
    roll = check_roll(dice)
    start_dice = tuple(sorted(dice_to_move(roll), reverse=True))
    states: list[tuple[int, tuple[int, ...]]] = [(pk.pack(pos), start_dice)]
    paths: list[tuple[Move, ...]] = [()]
    parents = [-1]
    edges: list[list[tuple[Move, int]]] = [[]]
    levels = [[0]]
    while len(levels) <= len(start_dice):
        level: dict[tuple[int, tuple[int, ...]], int] = {}
        for parent in levels[-1]:
            for move, state in successors(*states[parent]):
                child = level.get(state)
                if child is None:
                    child = level[state] = len(states)
                    states.append(state)
                    paths.append((*paths[parent], move))
                    parents.append(parent)
                    edges.append([])
                edges[parent].append((move, child))
        if not level:
            break
        levels.append(list(level.values()))
    most = len(levels) - 1
    ends = levels[most]
    if most == 1 and roll[0] != roll[1]:
        ends = [i for i in ends if paths[i][0].die == max(roll)] or ends
    useful = [False] * len(states)
    for index in ends:
        useful[index] = True
    for indices in reversed(levels[:most]):
        for index in indices:
            useful[index] = any(useful[child] for _, child in edges[index])
    kept = [index for index, keep in enumerate(useful) if keep]
    number = {index: new for new, index in enumerate(kept)}
    nodes = [(paths[i], states[i][0], states[i][1], len(paths[i]) == most) for i in kept]
    children = [[(m, number[c]) for m, c in edges[i] if useful[c]] for i in kept]
    return nodes, children, [number.get(parents[i], -1) for i in kept]


def successors(state: int, left: tuple[int, ...]) -> Iterator[tuple[Move, tuple[int, ...]]]:
    for die in dict.fromkeys(left):
        index = left.index(die)
        rest = left[:index] + left[index + 1 :]
        for src in pk.sources(state):
            moved = pk.step(state, src, die)
            if moved is not None:
                after, _, hit = moved
                yield _MOVES[src][die][hit], (after, rest)


def same_as_reference(pos: Position, dice: tuple[int, int]) -> None:
    nodes, children, parents = reference_tree(pos, dice)
    tree = partial_plays(pos, dice)
    where = f"{pos.id()} {dice}"
    assert [(n.moves, n.state, n.dice_left, n.complete) for n in tree.nodes] == nodes, where
    assert [list(c) for c in tree.children] == children, where
    assert list(tree.parents) == parents, where
    assert [tree.node(i) for i in range(len(tree))] == list(tree.nodes), where


def test_the_heaviest_position() -> None:
    same_as_reference(Position.from_id("AACAkCRJqqoAAA"), (1, 1))


@pytest.mark.parametrize("seed", range(4))
def test_every_roll_of_random_game_positions(seed: int) -> None:
    for pos in random_positions(random.Random(1600 + seed), 120):
        for dice in ROLLS:
            same_as_reference(pos, dice)


def test_bear_offs_and_dances() -> None:
    rng = random.Random(16)
    for _ in range(300):
        mine = {p: rng.randint(0, 3) for p in rng.sample(range(1, 7), rng.randint(1, 4))}
        theirs = {p: rng.randint(0, 2) for p in rng.sample(range(1, 25), 4)}
        if rng.random() < 0.3:
            mine[25] = rng.randint(1, 2)
        if not any(mine.values()):
            continue
        try:
            pos = Position.from_points(mine, theirs)
        except ValueError:
            continue  # both sides on one point
        for dice in ROLLS:
            same_as_reference(pos, dice)
