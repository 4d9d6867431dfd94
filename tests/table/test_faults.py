"""Nothing is committed while the board cannot be read: with the sensors down the buttons
decide nothing, and the game goes on from the board as read once they are back."""

import json
import logging

import pytest

from bgpi.base.faults import FaultSource
from bgpi.base.words import WHITE
from bgpi.hal.api import FaultEvent
from bgpi.journal.records import Played
from bgpi.lights import Alert
from bgpi.present.leds import scene_of
from bgpi.present.status import status
from bgpi.table import Fault, Outage, Phase
from tests.table.test_play import opened


def test_no_play_is_committed_while_the_sensors_are_down() -> None:
    sim = opened(3, 1)
    sim.lift(8, WHITE)
    sim.place(5, WHITE)
    sim.lift(6, WHITE)
    sim.place(5, WHITE)
    before = list(sim.driver.log)
    sim.board.fail("reading the sensor chain failed")
    sim.advance()
    assert sim.table.sensors_down and sim.scene.alert is Alert.FAULT
    # The companion page says so.
    assert status(sim.table, sim.scene) == (
        "The sensors stopped answering (reading the sensor chain failed): no press counts until "
        "they are back, and then the board is read as it stands."
    )
    sim.roll(WHITE)  # the player ends the turn while the board cannot be read
    assert sim.driver.log == before and sim.phase is Phase.MOVING
    sim.board.recover()
    sim.advance()
    assert not sim.table.sensors_down and sim.scene.alert is None
    sim.roll(WHITE)
    (played,) = sim.driver.log[len(before) :]
    assert isinstance(played, Played) and sim.phase is Phase.BEFORE_ROLL


def test_a_fault_of_another_backend_does_not_stop_the_game() -> None:
    sim = opened(3, 1)
    sim.lift(8, WHITE)
    sim.place(5, WHITE)
    sim.lift(6, WHITE)
    sim.place(5, WHITE)
    sim.take(FaultEvent(FaultSource.REMOTE, "localhost:1883 cannot be reached", sim.clock()))
    assert sim.table.faults and not sim.table.sensors_down
    sim.roll(WHITE)
    assert isinstance(sim.driver.log[-1], Played) and sim.phase is Phase.BEFORE_ROLL


def test_each_source_is_down_until_it_recovers_and_the_first_the_board_needs_is_shown() -> None:
    table = opened(3, 1).table
    godice = table.handle(Fault(FaultSource.GODICE, "die 2 (red) is gone", 30.0)).table
    # The board plays on without the pair: it is down, but no outage the LEDs flash.
    assert godice.down(FaultSource.GODICE) == "die 2 (red) is gone"
    assert godice.outage is None and scene_of(godice).alert is not Alert.FAULT
    sensors = godice.handle(Fault(FaultSource.SENSORS, "no answer", 31.0)).table
    remote = sensors.handle(Fault(FaultSource.REMOTE, "paused", 32.0)).table
    assert remote.sensors_down and remote.outage == Outage(FaultSource.SENSORS, "no answer")
    assert scene_of(remote).alert is Alert.FAULT
    # A source saying again how it is down keeps one fault, its latest word last.
    again = remote.handle(Fault(FaultSource.SENSORS, "short frame", 33.0)).table
    assert [down.source for down in again.faults] == ["godice", "remote", "sensors"]
    assert again.outage == Outage(FaultSource.REMOTE, "paused")
    back = again.handle(Fault(FaultSource.SENSORS, None, 34.0)).table
    assert back.down(FaultSource.SENSORS) is None and not back.sensors_down
    assert back.outage == Outage(FaultSource.REMOTE, "paused")
    assert back.down(FaultSource.GODICE) == "die 2 (red) is gone"
    assert status(back, scene_of(back)).startswith(
        "The other board is not answering (paused): what is played here is sent once it answers,"
        " and what it owes waits till then."
    )


def test_a_source_is_the_same_word_as_ever_in_the_log_and_the_pages_json(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="bgpi.test"):
        for source in FaultSource:
            logging.getLogger("bgpi.test").warning("%s: down", source)
    assert [record.getMessage() for record in caplog.records] == [
        "sensors: down",
        "godice: down",
        "remote: down",
    ]
    assert json.dumps([f"{source}" for source in FaultSource]) == json.dumps(list(FaultSource))
    assert json.dumps(list(FaultSource)) == '["sensors", "godice", "remote"]'
