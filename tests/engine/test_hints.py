"""Hints: the engine's play before the first checker moves, its view of the cube before the
roll and while doubled; nothing once the hands have started the play."""

from __future__ import annotations

from pathlib import Path

import pytest

from bgpi.base.words import BLACK, WHITE
from bgpi.cli import main
from bgpi.engine import CubeAnswer, CubeDecision, SimpleEngine
from bgpi.engine.hints import hint
from bgpi.journal.records import MatchStarted
from bgpi.journal.store import Journal
from bgpi.rules import Match, Move, Position, legal_plays
from bgpi.sim.simtable import SimTable
from bgpi.table import Phase
from tests.engine.conftest import needs_gnubg
from tests.table.arrange import fixed_dice


class Advisor(SimpleEngine):
    name = "advisor"

    def cube_decision(self, position: Position, match: Match) -> CubeDecision:
        return CubeDecision(True, CubeAnswer.DROP, "Double, pass")


def opened(journal: Journal | None = None) -> SimTable:
    """White won the opening 6-5; the board is set up."""
    sim = SimTable(MatchStarted(5), journal=journal)
    fixed_dice(sim, 6, 5)
    sim.setup()
    sim.roll(WHITE)
    sim.roll(BLACK)
    return sim


def test_before_the_first_move_the_hint_is_the_engines_play() -> None:
    sim = opened()
    assert sim.phase is Phase.MOVING and sim.match.dice is not None
    given = hint(sim.table, Advisor())
    expected = SimpleEngine().choose_play(sim.table.mover_view, sim.match.dice, sim.match)
    assert given is not None and given.play == expected and given.player == sim.match.turn
    assert given.words == f"advisor plays {expected}"
    first: Move = expected.moves[0]
    sim.make_move(sim.match.turn or 0, first)  # the hands start: no hint any more
    assert hint(sim.table, Advisor()) is None


def test_before_the_roll_and_when_doubled_the_hint_is_the_cube() -> None:
    sim = opened()
    play = legal_plays(sim.table.mover_view, sim.match.dice or (6, 5))[0]
    turn = sim.match.turn or WHITE
    sim.make_play(turn, play.moves)
    sim.roll(turn)  # end of turn
    assert sim.phase is Phase.BEFORE_ROLL
    given = hint(sim.table, Advisor())
    assert given is not None
    assert (given.player, given.words) == (turn.other, "advisor would double (Double, pass)")
    sim.cube(turn.other)
    assert sim.phase is Phase.DOUBLED
    given = hint(sim.table, Advisor())
    assert given is not None
    assert (given.player, given.words) == (turn, "advisor would drop (Double, pass)")


@needs_gnubg
def test_bgpi_hint_prints_gnubgs_play(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with Journal.open(tmp_path / "journal.sqlite") as journal:
        sim = opened(journal)
        assert sim.match.dice == (6, 5) and sim.match.turn == WHITE
    assert main(["hint", "--state-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out == "White: gnubg expert plays 24/13\n"
