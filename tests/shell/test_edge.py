"""The edge: a backend's event becomes the table's in one place, a fault said there once."""

from __future__ import annotations

import logging

import pytest

from bgpi.base.faults import FaultSource
from bgpi.base.geometry import Geometry
from bgpi.base.words import BLACK, ROLL, WHITE
from bgpi.hal.api import ButtonEvent, FaultEvent, SensorEvent
from bgpi.hal.sim import ManualClock, SimBoard
from bgpi.service.edge import table_event
from bgpi.table import Fault, Press, Seen

GEOMETRY = Geometry.default()
SENSORS = FaultSource.SENSORS


def test_a_frame_becomes_the_checkers_the_geometry_counts_in_it() -> None:
    board = SimBoard(GEOMETRY, clock=ManualClock())
    board.setup({6: (WHITE, 5), 19: (BLACK, 2)})
    frame = board.read()
    seen = table_event(SensorEvent(frame), GEOMETRY)
    assert isinstance(seen, Seen) and seen.t == frame.timestamp
    assert (seen.observation[6], seen.observation[19], seen.observation[1]) == (5, 2, 0)


def test_a_button_becomes_a_press() -> None:
    event = ButtonEvent(BLACK, ROLL, True, 2.5)
    assert table_event(event, GEOMETRY) == Press(BLACK, ROLL, True, 2.5)


def test_a_fault_and_its_end_are_said_once_where_they_come_in(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="bgpi"):
        down = table_event(FaultEvent(SENSORS, "the chain does not answer", 1.0), GEOMETRY)
        up = table_event(FaultEvent(SENSORS, None, 2.0), GEOMETRY)
    assert down == Fault(SENSORS, "the chain does not answer", 1.0)
    assert up == Fault(SENSORS, None, 2.0)
    said = [(r.levelname, r.getMessage()) for r in caplog.records]
    assert said == [
        ("ERROR", "sensors: the chain does not answer"),
        ("WARNING", "sensors: working again"),
    ]


def test_a_godice_down_is_a_warning_the_board_plays_on_with_entered_dice(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="bgpi"):
        table_event(FaultEvent(FaultSource.GODICE, "die 2 (blue) is gone", 1.0), GEOMETRY)
    said = [(r.levelname, r.getMessage()) for r in caplog.records]
    assert said == [("WARNING", "godice: die 2 (blue) is gone")]
