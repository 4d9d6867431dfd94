"""The clock at the table, on simulated time: every press that ends a turn, every double
and take hits it, the flag falls for a slow player, and the journal resumes it as it
stood."""

from __future__ import annotations

from bgpi.base.geometry import Geometry
from bgpi.journal.export import export_mat
from bgpi.journal.records import (
    Clocked,
    CubeAction,
    FlagFell,
    GameEnded,
    MatchStarted,
    OpeningRolled,
    Played,
    Record,
)
from bgpi.present.gamelog import log_entries
from bgpi.rules.clock import ClockMode, ClockRules
from bgpi.sensing.board import capacities
from bgpi.sim.demo import PipPlayer, play_match
from bgpi.table import Phase, Table, TableConfig

USBGF = ClockRules(ClockMode.USBGF)


def quiet(_: str) -> None:
    pass


def clocked_after(records: list[Record], index: int) -> Clocked:
    """The clock journaled with the step of ``records[index]``."""
    return next(r for r in records[index:] if isinstance(r, Clocked))


def test_each_play_double_and_take_hands_the_clock_to_the_other_player() -> None:
    sim = play_match(MatchStarted(5, clock=USBGF), seed=28, say=quiet)
    records = sim.driver.log
    checked = {"play": 0, "double": 0, "take": 0, "empty play": 0}
    for index, record in enumerate(records):
        ends_game = index + 1 < len(records) and isinstance(records[index + 1], GameEnded)
        if isinstance(record, Played) and not ends_game:
            assert clocked_after(records, index).running == record.player.other
            checked["empty play" if not record.moves else "play"] += 1
        elif isinstance(record, CubeAction) and record.action in ("double", "take"):
            assert clocked_after(records, index).running == record.player.other
            checked[record.action] += 1
        elif isinstance(record, OpeningRolled) and record.white != record.black:
            assert clocked_after(records, index).running == (record.white < record.black)
        elif isinstance(record, GameEnded):
            assert clocked_after(records, index).running is None
    assert checked["play"] > 20 and checked["double"] and checked["take"]
    assert checked["empty play"]  # a player who could not move still pressed
    assert sim.table.clock is not None and min(sim.table.clock.reserve) > 0


def test_a_slow_player_loses_the_match_on_time() -> None:
    sides = (PipPlayer(thinks=400.0), PipPlayer())
    sim = play_match(
        MatchStarted(3, names=("Slow", "Quick"), clock=USBGF), seed=4, say=quiet, sides=sides
    )
    records = sim.driver.log
    falls = [r for r in records if isinstance(r, FlagFell)]
    assert falls == [FlagFell(0)]
    assert sim.phase is Phase.MATCH_OVER and sim.match.score[1] == 3 > sim.match.score[0]
    assert sim.match.winner == 1
    assert "Slow's time ran out; Quick wins the match on time" in export_mat(records)
    assert "Slow's time ran out: Quick wins the match on time" in [
        entry.text for entry in log_entries(records)
    ]


def test_with_overtime_a_fall_gives_the_overtime_once_and_the_second_ends_the_match() -> None:
    rules = ClockRules(ClockMode.USBGF, overtime=100)
    sides = (PipPlayer(thinks=400.0), PipPlayer())
    sim = play_match(MatchStarted(3, clock=rules), seed=4, say=quiet, sides=sides)
    falls = [r for r in sim.driver.log if isinstance(r, FlagFell)]
    assert falls == [FlagFell(0, overtime=True), FlagFell(0)]
    assert sim.match.score[1] == 3


def test_a_power_cut_at_any_record_resumes_the_same_times() -> None:
    sim = play_match(MatchStarted(3, clock=USBGF), seed=11, say=quiet)
    records = sim.driver.log
    config = TableConfig(capacities(Geometry.default()))
    cuts = [n for n, r in enumerate(records) if isinstance(r, Clocked) and r.running is not None]
    assert len(cuts) > 20
    for cut in cuts:
        journaled = records[cut]
        assert isinstance(journaled, Clocked)
        clock = Table.replay(config, records[: cut + 1]).clock
        assert clock is not None
        assert (clock.reserve, clock.running, clock.used(0.0)) == (
            journaled.reserve,
            journaled.running,
            journaled.used,
        )
        # The power was off for an hour: the first event after it starts the clock again.
        after = clock.started(3600.0)
        assert after.left(journaled.running, 3600.0) == clock.left(journaled.running, 0.0)


def test_a_match_resumed_from_its_journal_mid_game_plays_on_with_the_clock() -> None:
    whole = play_match(MatchStarted(3, clock=USBGF), seed=11, say=quiet).driver.log
    cut = next(n for n, r in enumerate(whole) if isinstance(r, Played) and n > 30)
    resumed = play_match(whole[: cut + 2], seed=11, say=quiet)
    assert resumed.table.clock is not None
    assert resumed.phase is Phase.MATCH_OVER
