"""A remote match won by forfeit, at a board: the other board said nothing past its patience
while it owed a message (its reveal, or its seat's decision), and a claim was sent or taken.

The claim is a message (:class:`~bgpi.remote.wire.Claim`), so it is journaled in the message
log before it leaves, and the session settles it (:attr:`Session.forfeit
<bgpi.remote.session.Session.forfeit>`); :func:`settle` then ends the match at the table with a
:class:`~bgpi.journal.records.Forfeit` record. A board restarted between the two settles again
from its message log, so the journal always follows.

Both boards' journals hold one match: the claim says how many records the claimant's held
(:attr:`Claim.at <bgpi.remote.wire.Claim.at>`), and a board the claim reaches journals up to
there before its Forfeit (:func:`caught_up`). What it lacks is the claimant's: a play it chose,
signed and journaled, which the hands here were making (or had not begun) when this board fell
silent, its decisions taken but not yet made, its dice, the next game begun. The claimant's
board is the one that saw the silence and the claim, so its journal is the match as played;
the board here only catches up with it, as its hands would have, the board left as it stands.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from contextlib import suppress

from bgpi.base.words import Player
from bgpi.journal.records import Forfeit, GameStarted, Played, Seat
from bgpi.remote.hands import decided
from bgpi.remote.link import MatchForfeitedError
from bgpi.remote.pairing import side_name
from bgpi.remote.session import Settled
from bgpi.remote.wire import Intent
from bgpi.service.driver import Driver
from bgpi.table import Chosen, Phase
from bgpi.table.errors import TableError
from bgpi.table.guided import unshown
from bgpi.table.phases import Forfeited, Guided, MatchOver

log = logging.getLogger("bgpi")


def settle(driver: Driver, forfeit: Settled, now: float, theirs: Sequence[Intent] = ()) -> bool:
    """End the match at ``driver``'s table as ``forfeit`` settled it (once: a table already
    so ended is left alone), the journal first brought up to the claimant's when the claim
    is the other board's (``theirs``: its intents); False if the table cannot (its next
    match is being chosen)."""
    at = driver.table.at
    if isinstance(at, Forfeited) and at.winner == forfeit.winner:
        return True
    late = 0
    # The other board's claim, the match not over yet (crossed claims settled the other way
    # end it again, as it stands).
    if driver.table.seats[forfeit.winner] is Seat.REMOTE and not isinstance(at, MatchOver):
        try:
            late = caught_up(driver, forfeit, theirs, now)
        except TableError as exc:  # what was made stands; the forfeit ends the match all the same
            log.warning("the claimant's records could not all be made here: %s", exc)
    try:
        driver.settle(Forfeit(forfeit.winner, late), now)
    except TableError as exc:
        log.warning("a forfeit came too late here: %s", exc)
        return False
    return True


def caught_up(driver: Driver, forfeit: Settled, theirs: Sequence[Intent], now: float) -> int:
    """Journal here what the claimant's journal held before its claim and this one lacks
    (its count is the claim's ``at``), as the hands here would have made it: each of its
    intents taken here (a play committed though the board does not show it all), the dice
    the two boards drew, the next game begun. A record that cannot be made here is said in
    the log, and the Forfeit follows all the same. Returns how many records this board holds
    past the claimant's: its own, which the claim crossed (they came too late)."""
    upto = forfeit.claim.at
    if upto is None:  # an older board's claim: its intents are all it says, and none late
        upto = max((i.at + 1 for i in theirs), default=0)
        counted = False
    else:
        counted = True
    while (at := len(driver.log)) < upto:
        before = driver.table.at
        with suppress(MatchForfeitedError):  # dice this board cannot draw: nor could the claimant
            _make_next(driver, forfeit.winner, at, theirs, now)
        # Each turn makes a record, or a play to make (guided) that the next turn journals;
        # anything else would go round for ever (a claim's count is the other board's word).
        moved = isinstance(driver.table.at, Guided) and not isinstance(before, Guided)
        if len(driver.log) == at and not moved:
            log.warning(
                "the forfeit's claimant had %d records, this board %d: record %d cannot be "
                "made here in phase %s",
                upto,
                at,
                at + 1,
                driver.table.phase.value,
            )
            return 0
    if counted and len(driver.log) > upto:
        log.warning(
            "the forfeit's claimant had %d records, this board %d: the last came too late",
            upto,
            len(driver.log),
        )
    return max(0, len(driver.log) - upto) if counted else 0


def _make_next(
    driver: Driver, claimant: Player, at: int, theirs: Sequence[Intent], now: float
) -> None:
    """The next record the claimant journaled and this board lacks, made here."""
    table = driver.table
    if isinstance(table.at, Guided):
        for record in unshown(table).records:
            driver.settle(record, now)
        return
    if table.phase is Phase.ROLLING:
        driver.collect(now)  # dice the two boards drew: the claimant had them, so has this
        return
    if table.phase in (Phase.GAME_OVER, Phase.SETUP):
        driver.settle(GameStarted(), now)  # the claimant set up the next game
        return
    intent = next((i for i in theirs if i.at == at), None)
    if intent is None:
        return
    decision = decided(intent, claimant, now)
    if decision is not None:
        driver.dispatch(decision)
    else:
        moves = Played(claimant, intent.moves).move_values()
        driver.dispatch(Chosen(claimant, moves, now))


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
