"""``bgpi demo`` shows the rest of the rules as a player reads them: the built-in player
resigns a race it has lost (here a gammon, scored and exported to a .mat that gnubg 1.07
imports with the same score), a resignation is declined, and with ``--slips`` a player
sometimes makes an illegal play that the other accepts or has corrected."""

from __future__ import annotations

from pathlib import Path

import pytest

from bgpi.cli import main
from bgpi.engine.race import lost
from bgpi.journal.records import GameEnded, IllegalAccepted, MatchStarted
from bgpi.journal.store import Journal
from bgpi.rules import GameResult, Position
from tests.engine.conftest import needs_gnubg
from tests.engine.gnubg_cli import imported_score


def demo(capsys: pytest.CaptureFixture[str], *args: str) -> list[str]:
    assert main(["demo", "--length", "3", "--slips", "0.1", *args]) == 0
    return capsys.readouterr().out.splitlines()


@needs_gnubg
def test_a_resigned_gammon_is_scored_and_gnubg_imports_the_same_score(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state"
    out = demo(capsys, "--seed", "3", "--state-dir", str(state))
    assert "  Black offers to resign a gammon" in out
    assert "  White accepts the resignation" in out
    assert "  White wins 4 points by a resigned gammon; score 4-0" in out  # the cube at 2
    assert out[-1] == "final score: White 4, Black 0"
    with Journal.open(state / "journal.sqlite") as journal:
        end = [r for r in journal.records() if isinstance(r, GameEnded)][-1]
    assert (end.result, end.points, end.resigned) == (int(GameResult.GAMMON), 4, True)
    mat = tmp_path / "m.mat"
    assert main(["export", "--state-dir", str(state), "-o", str(mat)]) == 0
    imported = imported_score(mat)
    assert "is: White 4, Black 0 (match to 3 points" in imported


def test_a_declined_resignation_and_illegal_plays_accepted_and_corrected(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state"
    out = demo(capsys, "--seed", "2", "--state-dir", str(state))
    # The match given is chosen at the board, as players there always do.
    assert out[1:3] == [
        "White holds ROLL to start the match shown:",
        "  White (white) and Black (black): a 3-point match",
    ]
    declined = out.index("  White declines the resignation")
    assert out[declined - 1] == "  Black offers to resign a single"
    assert out[declined + 1].startswith("  Black 65: ")  # play goes on: Black rolls
    slip = out.index("  White 53: 5/1, a checker one pip too far (illegal)")
    assert out[slip + 1] == "  White 53: an illegal play, accepted"
    demanded = out.index("  Black demands the correction")
    assert out[demanded - 1] == "  White 43: 6/2, a checker one pip too far (illegal)"
    assert out[demanded + 1] == "  White 43: 6/3 6/2"  # the legal play, made instead
    with Journal.open(state / "journal.sqlite") as journal:
        records = journal.records()
    assert records[0] == MatchStarted(3)  # chosen at the board, as asked
    accepted = [r for r in records if isinstance(r, IllegalAccepted)]
    assert len(accepted) == sum(line.endswith("an illegal play, accepted") for line in out)


def test_without_slips_nobody_slips(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--length", "3", "--seed", "2"]) == 0
    assert "illegal" not in capsys.readouterr().out


@pytest.mark.parametrize(
    ("points", "result"),
    [
        # Mine (the player on roll, by point; 0 borne off) against two checkers of theirs
        # left on their 1 point: they finish with their next roll.
        ({19: 15}, GameResult.BACKGAMMON),  # in their home board, no way out in time
        ({18: 15}, GameResult.GAMMON),
        ({6: 15}, GameResult.SINGLE),  # home, but nothing borne off in one roll
        ({0: 10, 6: 5}, GameResult.SINGLE),  # checkers off: only the single to lose
        ({0: 13, 2: 2}, None),  # a roll to finish, and I roll first: not lost
    ],
)
def test_a_race_is_lost_by_as_much_as_the_rolls_say(
    points: dict[int, int], result: GameResult | None
) -> None:
    player = [0] * 26
    for point, count in points.items():
        player[point] = count
    opponent = [13] + [0] * 25
    opponent[1] = 2
    assert lost(Position(tuple(player), tuple(opponent))) is result


def test_no_resignation_while_a_hit_may_still_turn_the_game() -> None:
    assert lost(Position.initial()) is None
