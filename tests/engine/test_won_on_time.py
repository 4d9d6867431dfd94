"""A match won on time (a flag fell) or by forfeit, as gnubg imports its ``.mat``: the game
in play ended by the winner's ``Wins`` line, which gnubg reads as the loser resigning, so
gnubg's score shows the winner's match wherever a resignation of one game can reach it."""

from __future__ import annotations

import re
from pathlib import Path

from bgpi.base.words import BLACK, WHITE
from bgpi.journal.export import export_mat
from bgpi.journal.records import (
    CubeAction,
    FlagFell,
    Forfeit,
    GameStarted,
    MatchStarted,
    OpeningDie,
    OpeningRolled,
    Played,
    Record,
    Rolled,
    Seat,
)
from bgpi.rules import Position, parse_play
from bgpi.rules.clock import ClockMode, ClockRules
from bgpi.sim.demo import PipPlayer, play_match
from tests.engine.conftest import needs_gnubg
from tests.engine.gnubg_cli import imported_score

pytestmark = needs_gnubg

USBGF = ClockRules(ClockMode.USBGF)


def gnubg_score(mat: str, tmp_path: Path) -> tuple[int, int, int]:
    """White's and Black's score and the match length, as gnubg shows them after importing
    ``mat``."""
    path = tmp_path / "match.mat"
    path.write_text(mat, encoding="utf-8")
    out = imported_score(path).replace("\n", " ")
    found = re.search(r"is: \S+ (\d+), \S+ (\d+) \(match to (\d+) points?\)", out)
    assert found, out[-1500:]
    white, black, length = map(int, found.groups())
    return white, black, length


def opened(length: int, **start: object) -> list[Record]:
    """A match begun: White's opening 31 played (8/5 6/5), Black on roll."""
    play = parse_play(Position.initial(), (3, 1), "8/5 6/5")
    return [
        MatchStarted(length, **start),  # type: ignore[arg-type]
        GameStarted(),
        OpeningDie(WHITE, 3),
        OpeningDie(BLACK, 1),
        OpeningRolled(3, 1),
        Played.of(WHITE, play.moves),
    ]


def test_a_slow_players_fall_imports_as_the_opponents_match(tmp_path: Path) -> None:
    sides = (PipPlayer(thinks=400.0), PipPlayer())
    start = MatchStarted(3, names=("Slow", "Quick"), clock=USBGF)
    sim = play_match(start, seed=4, say=lambda _: None, sides=sides)
    mat = export_mat(sim.driver.log)
    assert "Slow's time ran out; Quick wins the match on time\n" in mat
    assert mat.rstrip().endswith("Wins 3 points and the match")
    assert gnubg_score(mat, tmp_path) == (0, 3, 3)


def test_the_fewest_cube_values_that_reach_the_match_are_resigned(tmp_path: Path) -> None:
    # Black doubled, White took: Black's flag falls on the cube at 2; White lacks 5 points,
    # which a single (2) or a gammon (4) does not reach and a backgammon (6) does.
    records = [
        *opened(5, clock=USBGF),
        CubeAction(BLACK, "double"),
        CubeAction(WHITE, "take"),
        FlagFell(BLACK),
    ]
    mat = export_mat(records)
    assert mat.startswith("; Game 1, line 2: Black's time ran out; White wins the match on time\n")
    assert mat.rstrip().endswith("  2)  Takes\n      Wins 6 points and the match")
    assert gnubg_score(mat, tmp_path) == (6, 0, 5)


def test_a_fall_while_a_double_waits_for_its_answer_resigns_at_the_cube_before_it(
    tmp_path: Path,
) -> None:
    records = [*opened(3, clock=USBGF), CubeAction(BLACK, "double"), FlagFell(WHITE)]
    mat = export_mat(records)
    assert mat.rstrip().endswith(
        "Doubles => 2\n                                  Wins 3 points and the match"
    )
    assert gnubg_score(mat, tmp_path) == (0, 3, 3)


def test_a_fall_that_one_game_cannot_give_says_so_and_gnubg_shows_the_backgammon(
    tmp_path: Path,
) -> None:
    records = [*opened(7, clock=USBGF), Rolled(BLACK, (6, 4)), FlagFell(BLACK)]
    mat = export_mat(records)
    first = mat.splitlines()[0]
    assert first.startswith("; Game 1, line 1: Black's time ran out; White wins the match on time")
    assert "a backgammon resigned, 3 points" in first and "its score stays short" in first
    # Black's roll, not played, is left out: gnubg would read it as a play of no move.
    assert "64:" not in mat and mat.rstrip().endswith("Wins 3 points")
    assert gnubg_score(mat, tmp_path) == (3, 0, 7)


def test_overtime_given_ends_no_game(tmp_path: Path) -> None:
    overtime = ClockRules(ClockMode.USBGF, overtime=60)
    records = [*opened(3, clock=overtime), FlagFell(BLACK, overtime=True)]
    mat = export_mat(records)
    assert "Black's time ran out; overtime given" in mat and "Wins" not in mat
    assert gnubg_score(mat, tmp_path) == (0, 0, 3)


def test_a_forfeit_mid_game_imports_as_the_winners_match(tmp_path: Path) -> None:
    remote = {"seats": (Seat.PERSON, Seat.REMOTE)}
    mat = export_mat([*opened(3, **remote), Forfeit(WHITE)])
    assert mat.startswith("; White wins the match by forfeit in game 1: Black's board fell")
    assert gnubg_score(mat, tmp_path) == (3, 0, 3)
    # Crossed claims: the last one settles it, and the game ends once, in its winner's name.
    crossed = export_mat([*opened(3, **remote), Forfeit(WHITE), Forfeit(BLACK)])
    assert crossed.startswith("; Black wins the match by forfeit in game 1")
    assert crossed.count("Wins") == 1
    assert gnubg_score(crossed, tmp_path) == (0, 3, 3)


def test_a_forfeit_before_the_opening_roll_says_gnubg_cannot_show_it(tmp_path: Path) -> None:
    start = MatchStarted(3, seats=(Seat.PERSON, Seat.REMOTE))
    mat = export_mat([start, GameStarted(), Forfeit(WHITE)])
    assert mat.splitlines()[0].endswith(
        "(before the game's opening roll: gnubg's score stays as the games left it)"
    )
    assert "Wins" not in mat
    assert gnubg_score(mat, tmp_path) == (0, 0, 3)
