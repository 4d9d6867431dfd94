"""The demos' printer (``bgpi demo``, ``bgpi demo --remote``): the game log's lines said as
the records come in, each once it is final."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bgpi.base.i18n import _
from bgpi.journal.records import GameEnded, Record
from bgpi.present.diagram import match_text
from bgpi.present.gamelog import GameLog
from bgpi.present.phrases import players
from bgpi.table import Table


class Printer:
    """Says the game log's lines of a match's records (:meth:`flush`), each once it is final.
    A match resumed (``records`` more than its start) is said where it stands, and only
    what comes after is printed."""

    def __init__(self, table: Table, records: Sequence[Record], say: Callable[[str], None]):
        self.say = say
        self.log = GameLog()
        self.seen = self.printed = 0
        self.games_ended = 0  # in this run: a resumed match counts from where it resumed
        if len(records) > 1:
            for record in records:
                self.log.add(record)
            self.seen, self.printed = len(records), self.log.complete
            where = "; ".join(match_text(table.match, players(table.names)))  # names shown
            say(_("resuming: {where}").format(where=where))

    def flush(self, records: Sequence[Record]) -> None:
        """Print what ``records`` (the match's, so far) finished since the last flush."""
        for record in records[self.seen :]:
            self.log.add(record)
            self.games_ended += isinstance(record, GameEnded)
        self.seen = len(records)
        for entry in self.log.lines[self.printed : self.log.complete]:
            self.say(f"\n{entry.text}" if entry.kind == "game" else f"  {entry.text}")
        self.printed = self.log.complete
