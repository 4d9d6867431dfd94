"""A declined resignation is remembered for the rest of that game, as the built-in player
remembers it: the engine's seat offers again in that game only a higher level, so nobody is
asked the same question at every roll, and a match between two engines that disagree ends."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bgpi.base.words import WHITE
from bgpi.engine import SimpleEngine
from bgpi.engine.seat import EngineSeat
from bgpi.journal.records import GameStarted, MatchStarted, ResignAnswered, ResignOffered
from bgpi.rules import GameResult, Match, MatchRules, Position
from bgpi.sim.demo import play_match
from bgpi.table import Ask, DecisionRequest, Intent
from tests.engine.conftest import needs_gnubg
from tests.engine.gnubg_cli import imported_score

AFTER_OPENING = Match.new(MatchRules(0)).opening_roll(3, 1)  # White on roll


class Table:
    """Just what the seat reads of a table before its roll."""

    match = AFTER_OPENING

    def mover_view_of(self, player: int) -> Position:
        return Position.initial()


class Loser(SimpleEngine):
    """Would resign ``level`` at every roll; declines every resignation offered to it."""

    def __init__(self, level: GameResult = GameResult.SINGLE) -> None:
        super().__init__()
        self.level = level

    def resignation(self, position: Position, match: Match) -> GameResult | None:
        return self.level

    def accepts(self, position: Position, match: Match, offered: GameResult) -> bool:
        return False


def test_a_declined_resignation_is_offered_again_that_game_only_at_a_higher_level() -> None:
    engine = Loser(GameResult.SINGLE)
    seat = EngineSeat(engine, print)
    turn = DecisionRequest(WHITE, Ask.TURN)
    assert seat(turn, Table()) is GameResult.SINGLE  # type: ignore[arg-type]
    assert seat(turn, Table()) is Intent.ROLL  # type: ignore[arg-type]  # declined: plays on
    engine.level = GameResult.GAMMON
    assert seat(turn, Table()) is GameResult.GAMMON  # type: ignore[arg-type]
    engine.level = GameResult.SINGLE
    assert seat(turn, Table()) is Intent.ROLL  # type: ignore[arg-type]
    # The next game begins with the seat's opening die: it may offer anything again.
    assert seat(DecisionRequest(WHITE, Ask.OPENING_ROLL), Table()) is Intent.OPENING_ROLL  # type: ignore[arg-type]
    assert seat(turn, Table()) is GameResult.SINGLE  # type: ignore[arg-type]


def test_two_engines_that_never_agree_on_a_resignation_still_finish_the_match() -> None:
    """Each would resign at every roll and declines the other's offer: once a game each."""
    sides = (EngineSeat(Loser(), print), EngineSeat(Loser(), print))
    sim = play_match(MatchStarted(3), seed=1, say=lambda _: None, sides=sides)
    log = sim.driver.log
    starts = [n for n, r in enumerate(log) if isinstance(r, GameStarted)]
    assert len(starts) > 1  # several games, so forgetting at a new game is shown too
    for start, end in zip(starts, [*starts[1:], len(log)], strict=True):
        offers = [r.player for r in log[start:end] if isinstance(r, ResignOffered)]
        assert sorted(offers) == [0, 1]
    declined = [r for r in log if isinstance(r, ResignAnswered) and not r.accepted]
    assert len(declined) == 2 * len(starts)


@needs_gnubg
def test_gnubg_against_gnubg_beginner_finishes_the_match_of_issue_25(tmp_path: Path) -> None:
    """It once offered and declined the same resignation 9,139 times in two minutes."""
    state = tmp_path / "state"
    demo = ["demo", "--white", "gnubg", "--black", "gnubg:beginner", "--seed", "4"]
    command = [sys.executable, "-m", "bgpi.cli", *demo, "--length", "5", "--state-dir", str(state)]
    ran = subprocess.run(command, check=False, capture_output=True, text=True, timeout=900)
    assert ran.returncode == 0, ran.stderr
    final = ran.stdout.strip().splitlines()[-1]
    assert final.startswith("final score: White ")
    white, black = (int(part.split()[-1]) for part in final.split(":")[1].split(","))
    mat = tmp_path / "m.mat"
    export = [sys.executable, "-m", "bgpi.cli", "export", "--state-dir", str(state), "-o", str(mat)]
    subprocess.run(export, check=True, timeout=120)
    assert f"is: White {white}, Black {black} (match to 5 points" in imported_score(mat)
