"""Move notation: printing, reading back, and refusing what cannot be read or played."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgpi.rules import (
    BAR,
    AmbiguousPlayError,
    IllegalPlayError,
    InvalidNotationError,
    Move,
    Position,
    format_moves,
    legal_plays,
    parse_play,
)
from tests.rules.games import random_positions


@pytest.mark.parametrize(
    ("moves", "text"),
    [
        ((Move(24, 18, 6), Move(13, 11, 2, hit=True)), "24/18 13/11*"),
        ((Move(BAR, 22, 3), Move(BAR, 22, 3)), "bar/22(2)"),
        ((Move(6, 0, 6),), "6/off"),
        ((Move(24, 23, 1, hit=True), Move(23, 22, 1)), "24/23*/22"),
        ((Move(24, 23, 1), Move(23, 22, 1)), "24/22"),
        (
            (Move(8, 2, 6, hit=True), Move(8, 2, 6), Move(6, 0, 6), Move(6, 0, 6)),
            "8/2*(2) 6/off(2)",
        ),
        ((), ""),
    ],
)
def test_format(moves: tuple[Move, ...], text: str) -> None:
    assert format_moves(moves) == text


def test_parse_opening_play() -> None:
    play = parse_play(Position.initial(), (3, 1), "8/5 6/5")
    assert play.result.player[5] == 2
    assert parse_play(Position.initial(), (1, 3), "6/5 8/5").result == play.result


def test_parse_reads_bar_off_and_counts() -> None:
    pos = Position.from_points({BAR: 2, 6: 13}, {6: 15})
    play = parse_play(pos, (4, 4), "bar/21(2) 6/2(2)")
    assert play.result.player[21] == 2 and play.result.player[2] == 2
    assert parse_play(pos, (4, 4), "25/21(2) 6/2(2)") == play


def test_parse_intermediate_hit_is_explicit() -> None:
    pos = Position.from_points({24: 1, 6: 14}, {4: 1, 6: 14})
    hit = parse_play(pos, (3, 1), "24/21*/20")
    quiet = parse_play(pos, (3, 1), "24/20")
    assert hit.result.opponent[BAR] == 1 and quiet.result.opponent[BAR] == 0


def test_landing_on_a_blot_hits_with_or_without_star() -> None:
    pos = Position.from_points({24: 1, 6: 14}, {4: 1, 6: 14})
    assert parse_play(pos, (3, 1), "24/21* 6/5") == parse_play(pos, (3, 1), "24/21 6/5")


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("13/7 13/7", IllegalPlayError, "not a legal play"),
        ("13/10 13/12", IllegalPlayError, "not a legal play"),
        ("5/1 5/4", IllegalPlayError, "more checkers from 5"),
        ("8/5* 6/5", IllegalPlayError, "no blot to hit on 5"),
        ("8/9 6/5", InvalidNotationError, "towards home"),
        ("8-5 6-5", InvalidNotationError, "'8-5' is not a point"),
        ("8/5 6", InvalidNotationError, "start and an end"),
        ("8/5 6/5 x", InvalidNotationError, "'x' in 'x' is not a point"),
        ("30/27 6/5", InvalidNotationError, "point 30"),
        ("no move", IllegalPlayError, "can be played"),
    ],
)
def test_bad_notation_is_refused(text: str, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        parse_play(Position.initial(), (3, 1), text)


def test_no_move_parses_when_nothing_can_move() -> None:
    pos = Position.from_points({BAR: 1, 6: 14}, {6: 5, 5: 5, 4: 5})
    assert parse_play(pos, (6, 5), "no move").moves == ()


def test_errors_are_value_errors() -> None:
    assert issubclass(AmbiguousPlayError, ValueError)
    with pytest.raises(ValueError, match="4HPwATDgc/ABMA"):
        parse_play(Position.initial(), (3, 1), "24/18")


POSITIONS = random_positions(random.Random(7), 300)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(POSITIONS), st.tuples(st.integers(1, 6), st.integers(1, 6)), st.data())
def test_round_trip(pos: Position, dice: tuple[int, int], data: st.DataObject) -> None:
    play = data.draw(st.sampled_from(legal_plays(pos, dice)))
    assert parse_play(pos, dice, str(play)).result == play.result
