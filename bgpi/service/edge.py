"""Where a backend's event becomes the table's: the one place a hardware event (a sensor
frame, a button, a GoDice die's word, a fault) is turned into the event the table decides on.

The app's loop, the simulated table and a remote match's seat all hand the backends' events
(or, for the remote seat, its own faults) through :func:`table_event` before the driver
dispatches them; the driver itself takes only the table's events.
"""

from __future__ import annotations

import logging

from bgpi.base.faults import FaultSource
from bgpi.base.geometry import Geometry
from bgpi.hal.api import ButtonEvent, DieEvent, SensorEvent, SensorFrame
from bgpi.hal.api import Event as HalEvent
from bgpi.table import Fault, Press, Seen
from bgpi.table.events import DieRested

log = logging.getLogger("bgpi")


def table_event(event: HalEvent, geometry: Geometry) -> Seen | Press | DieRested | Fault:
    """``event`` as the table takes it: a frame as the checkers per zone ``geometry`` counts
    in it, a button as a press, a die's word as the die rested (the table judges the
    throw), a fault (said in the log here, once) as a fault."""
    if isinstance(event, SensorEvent):
        return seen(event.frame, geometry)
    if isinstance(event, DieEvent):
        return DieRested(event.die, event.rest, event.value, event.timestamp)
    if isinstance(event, ButtonEvent):
        return Press(event.player, event.button, event.pressed, event.timestamp)
    if event.message is None:
        log.warning("%s: working again", event.source)
    elif event.source is FaultSource.GODICE:
        # A warning, as the link logs it: the board plays on with entered dice, and dice
        # switched off for the evening are no failure of the board's.
        log.warning("%s: %s", event.source, event.message)
    else:
        log.error("%s: %s", event.source, event.message)
    return Fault(event.source, event.message, event.timestamp)


def seen(frame: SensorFrame, geometry: Geometry) -> Seen:
    """A sensor frame as the table observes it: the checkers per zone ``geometry`` counts."""
    return Seen(geometry.counts(frame), frame.timestamp)
