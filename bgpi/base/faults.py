"""What can stop answering while a match is played: the source a fault names.

It sits at the bottom of the house because both ends of a fault use it: the hardware layer
and the remote seat report one (:class:`~bgpi.hal.api.FaultEvent`), and the table keeps it
until it clears (:attr:`bgpi.table.Table.faults`).
"""

from __future__ import annotations

from enum import StrEnum


class FaultSource(StrEnum):
    """The source of a fault. A ``str`` too, so the log, the page's status line and its JSON
    name it with the same word as ever (``"sensors"``)."""

    SENSORS = "sensors"
    """The reed switches (whichever backend reads them): nothing is decided while down."""
    GODICE = "godice"
    """The GoDice pair (a die disconnected, or its battery low): the buttons enter the dice
    meanwhile."""
    REMOTE = "remote"
    """The remote board (its broker gone, or the match paused)."""
