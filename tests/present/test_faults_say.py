"""What the status line says while something is wrong or waited for, read as a player reads
it: each source's fault says what is true of that source and what a person here can still
do (the sensors down: no press counts; the other board silent or out of reach: play goes on
here; a GoDice lost: the dice are entered), in the player's language; a match won by
forfeit or on time says so, and a player in overtime is told what the next fall means."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bgpi.base import i18n
from bgpi.base.faults import FaultSource
from bgpi.base.geometry import Geometry
from bgpi.base.words import BLACK, ROLL, WHITE
from bgpi.journal.records import (
    FlagFell,
    Forfeit,
    MatchStarted,
    Record,
    Seat,
)
from bgpi.lights.scene import Alert
from bgpi.present.leds import scene_of
from bgpi.present.status import status
from bgpi.rules.clock import ClockMode, ClockRules
from bgpi.sensing.board import capacities
from bgpi.sim.demo import PipPlayer, play_match
from bgpi.sim.simtable import SimTable
from bgpi.table import DiceRequest, Fault, Phase, Table, TableConfig
from bgpi.table.phases import Forfeited, OnTime
from bgpi.web.view import clock_message
from tests.present.test_every_phase_says import thrown
from tests.table.test_buttons import SHORT, drawing, replay
from tests.table.test_buttons import opened as opened_by
from tests.table.test_hints import press
from tests.table.test_leads import AGAINST_REMOTE, CLOSED, black_opened, rolled, silent
from tests.table.test_play import opened

SENSORS_DOWN = (
    "The sensors stopped answering (no answer): no press counts until they are back, and then"
    " the board is read as it stands."
)
REMOTE_DOWN = (
    "The other board is not answering (localhost:1883 cannot be reached): what is played here"
    " is sent once it answers, and what it owes waits till then."
)
BROKER_GONE = "localhost:1883 cannot be reached"


def down(table: Table, source: FaultSource, message: str | None = None) -> Table:
    return table.handle(Fault(source, message or BROKER_GONE, 40.0)).table


def said(table: Table) -> str:
    return status(table, scene_of(table))


@pytest.fixture(autouse=True)
def english() -> None:
    i18n.use(i18n.Language.ENGLISH)


def opened_against_remote() -> list[Record]:
    """White here opens 3-1 with 8/5 6/5 against the remote Black (on roll)."""
    return opened_by(AGAINST_REMOTE)[1:]


def white_on_roll_against_remote() -> Table:
    """White here on roll after the remote Black's opening 3-1."""
    return replay(AGAINST_REMOTE, *black_opened())


# -- the sensors ---------------------------------------------------------------------------


def test_with_the_sensors_down_the_line_says_no_press_counts_and_offers_none() -> None:
    sim = opened(3, 1)
    sim.board.fail("no answer")
    sim.advance()
    assert sim.table.sensors_down and sim.scene.alert is Alert.FAULT
    assert status(sim.table, sim.scene) == SENSORS_DOWN
    before = list(sim.driver.log)
    sim.roll(WHITE)  # as it says: the press counts for nothing
    assert sim.driver.log == before and sim.phase is Phase.MOVING


def test_with_the_sensors_down_a_seat_elsewhere_still_decides_and_is_named() -> None:
    """The engine or the other board decides on the journal's position, not the board."""
    table = replace(replay(*opened_by(MatchStarted(5))), seats=(Seat.PERSON, Seat.ENGINE))
    table = down(table, FaultSource.SENSORS, "no answer")
    assert said(table) == f"{SENSORS_DOWN} Black (engine) rolls, doubles or resigns."


def test_each_fault_is_said_in_the_players_language_never_as_the_sources_english_word() -> None:
    """The line once named the source with its log word (``sensors``, ``remote``) in every
    language."""
    sensors = down(white_on_roll_against_remote(), FaultSource.SENSORS, "no answer")
    remote = down(white_on_roll_against_remote(), FaultSource.REMOTE, "no word in 4 s")
    for language in (i18n.Language.FINNISH, i18n.Language.SWEDISH, i18n.Language.NORWEGIAN):
        i18n.use(language)
        for table in (sensors, remote):
            line = said(table)
            assert "sensors" not in line and "remote" not in line, f"{language}: {line}"
    i18n.use(i18n.Language.FINNISH)
    assert said(sensors).startswith("Anturit lakkasivat vastaamasta (no answer):")
    assert said(remote).startswith("Toinen lauta ei vastaa (no word in 4 s):")


# -- the remote board ------------------------------------------------------------------------


def test_with_the_other_board_out_of_reach_the_person_here_plays_on_and_is_told_so() -> None:
    table = down(white_on_roll_against_remote(), FaultSource.REMOTE)
    assert table.outage is not None and not table.sensors_down
    assert said(table) == (
        f"{REMOTE_DOWN} White rolls (ROLL) or doubles (CUBE). Hold CUBE to resign."
    )
    step = press(table, WHITE, ROLL, SHORT)  # the roll is asked of the exchange, as ever
    assert step.dice == DiceRequest(WHITE, 2)
    rolling = drawing(step.table, WHITE, 2)  # the shell draws them with the other board
    assert said(rolling) == (
        f"{REMOTE_DOWN} White rolls: the dice are drawn with the other board, waiting for its half."
    )


def test_with_the_other_board_out_of_reach_the_phases_own_word_stays_said() -> None:
    """The LEDs flash the fault; the line still says that the roll has no move (which the
    fault's alert hides in the scene)."""
    table = rolled(CLOSED, (6, 5))
    table = down(replace(table, seats=(Seat.PERSON, Seat.REMOTE)), FaultSource.REMOTE)
    assert scene_of(table).alert is Alert.FAULT
    assert said(table) == (
        f"{REMOTE_DOWN} White rolled 6-5 and cannot move: ROLL to pass. Hold CUBE to resign."
    )


def test_the_claim_offered_is_said_after_the_fault_with_what_the_other_board_owes() -> None:
    table = down(silent(*opened_against_remote()), FaultSource.REMOTE)
    assert said(table) == (
        f"{REMOTE_DOWN} Black (remote) rolls, doubles or resigns. Hold ROLL to claim the match by"
        " forfeit."
    )


def test_with_the_sensors_and_the_other_board_down_both_are_said_and_nothing_offered() -> None:
    table = down(
        down(white_on_roll_against_remote(), FaultSource.REMOTE), FaultSource.SENSORS, "no answer"
    )
    assert said(table) == f"{REMOTE_DOWN} {SENSORS_DOWN}"


def test_a_match_won_by_forfeit_says_so_whatever_the_score() -> None:
    table = silent(*black_opened()).apply(Forfeit(WHITE))
    assert isinstance(table.at, Forfeited)
    assert said(table) == (
        "White wins the match by forfeit: White 0, Black 0. ROLL chooses the next one."
    )


# -- GoDice ---------------------------------------------------------------------------------


def test_a_godice_lost_while_the_throw_is_awaited_says_the_dice_are_entered() -> None:
    awaited = thrown("before roll, hints on", BLACK, 2)
    lost = down(awaited, FaultSource.GODICE, "die 2 (red) is gone")
    assert said(lost).startswith(
        "Die 2 (red) is gone: the dice are entered with the buttons meanwhile. Black's dice,"
        " thrown by hand, are entered: the first shows 1."
    )
    # With the sensors down too, no press counts: the entering is not offered.
    assert said(down(lost, FaultSource.SENSORS, "no answer")) == SENSORS_DOWN


# -- the clock ------------------------------------------------------------------------------

OVERTIME = ClockRules(ClockMode.USBGF, overtime=100)
CONFIG = TableConfig(capacities(Geometry.default()))


def slow_match(rules: ClockRules) -> SimTable:
    """Slow (White) thinks 400 s a move against Quick: the flag falls (twice with overtime)."""
    sides = (PipPlayer(thinks=400.0), PipPlayer())
    start = MatchStarted(3, names=("Slow", "Quick"), clock=rules)
    return play_match(start, seed=4, say=lambda _: None, sides=sides)


def test_a_match_lost_on_time_says_so_live_and_replayed() -> None:
    sim = slow_match(ClockRules(ClockMode.USBGF))
    for table in (sim.table, Table.replay(CONFIG, sim.driver.log)):
        assert isinstance(table.at, OnTime) and table.at.player is WHITE
        assert said(table) == (
            "Quick wins the match on time: Slow 0, Quick 3. ROLL chooses the next one."
        )


def test_in_overtime_the_line_says_a_second_fall_loses_and_a_restart_keeps_it() -> None:
    records = slow_match(OVERTIME).driver.log
    fell = next(n for n, r in enumerate(records) if isinstance(r, FlagFell))
    assert records[fell] == FlagFell(WHITE, overtime=True)
    table = Table.replay(CONFIG, records[: fell + 2])  # the fall and its clock: resumed here
    assert table.clock is not None and table.clock.overtime_given == (True, False)
    assert said(table).endswith(
        "Slow is in overtime: if the time runs out again, the match is lost."
    )
    shown = clock_message(table)
    assert shown is not None
    assert [side["overtime"] for side in shown["players"]] == [True, False]  # type: ignore[index]
    # Before the fall nothing is said of the clock on the line (the clock shows it).
    assert "overtime" not in said(Table.replay(CONFIG, records[: fell - 1]))
