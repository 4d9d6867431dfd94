"""Nothing is committed while the board cannot be read: with the sensors down the buttons
decide nothing, and the game goes on from the board as read once they are back."""

from bgpi.base.words import WHITE
from bgpi.hal.api import FaultEvent
from bgpi.journal.records import Played
from bgpi.lights import Alert
from bgpi.present.status import status
from bgpi.table import Phase
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
        "The sensors stopped answering (reading the sensor chain failed): nothing is decided "
        "until they are back."
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
    sim.take(FaultEvent("leds", "the strip does not answer", sim.clock()))
    assert sim.table.faults and not sim.table.sensors_down
    sim.roll(WHITE)
    assert isinstance(sim.driver.log[-1], Played) and sim.phase is Phase.BEFORE_ROLL
