"""The tree of partial plays agrees exactly with legal_plays, and holds only legal prefixes."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bgpi.rules import Position, apply_move, legal_plays
from bgpi.rules.tree import partial_plays
from tests.rules.games import random_positions

POSITIONS = random_positions(random.Random(11), 300)
rolls = st.tuples(st.integers(1, 6), st.integers(1, 6))


def test_opening_three_one() -> None:
    tree = partial_plays(Position.initial(), (3, 1))
    assert tree.root.result == Position.initial() and tree.root.dice_left == (3, 1)
    assert len(list(tree.complete())) == 16
    # 24/21 may start a play (24/21 21/20 or 24/21 24/23 ...); 24/20 with one die cannot.
    first = {move for move, _ in tree.children[0]}
    assert {(m.src, m.dst) for m in first} >= {(24, 21), (24, 23), (8, 5), (6, 5), (13, 10)}


def test_only_the_larger_die_may_start_when_only_one_can_be_played() -> None:
    pos = Position.from_points({13: 1, 1: 14}, {23: 2, 6: 13})
    tree = partial_plays(pos, (6, 5))
    assert [(m.src, m.dst) for m, _ in tree.children[0]] == [(13, 7)]
    assert [node.complete for node in tree.nodes] == [False, True]


def test_a_move_that_would_block_the_other_die_is_not_in_the_tree() -> None:
    pos = Position.from_points({4: 1, 3: 1}, {24: 2, 6: 13})
    tree = partial_plays(pos, (3, 1))
    assert (3, 2) not in {(m.src, m.dst) for m, _ in tree.children[0]}


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(POSITIONS), rolls)
def test_tree_and_legal_plays_agree(pos: Position, dice: tuple[int, int]) -> None:
    tree = partial_plays(pos, dice)
    assert {n.result for n in tree.complete()} == {p.result for p in legal_plays(pos, dice)}
    assert len(list(tree.complete())) == len(legal_plays(pos, dice))


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(POSITIONS), rolls)
def test_every_edge_is_a_legal_move_and_every_node_leads_on(
    pos: Position, dice: tuple[int, int]
) -> None:
    tree = partial_plays(pos, dice)
    for index, node in enumerate(tree.nodes):
        assert node.complete or tree.children[index], "a dead end is not a legal prefix"
        for move, child in tree.children[index]:
            assert apply_move(node.result, move) == tree.nodes[child].result
            assert len(tree.nodes[child].dice_left) == len(node.dice_left) - 1
