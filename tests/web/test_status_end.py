"""The end of a game and of a match says who won and the score, not the last roll's prompt
(issue 19, finding 1)."""

from __future__ import annotations

from bgpi.journal.records import MatchStarted
from bgpi.present.status import status
from bgpi.sim.demo import play_match
from bgpi.table import Phase


def test_the_match_s_end_names_the_winner_and_the_score() -> None:
    sim = play_match(MatchStarted(1), seed=3, say=lambda _: None)
    assert sim.phase is Phase.MATCH_OVER and sim.match.score == (2, 0)
    assert status(sim.table, sim.scene) == (
        "White wins the match: White 2, Black 0. ROLL chooses the next one."
    )


def test_a_game_s_end_names_the_winner_and_the_score() -> None:
    sim = play_match(MatchStarted(0), seed=3, say=lambda _: None, games=1)
    assert sim.phase is Phase.GAME_OVER
    white, black = sim.match.score
    winner = "White" if white > black else "Black"
    assert status(sim.table, sim.scene).startswith(
        f"{winner} wins the game: White {white}, Black {black}. "
    )
