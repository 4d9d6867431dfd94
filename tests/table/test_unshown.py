"""A match ended by forfeit while the hands here make the other board's play: the play that
board chose, signed and journaled goes into this journal too, before the end, the board
showing none of it (:func:`bgpi.table.guided.unshown`); both journals then export one match."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import pytest

from bgpi.base.geometry import Geometry
from bgpi.base.words import BLACK, Player
from bgpi.journal.export import export_mat
from bgpi.journal.records import Forfeit, GameEnded, MatchStarted, Played, Record, Seat
from bgpi.sensing.board import capacities
from bgpi.sim.demo import play_match
from bgpi.table import Chosen, Guided, Phase, Table, TableConfig
from bgpi.table.errors import TableError
from bgpi.table.guided import unshown

CONFIG = TableConfig(capacities(Geometry.default()))


@cache
def claimants() -> tuple[Record, ...]:
    """A 7-point match as the board playing Black journaled it (its seat the person there)."""
    records = play_match(MatchStarted(7), seed=5, say=lambda _: None).driver.log
    first = records[0]
    assert isinstance(first, MatchStarted)
    return (replace(first, seats=(Seat.REMOTE, Seat.PERSON)), *records[1:])


def here(records: tuple[Record, ...]) -> list[Record]:
    """The same records at the board playing White: Black's seat is the remote board's."""
    first = records[0]
    assert isinstance(first, MatchStarted)
    return [replace(first, seats=(Seat.PERSON, Seat.REMOTE)), *records[1:]]


def guided_at(index: int) -> Table:
    """White's table as Black's play (record ``index``) arrives: lit, nothing of it made."""
    play = claimants()[index]
    assert isinstance(play, Played) and play.player == BLACK
    table = Table.replay(CONFIG, here(claimants()[:index]))
    step = table.handle(Chosen(BLACK, play.move_values(), 1.0))
    assert step.refused is None and isinstance(step.table.at, Guided)
    assert step.table.at.done == 0
    return step.table


def blacks_plays(*, ending: bool) -> list[int]:
    records = claimants()
    return [
        i
        for i, r in enumerate(records[:-1])
        if isinstance(r, Played)
        and r.player == BLACK
        and isinstance(records[i + 1], GameEnded) == ending
    ]


@pytest.mark.parametrize("ending", [False, True], ids=["mid-game", "the game's last play"])
def test_a_forfeit_while_the_other_boards_play_is_made_here_journals_that_play_first(
    ending: bool,
) -> None:
    index = blacks_plays(ending=ending)[0]
    table = guided_at(index)
    step = unshown(table)
    records = claimants()
    made = records[index : index + len(step.records)]
    assert step.records == made  # the play as Black's board journaled it, its game's end too
    assert isinstance(step.records[-1], GameEnded) == ending
    assert step.table.phase is (Phase.GAME_OVER if ending else Phase.BEFORE_ROLL)
    ended = step.table.apply(Forfeit(BLACK))
    assert ended.phase is Phase.MATCH_OVER
    # Both boards' files of the match: Black's journal, and White's caught up with it.
    theirs = [*records[: index + len(made)], Forfeit(BLACK)]
    ours = [*here(records[:index]), *step.records, Forfeit(BLACK)]
    assert export_mat(ours) == export_mat(theirs)
    assert export_mat([*here(records[:index]), Forfeit(BLACK)]) != export_mat(theirs)


def test_a_play_half_made_by_the_hands_is_journaled_whole() -> None:
    index = blacks_plays(ending=False)[0]
    table = guided_at(index)
    at = table.at
    assert isinstance(at, Guided)
    halfway = replace(table, at=replace(at, done=1))  # the hands made one move, then left
    assert unshown(halfway).records == unshown(table).records == (claimants()[index],)


def test_only_a_guided_play_is_journaled_unshown() -> None:
    index = blacks_plays(ending=False)[0]
    table = Table.replay(CONFIG, here(claimants()[:index]))
    assert table.phase is Phase.MOVING and table.match.turn == Player(BLACK)
    with pytest.raises(TableError, match="no guided play to journal in phase moving"):
        unshown(table)
