"""gnubg's plays and cube decisions at its levels, through bgpi's engine."""

from __future__ import annotations

import pytest

from bgpi.engine import CubeAnswer, GnubgEngine, Level
from bgpi.rules import Match, MatchRules, Position, legal_plays, parse_play
from bgpi.rules.result import GameResult
from tests.engine.conftest import needs_gnubg
from tests.engine.gnubg_cli import LABELS, hint

pytestmark = needs_gnubg

MONEY = Match(MatchRules(0), state=Match.new(MatchRules(0)).opening_roll(3, 1).state, turn=0)

# Positions with a clear best play and others where the levels differ.
POSITIONS = [
    ("4HPwATDgc/ABMA", (6, 4)),  # the opening 6-4: expert runs, world class splits
    ("4HPwATDgc/ABMA", (2, 1)),
    ("4HPwATDgc/ABMA", (5, 2)),
    ("4HPwATDgc/ABMA", (4, 4)),
    ("jGfkASjg8wcBEA", (5, 3)),
    ("sGfwgQDg88CAAA", (6, 2)),
    ("3HsPAADb3Q0AAA", (6, 5)),  # a bear-off
]


@pytest.mark.parametrize("level", [Level.BEGINNER, Level.EXPERT, Level.WORLDCLASS])
@pytest.mark.parametrize(("position_id", "dice"), POSITIONS)
def test_the_play_is_gnubgs_best_at_that_level(
    level: Level, position_id: str, dice: tuple[int, int]
) -> None:
    position = Position.from_id(position_id)
    engine = GnubgEngine(level)
    try:
        play = engine.choose_play(position, dice, MONEY)
    finally:
        engine.close()
    best, label = hint(position_id, dice, level)
    assert label == LABELS[level]  # gnubg recognises the settings as that level
    assert play in legal_plays(position, dice)
    assert play.result == parse_play(position, dice, best).result


def test_known_opening_plays_at_expert(expert: GnubgEngine) -> None:
    start = Position.initial()
    known = {(3, 1): "8/5 6/5", (4, 2): "8/4 6/4", (6, 1): "13/7 8/7", (6, 5): "24/13"}
    for dice, text in known.items():
        assert str(expert.choose_play(start, dice, MONEY)) == text


def test_levels_are_gnubgs_and_differ_where_gnubg_says() -> None:
    start = Position.initial()
    chosen = {}
    for level in (Level.EXPERT, Level.WORLDCLASS):
        engine = GnubgEngine(level)
        chosen[level] = str(engine.choose_play(start, (6, 4), MONEY))
        engine.close()
    assert chosen == {Level.EXPERT: "24/14", Level.WORLDCLASS: "24/18 13/9"}


def test_cube_decisions_in_known_positions(expert: GnubgEngine) -> None:
    start = expert.cube_decision(Position.initial(), MONEY)
    assert (start.double, start.answer, start.words) == (False, CubeAnswer.TAKE, "No double, take")
    # A race of 60 pips against 69, the player on roll to move: double, and the other drops.
    close = Position.from_points({6: 3, 5: 3, 4: 3, 3: 3, 2: 3}, {6: 4, 5: 4, 4: 4, 3: 3})
    decision = expert.cube_decision(close, MONEY)
    assert (decision.double, decision.answer, decision.words) == (
        True,
        CubeAnswer.DROP,
        "Double, pass",
    )
    # Twice as far ahead: too good to double, play on for the gammon-free win.
    far = Position.from_points({6: 3, 5: 3, 4: 3, 3: 3, 2: 3}, {6: 5, 5: 5, 13: 5})
    assert expert.cube_decision(far, MONEY).words == "Too good to double, pass"


def test_the_cube_is_judged_at_the_match_score(expert: GnubgEngine) -> None:
    """At 4-away 4-away a double in a middling race is a take; trailing 1-away-4-away in the
    Crawford game nobody may double, and gnubg knows the cube is dead."""
    close = Position.from_points({6: 3, 5: 3, 4: 3, 3: 3, 2: 3}, {6: 4, 5: 4, 4: 4, 3: 3})
    match = Match(MatchRules(5), state=MONEY.state, turn=0)
    assert expert.cube_decision(close, match).double
    crawford = Match(MatchRules(5), (4, 1), state=MONEY.state, turn=1, crawford_game=True)
    assert not expert.cube_decision(close, crawford).double


def test_resigns_what_is_lost_and_accepts_what_is_fair(expert: GnubgEngine) -> None:
    hopeless = Position.from_points({20: 15}, {1: 1})
    assert expert.resignation(hopeless, MONEY) is GameResult.BACKGAMMON
    assert expert.resignation(Position.initial(), MONEY) is None
    winning = Position(hopeless.opponent, hopeless.player)
    assert expert.accepts(winning, MONEY, GameResult.BACKGAMMON)
    assert not expert.accepts(winning, MONEY, GameResult.SINGLE)
