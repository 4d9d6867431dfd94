"""The tracker answers the untouched start before building its tree, and checks a committed
play against its index exactly as generating the legal plays would."""

import random

import pytest

from bgpi.base.geometry import Geometry
from bgpi.base.words import BLACK, WHITE, Player
from bgpi.rules import Move, Play, Position, apply_move, legal_plays
from bgpi.sensing import tracker as tracker_module
from bgpi.sensing.board import capacities, observe
from bgpi.sensing.tracker import Kind, TurnTracker
from tests.rules.games import random_positions

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
GEOMETRIES = [Geometry.default(), Geometry.default(point_slots=2)]


def turns(seed: int, count: int) -> list[tuple[Position, tuple[int, int], Player]]:
    rng = random.Random(seed)
    return [
        (pos, rng.choice(ROLLS), rng.choice((WHITE, BLACK))) for pos in random_positions(rng, count)
    ]


@pytest.mark.parametrize("geometry", GEOMETRIES, ids=["default", "two slots"])
def test_the_start_reads_the_same_before_and_after_the_tree_is_built(geometry: Geometry) -> None:
    caps = capacities(geometry)
    for start, roll, mover in [*turns(1, 150), (Position.from_id("AACAkCRJqqoAAA"), (1, 1), WHITE)]:
        lazy = TurnTracker(start, roll, mover, caps)
        first = lazy.read(observe(start, mover, caps))
        root = lazy.node(0)
        built = TurnTracker(start, roll, mover, caps)
        built.prepare()
        assert first == built.read(observe(start, mover, caps)), f"{start.id()} {roll}"
        assert root == built.tree.nodes[0]
        assert lazy.read(observe(start, mover, caps)) == first  # and once the tree is built


def test_the_start_is_answered_without_the_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: object) -> None:
        raise AssertionError("the tree was built to answer the start")

    monkeypatch.setattr(tracker_module, "partial_plays", refuse)
    caps = capacities(Geometry.default())
    heavy = Position.from_id("AACAkCRJqqoAAA")
    tracker = TurnTracker(heavy, (1, 1), WHITE, caps)
    reading = tracker.read(observe(heavy, WHITE, caps))
    assert reading.kind is Kind.AT_NODE and reading.nodes == (0,) and not reading.complete
    assert tracker.node(0).dice_left == (1, 1, 1, 1) and tracker.node(0).moves == ()


def test_a_dance_is_complete_at_the_start_without_the_tree() -> None:
    caps = capacities(Geometry.default())
    closed = Position.from_points({25: 2, 6: 13}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3})
    tracker = TurnTracker(closed, (3, 5), WHITE, caps)
    reading = tracker.read(observe(closed, WHITE, caps))
    assert reading.complete == (0,) and tracker.node(0).complete


@pytest.mark.parametrize("seed", range(3))
def test_every_legal_play_ends_at_a_complete_node(seed: int) -> None:
    caps = capacities(Geometry.default())
    for start, roll, mover in turns(seed, 60):
        tracker = TurnTracker(start, roll, mover, caps)
        for play in legal_plays(start, roll):
            node = tracker.ends_at(play.result)
            assert node is not None and tracker.node(node).complete
            assert tracker.play(node).result == play.result
            assert tracker.is_legal(play)


@pytest.mark.parametrize("seed", range(3))
def test_the_index_accepts_a_result_exactly_when_legal_plays_does(seed: int) -> None:
    caps = capacities(Geometry.default())
    for start, roll, mover in turns(10 + seed, 60):
        tracker = TurnTracker(start, roll, mover, caps)
        legal = {play.result for play in legal_plays(start, roll)}
        # Every state of the turn, complete or not, and each one's result one move further.
        for node in tracker.tree.nodes:
            assert (tracker.ends_at(node.result) is not None) == (node.result in legal)
            assert tracker.is_legal(Play(node.moves, node.result)) == (node.result in legal)


def test_a_play_whose_moves_do_not_leave_its_result_is_refused() -> None:
    caps = capacities(Geometry.default())
    start = Position.initial()
    tracker = TurnTracker(start, (3, 1), WHITE, caps)
    made = Play(
        (Move(8, 5, 3), Move(6, 5, 1)), apply_move(apply_move(start, Move(8, 5, 3)), Move(6, 5, 1))
    )
    assert tracker.is_legal(made)
    other = next(p for p in legal_plays(start, (3, 1)) if p.result != made.result)
    assert not tracker.is_legal(Play(made.moves, other.result))
    assert not tracker.is_legal(Play((Move(24, 20, 4),), made.result))  # no 4 in the roll
    assert not tracker.is_legal(Play((Move(8, 5, 3),), apply_move(start, Move(8, 5, 3))))


@pytest.mark.parametrize("seed", range(2))
def test_a_play_is_judged_the_same_before_and_after_the_tree_is_built(seed: int) -> None:
    caps = capacities(Geometry.default())
    for start, roll, mover in turns(20 + seed, 40):
        built = TurnTracker(start, roll, mover, caps)
        built.prepare()
        for node in built.tree.nodes:
            play = Play(node.moves, node.result)
            assert TurnTracker(start, roll, mover, caps).is_legal(play) == built.is_legal(play)
