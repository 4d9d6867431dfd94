"""The move tracker, driven by hands on the simulated board."""

import random

import pytest

from bgpi.base.geometry import Geometry
from bgpi.base.words import BAR_BLACK, BAR_WHITE, BLACK, TRAY_WHITE, WHITE
from bgpi.rules import BAR, OFF, Position, format_play, legal_plays, parse_play
from bgpi.sensing.board import capacities, check_board, observe
from bgpi.sensing.tracker import Kind, TurnTracker
from tests.rules.games import random_positions
from tests.sensing.hands import Turn, position_on, rule_order


def complete_plays(turn: Turn) -> set[str]:
    return {format_play(turn.tracker.play(i)) for i in turn.reading.complete}


def test_opening_play_by_hand() -> None:
    turn = Turn(Position.initial(), (3, 1))
    assert turn.reading.kind is Kind.AT_NODE and turn.reading.nodes == (0,)
    lifted = turn.lift(8)
    assert lifted.kind is Kind.IN_FLIGHT
    assert lifted.lifted == {8}
    assert lifted.destinations == {7, 5, 4}
    assert turn.place(5).kind is Kind.AT_NODE
    assert turn.move(6, 5).complete
    assert complete_plays(turn) == {"8/5 6/5"}


def test_black_moves_in_printed_numbering() -> None:
    turn = Turn(Position.initial(), (6, 5), mover=BLACK)
    reading = turn.lift(24)  # Black's 24 point is printed point 1
    assert reading.lifted == {1}
    # Black's 24/18 lands on printed 7 and 24/13 on printed 12; the 5 (printed 6) is closed.
    assert reading.destinations == {7, 12}
    turn.place(13)
    assert turn.reading.kind is Kind.AT_NODE and turn.reading.complete


def test_lifting_and_putting_back_returns_to_the_start() -> None:
    turn = Turn(Position.initial(), (6, 4))
    assert turn.lift(13).kind is Kind.IN_FLIGHT
    assert turn.place(13).nodes == (0,)


def test_the_same_checker_moved_twice() -> None:
    turn = Turn(Position.initial(), (6, 5))
    turn.move(24, 18)
    reading = turn.lift(18)
    # The board now looks like "a checker lifted from 24": 18 is a legal place for it too.
    assert reading.destinations == {13, 18}
    turn.place(13)
    assert complete_plays(turn) == {"24/13"}


def test_one_checker_moved_by_both_dice_in_one_go() -> None:
    turn = Turn(Position.initial(), (6, 5))
    assert turn.lift(24).destinations == {18, 13}  # 24/19 lands on their 6 point: closed
    turn.place(13)
    assert complete_plays(turn) == {"24/13"}


@pytest.mark.parametrize("style", range(3))
def test_hits_in_any_order(style: int) -> None:
    start = Position.from_points({24: 2, 13: 5, 8: 3, 6: 5}, {4: 1, 6: 14})  # blot on our 21
    play = parse_play(start, (3, 1), "24/21* 6/5")
    turn = Turn(start, (3, 1))
    rng = random.Random()
    rng.randrange = lambda n: style  # type: ignore[method-assign]
    turn.hand_move(play.moves[0] if play.moves[0].hit else play.moves[1], rng)
    assert turn.reading.kind is Kind.AT_NODE
    assert turn.board.checkers(BAR_BLACK) == (BLACK,)
    assert all(r.kind is not Kind.WRONG for r in turn.readings)
    turn.move(6, 5)
    assert complete_plays(turn) == {"24/21* 6/5"}


def test_blot_lifted_is_in_flight_and_the_hitter_may_land_there() -> None:
    start = Position.from_points({24: 2, 13: 5, 8: 3, 6: 5}, {4: 1, 6: 14})
    turn = Turn(start, (3, 1))
    reading = turn.lift_blot(21)
    assert reading.kind is Kind.IN_FLIGHT and reading.lifted == {21}
    assert turn.blot_to_bar().kind is Kind.IN_FLIGHT
    assert turn.lift(24).destinations >= {21, 20}


def test_entering_from_the_bar() -> None:
    start = Position.from_points({BAR: 1, 13: 5, 8: 4, 6: 5}, {6: 15})
    turn = Turn(start, (4, 2))
    reading = turn.lift(BAR)
    assert reading.lifted == {BAR_WHITE}
    assert reading.destinations == {21, 23}  # 19, both dice, is their 6 point: closed
    turn.place(21)
    assert turn.lift(13).kind is Kind.IN_FLIGHT
    turn.place(11)
    assert complete_plays(turn) == {"bar/21 13/11"}


def test_bear_off_without_tray_sensors() -> None:
    start = Position.from_points({6: 2, 5: 3, 3: 2}, {18: 15})
    turn = Turn(start, (6, 5))
    assert turn.lift(6).destinations >= {TRAY_WHITE}  # "off", lit on the tray's LEDs
    turn.place(OFF)
    turn.move(5, OFF)
    assert complete_plays(turn) == {"6/off 5/off"}


def test_bear_off_with_tray_sensors() -> None:
    geometry = Geometry.default(tray_slots=15)
    start = Position.from_points({6: 2, 5: 3, 3: 2}, {18: 15})
    turn = Turn(start, (6, 5), geometry=geometry)
    assert turn.lift(6).destinations == {TRAY_WHITE, 1}
    turn.place(OFF)
    assert turn.board.checkers(TRAY_WHITE) == (WHITE,) * 9  # eight were off already
    turn.move(5, OFF)
    assert complete_plays(turn) == {"6/off 5/off"}


def test_forced_larger_die() -> None:
    start = Position.from_points({13: 1, 1: 14}, {23: 2, 6: 13})
    turn = Turn(start, (6, 5))
    assert turn.lift(13).destinations == {7}
    assert turn.place(8).kind is Kind.WRONG  # the smaller die is not allowed here
    turn.lift(8)
    assert complete_plays(Turn(start, (6, 5))) == set()
    turn.place(7)
    assert complete_plays(turn) == {"13/7"}


def test_dance_is_complete_at_once() -> None:
    start = Position.from_points({BAR: 1, 6: 14}, {6: 5, 5: 5, 4: 5})
    turn = Turn(start, (6, 5))
    assert turn.reading.complete == (0,)


def test_passing_over_points_on_the_way() -> None:
    turn = Turn(Position.initial(), (6, 5))
    turn.board.slide(13, 7, colour=WHITE)  # passes over 12..8, each for a moment
    turn.wait()
    turn.board.slide(13, 8, colour=WHITE)
    assert turn.wait().complete
    assert complete_plays(turn) == {"13/8 13/7"}
    assert all(r.kind is not Kind.WRONG for r in turn.readings)


def test_bounce_noise_settles_to_the_right_state() -> None:
    turn = Turn(Position.initial(), (3, 1), bounce=0.01, jitter=0.01, seed=3)
    turn.move(8, 5)
    turn.move(6, 5)
    assert complete_plays(turn) == {"8/5 6/5"}
    assert all(r.kind is not Kind.WRONG for r in turn.readings)


def test_a_bumped_checker_is_wrong_until_straightened() -> None:
    turn = Turn(Position.initial(), (3, 1))
    turn.board.knock(13, by=None)  # falls askew: its switch opens
    reading = turn.wait()
    assert reading.kind is Kind.IN_FLIGHT or reading.kind is Kind.WRONG
    turn.board.knock(6, by=None)
    turn.board.knock(8, by=None)
    reading = turn.wait()
    assert reading.kind is Kind.WRONG
    assert reading.diff.missing == ((6, 1), (8, 1), (13, 1))
    for zone in (6, 8, 13):
        turn.board.straighten(zone)
    assert turn.wait().nodes == (0,)


def test_the_opponents_checker_moved_by_mistake() -> None:
    turn = Turn(Position.initial(), (3, 1))
    turn.board.lift(19, BLACK)  # Black's 6 point
    turn.board.place(20, BLACK)
    reading = turn.wait()
    assert reading.kind is Kind.WRONG
    assert reading.diff.extra == ((20, 1),) and reading.diff.missing == ((19, 1),)


def test_wrong_guidance_points_back_to_the_last_legal_state() -> None:
    turn = Turn(Position.initial(), (3, 1))
    turn.move(8, 5)
    turn.move(6, 2)  # 6/2 is not a 1
    reading = turn.reading
    assert reading.kind is Kind.WRONG
    assert reading.diff.extra == ((2, 1),) and reading.diff.missing == ((6, 1),)
    assert format_play(turn.tracker.play(reading.nodes[0])) == "8/5"


def test_stacks_above_the_slots_give_candidates() -> None:
    geometry = Geometry.default(point_slots=2)
    start = Position.from_points({8: 3, 7: 3, 6: 3, 5: 3, 4: 3}, {6: 15})
    turn = Turn(start, (5, 4), geometry=geometry)
    turn.move(8, 3)
    turn.move(5, 1)
    assert complete_plays(turn) == {"8/3 5/1", "7/3 6/1"}


def test_a_checker_lifted_from_a_full_stack_is_not_seen() -> None:
    start = Position.from_points({6: 7, 8: 8}, {6: 15})
    turn = Turn(start, (2, 1))
    reading = turn.lift(6)  # the seventh: no switch opens
    assert reading.kind is Kind.AT_NODE and 0 in reading.nodes
    assert turn.board.counts()[6] == 6


def test_board_check_against_any_position() -> None:
    caps = capacities(Geometry.default())
    obs = observe(Position.initial(), WHITE, caps)
    assert check_board(obs, Position.initial(), WHITE, caps).ok
    moved = list(obs)
    moved[24] -= 1
    moved[23] += 1
    diff = check_board(tuple(moved), Position.initial(), WHITE, caps)
    assert diff.extra == ((23, 1),) and diff.missing == ((24, 1),)
    assert diff.apply(tuple(moved)) == obs


# Properties over random games.


def random_starts(seed: int, count: int) -> list[tuple[Position, tuple[int, int], int]]:
    rng = random.Random(seed)
    return [
        (pos, (rng.randint(1, 6), rng.randint(1, 6)), rng.choice((WHITE, BLACK)))
        for pos in random_positions(rng, count)
    ]


@pytest.mark.parametrize("seed", range(6))
def test_random_hand_sequences_end_at_the_play(seed: int) -> None:
    rng = random.Random(seed)
    for start, roll, mover in random_starts(seed, 40):
        play = rng.choice(legal_plays(start, roll))
        turn = Turn(start, roll, mover=mover, bounce=0.004, jitter=0.01, seed=seed)
        caps = capacities(turn.geometry)
        for move in rule_order(start, play, rng):
            turn.hand_move(move, rng)
            # Hands empty: an "at node" answer must be the board's real position.
            real = position_on(turn.board, mover)
            if turn.reading.kind is Kind.AT_NODE and real is not None:
                shown = {turn.tracker.tree.nodes[i].result for i in turn.reading.nodes}
                unseen = any(c > cap for c, cap in zip(turn.board.counts(), caps, strict=True))
                assert real in shown or unseen
        assert turn.reading.kind is Kind.AT_NODE
        results = {turn.tracker.tree.nodes[i].result for i in turn.reading.complete}
        assert play.result in results, f"{start.id()} {roll} {format_play(play)}"


@pytest.mark.parametrize("seed", range(4))
def test_random_illegal_placements_are_wrong_and_the_diff_restores_a_legal_state(
    seed: int,
) -> None:
    rng = random.Random(100 + seed)
    caps = capacities(Geometry.default())
    for start, roll, mover in random_starts(seed, 25):
        tracker = TurnTracker(start, roll, mover, caps)
        obs = list(observe(start, mover, caps))
        # Move one, two or three checkers from random occupied zones to random points.
        for _ in range(rng.randint(1, 3)):
            src = rng.choice([z for z in range(1, 27) if obs[z]])
            dst = rng.choice([z for z in range(1, 25) if obs[z] < caps[z]])
            obs[src] -= 1
            obs[dst] += 1
        reading = tracker.read(tuple(obs), near=0)
        if reading.kind is Kind.WRONG:
            fixed = reading.diff.apply(tuple(obs))
            assert tracker.read(fixed).kind is Kind.AT_NODE
        else:
            # It fits something legal: then it must really be a legal state or a hand away.
            assert reading.nodes
