"""Replay never wedges: every prefix of a match (each a journal a power cut could leave, even
one written by an older bgpi that journaled a step's records one commit each) resumes to a
table that some press moves on, and the records it owes are the ones the match went on with."""

from __future__ import annotations

from pathlib import Path

import pytest

from bgpi.base.geometry import Geometry
from bgpi.journal.records import (
    CubeAction,
    GameEnded,
    GameStarted,
    MatchStarted,
    OpeningDie,
    OpeningRolled,
    Played,
    Record,
    Rolled,
)
from bgpi.journal.store import JOURNAL_NAME, Journal
from bgpi.sensing.board import capacities
from bgpi.service.driver import MemoryJournal
from bgpi.service.resume import complete, owed, replay, unfinished
from bgpi.sim.simtable import SimTable
from bgpi.table import Phase, Table, TableConfig
from tests.shell.matches import play_match
from tests.shell.presses import moves_on
from tests.shell.test_cli import bgpi

CONFIG = TableConfig(capacities(Geometry.default()))


def with_opening_dice(records: list[Record]) -> list[Record]:
    """The records as the table journals them: each player's opening die before the roll."""
    out: list[Record] = []
    for record in records:
        if isinstance(record, OpeningRolled):
            out += [OpeningDie(0, record.white), OpeningDie(1, record.black)]
        out.append(record)
    return out


OPENING_HALF = [MatchStarted(5), GameStarted(), OpeningDie(0, 2), OpeningDie(1, 3)]


def test_the_issue_s_journal_owes_its_opening_roll() -> None:
    table = Table.replay(CONFIG, OPENING_HALF)
    assert not moves_on(table)  # what an older bgpi left: no press moves it on
    resumed, missing = replay(CONFIG, OPENING_HALF)
    assert missing == (OpeningRolled(2, 3),)
    assert resumed.phase is Phase.MOVING and resumed.match.turn == 1
    assert moves_on(resumed)


def test_a_journaled_drop_owes_the_game_s_end() -> None:
    records: list[Record] = [
        MatchStarted(5),
        GameStarted(),
        OpeningRolled(3, 1),
        Played(0, ((8, 5, 3, False), (6, 5, 1, False))),
        Rolled(1, (6, 4)),
        Played(1, ((24, 18, 6, False), (13, 9, 4, False))),
        CubeAction(0, "double"),
        CubeAction(1, "drop"),
    ]
    assert not moves_on(Table.replay(CONFIG, records))
    journal = MemoryJournal([*records])
    table, now = complete(CONFIG, records, journal)
    assert now[len(records) :] == [GameEnded(0, 1, 1, dropped=True)]
    assert journal.records == now
    assert table.phase is Phase.GAME_OVER and table.match.score == (1, 0)
    assert moves_on(table)


def test_a_table_between_steps_owes_nothing() -> None:
    records = play_match(3, MatchStarted(3))
    journal = MemoryJournal([*records])
    table, now = complete(CONFIG, records, journal)
    assert now == records == journal.records
    assert table.phase is Phase.MATCH_OVER


STARTS = [
    MatchStarted(1),
    MatchStarted(3),
    MatchStarted(5),
    MatchStarted(0, jacoby=True, beaver=True, automatic_doubles=1),
    MatchStarted(0, crawford=False, beaver=True, cube_limit=8),
]


@pytest.mark.parametrize("start", STARTS, ids=lambda s: f"length{s.length}")
def test_every_prefix_of_a_match_resumes_to_a_table_that_moves_on(start: MatchStarted) -> None:
    kinds: set[str] = set()
    for seed in range(6):
        records = with_opening_dice(play_match(seed, start, double_rate=0.15))
        table = Table.start(CONFIG, records[0])
        for end in range(1, len(records) + 1):
            if end > 1:
                table = table.apply(records[end - 1])
            missing = owed(table)
            where = f"seed {seed}, the first {end} records, ending {records[end - 1]}"
            # What a half-written step owes is what the match did next.
            assert list(missing) == records[end : end + len(missing)], where
            resumed = table
            for record in missing:
                resumed = resumed.apply(record)
            assert moves_on(resumed), where
            if missing:
                kinds.add(type(records[end - 1]).__name__)
                assert not moves_on(table), where  # the wedge the completion undoes
    # Every kind of half-written step came up: the opening dice, a winning play, a drop.
    assert {"OpeningDie", "Played", "CubeAction"} <= kinds or start.length == 1


def test_status_shows_a_half_step_finished_without_writing(tmp_path: Path) -> None:
    with Journal.open(tmp_path / JOURNAL_NAME) as journal:
        journal.append_all(OPENING_HALF)
    before = (tmp_path / JOURNAL_NAME).read_bytes()
    status = bgpi("status", "--state-dir", tmp_path).stdout
    assert "phase: moving" in status  # Black's 3 beat White's 2: Black plays them
    assert (tmp_path / JOURNAL_NAME).read_bytes() == before
    with Journal.open(tmp_path / JOURNAL_NAME, read_only=True) as journal:
        assert journal.records() == OPENING_HALF


def test_only_an_unfinished_match_is_gone_on_with_its_half_step_finished(tmp_path: Path) -> None:
    with Journal.open(tmp_path / JOURNAL_NAME) as journal:
        assert unfinished(CONFIG, journal) is None  # no match yet: a new one is chosen
        journal.append_all(OPENING_HALF)
        resumed = [*OPENING_HALF, OpeningRolled(2, 3)]
        assert unfinished(CONFIG, journal) == resumed
        assert journal.records() == resumed  # what it owed is journaled
        journal.append_all(play_match(3, MatchStarted(3)))
        assert unfinished(CONFIG, journal) is None  # over: a new one is chosen


def test_a_simulated_table_resumes_a_journal_as_the_shell_does() -> None:
    journal = MemoryJournal([*OPENING_HALF])
    sim = SimTable(OPENING_HALF, journal=journal)
    resumed = [*OPENING_HALF, OpeningRolled(2, 3)]
    assert sim.driver.log == journal.records == resumed  # what it owed, journaled
    assert sim.phase is Phase.MOVING and sim.match.turn == 1
