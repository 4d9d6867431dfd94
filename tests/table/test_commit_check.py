"""A committed play is checked against the turn's tracker, the same answer the legal plays
give, both before its tree is built (a journal being replayed) and after (the live board)."""

from __future__ import annotations

import pytest

from bgpi.base.geometry import Geometry
from bgpi.journal.records import GameStarted, MatchStarted, OpeningDie, OpeningRolled, Played
from bgpi.sensing.board import capacities
from bgpi.table import Moving, Phase, Table, TableConfig

CONFIG = TableConfig(capacities(Geometry.default()))
OPENING = [MatchStarted(5), GameStarted(), OpeningDie(0, 3), OpeningDie(1, 1), OpeningRolled(3, 1)]

LEGAL = Played(0, ((8, 5, 3, False), (6, 5, 1, False)))  # 8/5 6/5
ONE_DIE = Played(0, ((8, 5, 3, False),))  # both dice can be played: one alone is not a play
WRONG_DISTANCE = Played(0, ((8, 4, 3, False), (6, 5, 1, False)))


@pytest.mark.parametrize("built", [False, True], ids=["replayed", "live"])
def test_the_legal_play_commits_and_others_are_refused(built: bool) -> None:
    table = Table.replay(CONFIG, OPENING)
    assert isinstance(table.at, Moving)
    if built:
        table.at.tracker.prepare()
    assert table.apply(LEGAL).phase is Phase.BEFORE_ROLL
    with pytest.raises(ValueError, match=r"is not a legal play of \(3, 1\)"):
        table.apply(ONE_DIE)
    with pytest.raises(ValueError, match=r"Move\(8, 4, 3\) cannot be played"):
        table.apply(WRONG_DISTANCE)
