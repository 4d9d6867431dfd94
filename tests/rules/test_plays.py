"""Legal plays: known answers worked by hand from the rules, and properties over random games."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgpi.rules import (
    BAR,
    OFF,
    InvalidDiceError,
    Move,
    Position,
    apply_move,
    format_play,
    legal_moves,
    legal_plays,
)
from bgpi.rules.result import GameResult, game_result
from tests.rules.games import random_positions


def notations(pos: Position, dice: tuple[int, int]) -> set[str]:
    return {format_play(play) for play in legal_plays(pos, dice)}


# The number of distinct plays from the starting position for every roll (gnubg agrees).
OPENING_COUNTS = {
    (1, 1): 42, (2, 1): 15, (2, 2): 75, (3, 1): 16, (3, 2): 17, (3, 3): 73,
    (4, 1): 14, (4, 2): 18, (4, 3): 17, (4, 4): 52, (5, 1): 8, (5, 2): 8,
    (5, 3): 9, (5, 4): 9, (5, 5): 4, (6, 1): 10, (6, 2): 14, (6, 3): 14,
    (6, 4): 14, (6, 5): 7, (6, 6): 11,
}  # fmt: skip


@pytest.mark.parametrize(("dice", "count"), sorted(OPENING_COUNTS.items()))
def test_counts_from_the_starting_position(dice: tuple[int, int], count: int) -> None:
    assert len(legal_plays(Position.initial(), dice)) == count
    assert len(legal_plays(Position.initial(), dice[::-1])) == count


def test_opening_plays_of_three_one() -> None:
    assert "8/5 6/5" in notations(Position.initial(), (3, 1))
    assert "24/21 24/23" not in notations(Position.initial(), (3, 1))  # printed back first
    assert "24/23 24/21" in notations(Position.initial(), (3, 1))


def test_heaviest_known_position() -> None:
    assert len(legal_plays(Position.from_id("AACAkCRJqqoAAA"), (1, 1))) == 2220


def test_larger_die_is_forced_when_only_one_can_be_played() -> None:
    # One checker on 13; after either die the other lands on the blocked 2 point.
    # The fourteen on the ace point cannot move: 13 is outside, so no bearing off.
    pos = Position.from_points({13: 1, 1: 14}, {23: 2, 6: 13})
    assert notations(pos, (6, 5)) == {"13/7"}
    assert notations(pos, (5, 6)) == {"13/7"}


def test_smaller_die_when_the_larger_cannot_be_played_at_all() -> None:
    pos = Position.from_points({13: 1, 1: 14}, {18: 2, 23: 2, 6: 11})  # 13/7 is blocked
    assert notations(pos, (6, 5)) == {"13/8"}


def test_both_dice_must_be_used_in_the_bear_off() -> None:
    # 3/2 first would leave the 3 unplayable (4 is higher, 1 is blocked): not allowed.
    pos = Position.from_points({4: 1, 3: 1}, {24: 2, 6: 13})
    plays = legal_plays(pos, (3, 1))
    assert {p.result.player[3] for p in plays} == {1}
    assert len(plays) == 1
    assert all(len(p.moves) == 2 for p in plays)


def test_die_larger_than_the_highest_point_bears_off_from_it() -> None:
    pos = Position.from_points({3: 1, 2: 1}, {6: 15})
    assert notations(pos, (6, 5)) == {"3/off 2/off"}


def test_die_larger_than_needed_may_not_bear_off_from_a_lower_point() -> None:
    pos = Position.from_points({5: 1, 2: 1}, {6: 15})
    assert legal_moves(pos, 6) == [Move(5, OFF, 6)]
    assert notations(pos, (6, 6)) == {"5/off 2/off"}


def test_both_dice_must_be_used_even_when_one_would_bear_off_the_last_checker() -> None:
    # 2/off with the 5 ends the game with one die; 2/1 1/off uses both, and must be played.
    pos = Position.from_id("52AC8gECAAAAAA")
    for dice in ((5, 1), (1, 5)):
        (play,) = legal_plays(pos, dice)
        assert [(m.src, m.dst, m.die) for m in play.moves] == [(2, 1, 1), (1, OFF, 5)]


def test_enter_two_from_the_bar_with_a_double() -> None:
    pos = Position.from_points({BAR: 2, 6: 13}, {6: 15})
    plays = legal_plays(pos, (4, 4))
    assert all(p.moves[0].src == BAR and p.moves[1].src == BAR for p in plays)
    assert all(len(p.moves) == 4 for p in plays)
    assert "bar/21(2) 6/2(2)" in {format_play(p) for p in plays}


def test_enter_three_from_the_bar_with_a_double() -> None:
    pos = Position.from_points({BAR: 3, 6: 12}, {6: 15})
    plays = legal_plays(pos, (2, 2))
    assert all([m.src for m in p.moves[:3]] == [BAR, BAR, BAR] for p in plays)
    assert {format_play(p) for p in plays} == {"bar/23(2) bar/21", "bar/23(3) 6/4"}


def test_three_on_the_bar_and_the_entry_point_closed_dance() -> None:
    pos = Position.from_points({BAR: 3, 6: 12}, {3: 2, 6: 13})  # their 3 is our 22
    plays = legal_plays(pos, (3, 3))
    assert len(plays) == 1 and plays[0].moves == () and plays[0].result == pos


def test_two_on_the_bar_and_only_one_enters() -> None:
    pos = Position.from_points({BAR: 2, 6: 13}, {6: 13, 5: 2})  # their 5 is our 20: closed
    assert notations(pos, (5, 3)) == {"bar/22"}


def test_dance_gives_one_empty_play() -> None:
    pos = Position.from_points({BAR: 1, 6: 14}, {6: 5, 5: 5, 4: 5})
    plays = legal_plays(pos, (6, 5))
    assert [p.moves for p in plays] == [()]
    assert format_play(plays[0]) == "no move"


def test_hit_during_bear_off() -> None:
    pos = Position.from_points({6: 2, 5: 2}, {22: 1, 6: 14})  # their 22 is our 3: a blot
    plays = legal_plays(pos, (3, 1))
    hitting = [p for p in plays if any(m.hit for m in p.moves)]
    assert hitting
    assert all(p.result.opponent[BAR] == 1 for p in hitting)
    assert "6/5 6/3*" in {format_play(p) for p in plays}


def test_a_hit_checker_stops_the_bear_off_until_it_is_home() -> None:
    # Entered on 19 it cannot go on (13 is closed), and the 6s may not bear off meanwhile.
    pos = Position.from_points({BAR: 1, 6: 14}, {12: 15})
    assert notations(pos, (6, 6)) == {"bar/19"}


def test_bear_off_starts_once_the_last_checker_is_home() -> None:
    pos = Position.from_points({7: 1, 6: 14}, {12: 15})
    assert "7/off" in notations(pos, (6, 1))  # 7/6, then 6/off in the same turn
    assert legal_moves(pos, 6) == [Move(7, 1, 6)]  # before it, no bearing off


def test_an_intermediate_hit_is_a_play_of_its_own() -> None:
    pos = Position.from_points({24: 1, 6: 14}, {4: 1, 6: 14})  # their 4 is our 21
    found = notations(pos, (3, 1))
    assert "24/21*/20" in found and "24/20" in found


def test_moves_record_the_hit() -> None:
    pos = Position.from_points({24: 1, 6: 14}, {4: 1, 6: 14})
    (play,) = [p for p in legal_plays(pos, (3, 1)) if format_play(p) == "24/21*/20"]
    assert play.moves == (Move(24, 21, 3, hit=True), Move(21, 20, 1))


@pytest.mark.parametrize("dice", [(0, 3), (7, 1), (1,), (1, 2, 3), (True, 2)])
def test_bad_dice_are_refused(dice: tuple[int, ...]) -> None:
    with pytest.raises(InvalidDiceError, match=r"die|two dice"):
        legal_plays(Position.initial(), dice)


def test_game_results() -> None:
    single = Position.from_points({}, {1: 10})
    gammon = Position.from_points({}, {6: 15})
    in_home = Position.from_points({}, {20: 1, 6: 14})  # their 20 is the winner's 5 point
    on_bar = Position.from_points({}, {BAR: 1, 6: 14})
    assert game_result(single) is GameResult.SINGLE
    assert game_result(gammon) is GameResult.GAMMON
    assert game_result(in_home) is GameResult.BACKGAMMON
    assert game_result(on_bar) is GameResult.BACKGAMMON
    assert game_result(Position.initial()) is None


# Properties over positions met in random games.
POSITIONS = random_positions(random.Random(2026), 400)
rolls = st.tuples(st.integers(1, 6), st.integers(1, 6))


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(POSITIONS), rolls)
def test_every_play_is_consistent(pos: Position, dice: tuple[int, int]) -> None:
    plays = legal_plays(pos, dice)
    results = [p.result for p in plays]
    assert len(set(results)) == len(results), "one play per distinct result"
    most = len(plays[0].moves)
    for play in plays:
        assert len(play.moves) == most, "every play uses the most dice possible"
        # Rebuilding the result move by move checks each step and the hits.
        step = pos
        for move in play.moves:
            step = apply_move(step, move)
        assert step == play.result
        # The validating constructor: 15 a side, never both colours on one point.
        assert Position(play.result.player, play.result.opponent) == play.result
        assert Position.from_id(play.result.id()) == play.result


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(POSITIONS), rolls)
def test_no_longer_play_exists(pos: Position, dice: tuple[int, int]) -> None:
    """Brute force over every order of single moves: nobody can use more dice."""
    plays = legal_plays(pos, dice)
    d1, d2 = dice
    orders = [(d1,) * 4] if d1 == d2 else [(d1, d2), (d2, d1)]

    def longest(p: Position, left: tuple[int, ...]) -> int:
        if not left:
            return 0
        return max(
            (1 + longest(apply_move(p, m), left[1:]) for m in legal_moves(p, left[0])),
            default=0,
        )

    assert len(plays[0].moves) == max(longest(pos, order) for order in orders)
