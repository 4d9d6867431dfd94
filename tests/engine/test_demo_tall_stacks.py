"""gnubg against gnubg in the demo, where no person at the board can give the word for a
move the sensors cannot see: the table counts it made after its stated wait, the simulated
hands keep that wait, and the match finishes."""

from __future__ import annotations

from bgpi.base.words import BLACK, WHITE
from bgpi.engine import GnubgEngine, Level
from bgpi.engine.seat import EngineSeat
from bgpi.journal.records import MatchStarted, Played
from bgpi.rules import GameResult, Match, Position, apply_move
from bgpi.sensing.board import Observation, counts_of, observe
from bgpi.sim.demo import play_match
from bgpi.sim.simtable import SimTable
from bgpi.table import Phase, Table
from tests.engine.conftest import needs_gnubg

pytestmark = needs_gnubg


def _white(position: Position, player: int) -> Position:
    return position.swap() if player == BLACK else position


def unseen_moves(sim: SimTable) -> int:
    """How many moves of the journal's plays the sensors could not see: the board read the
    same before and after them."""
    caps: Observation = sim.table.config.caps
    table, count = Table.start(sim.table.config, sim.driver.log[0]), 0
    for record in sim.driver.log[1:]:
        if isinstance(record, Played):
            before = table.mover_view
            for move in record.move_values():
                after = apply_move(before, move)
                seen = (observe(_white(p, record.player), WHITE, caps) for p in (before, after))
                count += next(seen) == next(seen)
                before = after
        table = table.apply(record)
    return count


class PlaysItOut(GnubgEngine):
    """gnubg that never resigns: it resigns a lost race long before the bear-offs this test
    is about (and the demo lets it, as bgpi run does), so here it plays every game out."""

    def resignation(self, position: Position, match: Match) -> GameResult | None:
        return None


def test_gnubg_against_gnubg_finishes_a_match_with_moves_the_sensors_cannot_see() -> None:
    engines = [PlaysItOut(Level.BEGINNER, say=lambda _: None) for _ in range(2)]
    try:
        sim = play_match(
            MatchStarted(1, names=("gnubg", "gnubg too")),
            seed=3,  # a seed whose bear-offs leave points fuller than their switches
            say=lambda _: None,
            sides=(EngineSeat(engines[0], lambda _: None), EngineSeat(engines[1], lambda _: None)),
        )
    finally:
        for engine in engines:
            engine.close()
    assert sim.phase is Phase.MATCH_OVER and max(sim.match.score) >= 1
    assert unseen_moves(sim) > 0  # the seed does reach the case
    # The hands made every move, the unseen ones too: the checkers on the board (counted
    # whole, not as the switches read them) are the journal's last position.
    journal = counts_of(sim.table.position, WHITE)
    for zone in range(1, 27):
        assert len(sim.board.checkers(zone)) == journal[zone], f"zone {zone}"
