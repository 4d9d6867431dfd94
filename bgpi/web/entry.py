"""Dice thrown by hand, entered on the page: the one command a phone may send to a real
board's companion (which refuses every other), and the simulator's page sends the same.

The page taps a face in each row; the command names the dice, and the table takes them as
the roll it is entering (a :class:`~bgpi.table.DiceRolled` with the source ``entered``).
While GoDice are awaited, the page may enter the roll where the thrower's held CUBE may
turn it to entering by hand (:func:`~bgpi.table.thrown.entered_instead`: the table's rows
decide, here and again on the app's loop).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from bgpi.base.i18n import _
from bgpi.journal.records import DiceSource
from bgpi.table import DiceRolled, Entering, Table
from bgpi.table.thrown import entered_instead
from bgpi.web.server import PageCommandError, Snapshot

READ_ONLY = "this page only shows the board: play on the board itself"


def entered(table: Table | None, message: Mapping[str, object], t: float) -> DiceRolled:
    """The roll ``message`` enters for the table as it stands, at ``t``; a
    :class:`~bgpi.web.server.PageCommandError` saying why it cannot."""
    at = entered_instead(table).at if table is not None else None
    if not isinstance(at, Entering):
        phase = at.kind.value if at is not None else "-"
        raise PageCommandError(_("no dice are entered in phase {phase}").format(phase=phase))
    dice = message.get("dice")
    if (
        not isinstance(dice, list)
        or len(dice) != at.count
        or any(type(die) is not int or not 1 <= die <= 6 for die in dice)
    ):
        raise PageCommandError(
            _("dice {dice!r} are not {count} dice of 1 to 6").format(dice=dice, count=at.count)
        )
    return DiceRolled(at.player, tuple(dice), t, DiceSource.ENTERED)


class EntryOnly:
    """The companion's controller: the dice being entered, posted to the app's loop (which
    owns the table); every other command refused, as the page is read-only."""

    def __init__(
        self,
        table: Callable[[], Table | None],
        post: Callable[[DiceRolled], None],
        clock: Callable[[], float],
    ) -> None:
        self.table = table  # the table the companion last saw
        self.post = post
        self.clock = clock

    def command(self, message: Mapping[str, object]) -> None:
        if message.get("type") != "enter":
            raise PageCommandError(READ_ONLY)
        self.post(entered(self.table(), message, self.clock()))

    def snapshot(self) -> Snapshot:
        return Snapshot()  # the companion publishes after each step of the app's loop

    def let_go(self) -> None:
        """Nothing is held."""
