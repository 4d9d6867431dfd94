"""A whole match on the simulated board: gnubg against the built-in player, through the
table's own path (dice, hands on checkers, buttons), gnubg killed in the middle of it."""

from __future__ import annotations

from pathlib import Path

from bgpi.engine import GnubgEngine, Level
from bgpi.engine.seat import EngineSeat
from bgpi.journal.export import export_mat
from bgpi.journal.records import GameEnded, MatchStarted, Played
from bgpi.rules import Move, Play, Position, apply_move, legal_plays
from bgpi.sim.demo import PipPlayer, play_match
from bgpi.table import Ask, DecisionRequest, Intent, Phase, Table
from tests.engine.conftest import needs_gnubg
from tests.engine.gnubg_cli import imported_score

pytestmark = needs_gnubg


class Witness(EngineSeat):
    """gnubg's seat, keeping each play it chose with the legal plays of that roll, and
    killing gnubg once, after its tenth play."""

    def __init__(self, engine: GnubgEngine, said: list[str]) -> None:
        super().__init__(engine, said.append)
        self.gnubg = engine
        self.chosen: list[tuple[Play, list[Play]]] = []
        self.views: list[Position] = []

    def decide(self, request: DecisionRequest, table: Table) -> Intent | tuple[Move, ...]:
        answer = super().decide(request, table)
        if request.ask is Ask.PLAY:
            view, dice = table.mover_view, table.match.dice
            assert dice is not None and isinstance(answer, tuple)
            legal = legal_plays(view, dice)
            self.chosen.append((next(p for p in legal if p.moves == answer), legal))
            self.views.append(view)
            if len(self.chosen) == 10:
                self.gnubg.process.kill()
        return answer


def test_gnubg_plays_a_whole_match_every_play_legal_and_survives_a_kill(tmp_path: Path) -> None:
    said: list[str] = []
    engine = GnubgEngine(Level.EXPERT, say=said.append)
    white = Witness(engine, said)
    try:
        sim = play_match(
            MatchStarted(5, names=("gnubg", "demo")),
            seed=17,
            say=lambda _: None,
            sides=(white, PipPlayer()),
        )
    finally:
        engine.close()
    assert sim.phase is Phase.MATCH_OVER and max(sim.match.score) >= 5
    assert len(white.chosen) > 10
    assert all(play in legal for play, legal in white.chosen)
    # What the hands made on the board and the table journalled is what gnubg chose.
    made = [r for r in sim.driver.log if isinstance(r, Played) and r.player == 0]
    assert len(made) == len(white.chosen)
    for record, view, (play, _) in zip(made, white.views, white.chosen, strict=True):
        assert _after(view, record) == play.result
    assert engine.process.starts == 2
    assert any("starting it again" in line for line in said)
    # The journal exports to a .mat that gnubg imports.
    path = tmp_path / "match.mat"
    path.write_text(export_mat(sim.driver.log), encoding="utf-8")
    out = imported_score(path)
    games = sum(isinstance(r, GameEnded) for r in sim.driver.log)
    score = sim.match.score
    assert (
        f"after {games} game{'s' if games > 1 else ''}) is: gnubg {score[0]}, demo {score[1]} "
        "(match to 5 points"
    ) in out


def _after(view: Position, record: Played) -> Position:
    for move in record.move_values():
        view = apply_move(view, move)
    return view
