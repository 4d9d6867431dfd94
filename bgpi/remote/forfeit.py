"""A remote match won by forfeit, at a board: the other board said nothing past its patience
while it owed a message (its reveal, or its seat's decision), and a claim was sent or taken.

The claim is a message (:class:`~bgpi.remote.wire.Claim`), so it is journaled in the message
log before it leaves, and the session settles it (:attr:`Session.forfeit
<bgpi.remote.session.Session.forfeit>`); :func:`settle` then ends the match at the table with a
:class:`~bgpi.journal.records.Forfeit` record. A board restarted between the two settles again
from its message log, so the journal always follows.
"""

from __future__ import annotations

import logging

from bgpi.journal.records import Forfeit
from bgpi.remote.pairing import side_name
from bgpi.remote.session import Settled
from bgpi.service.driver import Driver
from bgpi.table.errors import TableError
from bgpi.table.phases import Forfeited

log = logging.getLogger("bgpi")


def settle(driver: Driver, forfeit: Settled, now: float) -> bool:
    """End the match at ``driver``'s table as ``forfeit`` settled it (once: a table already
    so ended is left alone); False if the table cannot (its next match is being chosen)."""
    at = driver.table.at
    if isinstance(at, Forfeited) and at.winner == forfeit.winner:
        return True
    try:
        driver.settle(Forfeit(forfeit.winner), now)
    except TableError as exc:
        log.warning("a forfeit came too late here: %s", exc)
        return False
    return True


def told(forfeit: Settled) -> str:
    """The forfeit in words, for the log: who won it, after how long a silence, and what of
    the loser's came too late."""
    winner, loser = side_name(forfeit.winner), side_name(forfeit.winner.other)
    text = (
        f"{winner} won the match by forfeit: {loser} said nothing for {forfeit.claim.silent} s "
        "while it owed a message"
    )
    if forfeit.late:
        text += f" ({forfeit.late} sent by {loser} came too late)"
    return text
