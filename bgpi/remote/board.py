"""The other board's seat at a table here: what ``bgpi sim --remote`` (the page's hands) and
``bgpi run`` (a real board) both do with a remote match.

One thread owns the table and the link. At every step it reads the broker, sends what my seat
did (a roll or an opening die just before its dice are drawn, a cube action or a play once the
table records it), and hands the table the other seat's intent once the journal has reached
its record: a decision as that seat's answer, a play as the seat's choice, which the table
lights move by move for the hands here to make. The dice come from the commit-reveal exchange.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path

from bgpi.base.faults import FaultSource
from bgpi.base.i18n import N_, _
from bgpi.base.words import Player
from bgpi.hal.api import FaultEvent
from bgpi.journal.records import MatchStarted, OpeningDie, Played, Record, Rolled
from bgpi.journal.store import Journal
from bgpi.remote.commands import broker_of
from bgpi.remote.demo import ExchangedDice, RemoteGame, seated
from bgpi.remote.forfeit import settle, told
from bgpi.remote.hands import UnmadeIntentError, decided
from bgpi.remote.link import Link, MatchForfeitedError, MatchPausedError, SilenceError
from bgpi.remote.log import MessageLog, log_path
from bgpi.remote.pairing import Pairing, side_name, side_of
from bgpi.remote.session import Session
from bgpi.remote.transport import match_transport
from bgpi.remote.turns import Next, OutOfStepError, Todo, check_made, decider, next_step
from bgpi.remote.wire import Action, Intent
from bgpi.service.config import Config
from bgpi.service.driver import Driver
from bgpi.service.edge import table_event
from bgpi.table import Chosen, Phase, Silence

log = logging.getLogger("bgpi")
RUN_PATIENCE = 4.0  # seconds of silence before a real board shows the other board as gone


class LinkState(Enum):
    """The link as the page shows it (the value is also its words: ``_()`` when shown)."""

    CONNECTED = N_("connected")
    WAITING = N_("waiting for the other board")
    OFFLINE = N_("the broker cannot be reached")
    PAUSED = N_("paused")
    OVER = N_("the match is over")


@dataclass(frozen=True, slots=True)
class RemoteStatus:
    """What the companion page shows of a remote match."""

    code: str
    side: Player
    state: LinkState
    reason: str = ""


class PatientDice:
    """``bgpi run``'s exchanged dice, drawn while the loop goes on (the board and the
    buttons still read, the watchdog fed): a person's board waits for the other board as
    long as it takes (a broker down, the other board restarting), showing the silence
    through ``silent`` (a message; None once it is over)."""

    def __init__(
        self,
        link: Link,
        records: Sequence[Record],
        announce: Callable[[], None],
        *,
        silent: Callable[[str | None], None],
    ) -> None:
        self.link, self.announce, self.silent = link, announce, silent
        self.draws = sum(isinstance(r, OpeningDie | Rolled) for r in records)
        self.asked: int | None = None  # the draw whose intent went out
        self.quiet = False

    def draw(self, count: int) -> tuple[int, ...] | None:
        if self.asked != self.draws:
            self.asked = self.draws
            self.announce()  # my seat's roll: its intent goes out before the dice are drawn
        try:
            dice = self.link.dice_now(self.draws)
        except SilenceError as exc:
            self.quiet = True
            self.silent(str(exc))
            self.link.heard()  # patience again: another round of hellos, another wait
            return None
        if dice is None:
            return None
        if self.quiet:
            self.quiet = False
            self.silent(None)
        self.draws += 1
        return dice[:count]  # an opening die is the first of the pair


class RemoteSeat:
    """The other seat of a remote match at one table (``driver``), on the table's thread.
    ``redo`` makes my seat's intent sent before a restart but not yet made (the page's
    hands press its button; at a real board the person does it again). Once the other
    board owes a message and has said nothing for ``claim_after`` seconds, the person here
    is offered the match by forfeit (a held ROLL claims it); None: never offered."""

    def __init__(
        self,
        link: Link,
        driver: Driver,
        clock: Callable[[], float],
        redo: Callable[[Intent], None] | None = None,
        *,
        claim_after: float | None = None,
    ) -> None:
        self.link, self.side = link, link.session.side
        self.driver, self.clock, self.redo = driver, clock, redo
        self.claim_after = claim_after
        self.handed: set[int] = set()  # the other seat's intents handed to the table
        self.paused: str | None = None
        self.over = False
        self.online = True
        self.claimed = False  # a person here claimed the match: sent on the next poll
        self.step = Next(Todo.WAIT)
        driver.dice = ExchangedDice(link, driver.log, self.announce)
        driver.claim = self._claimed

    def announce(self) -> None:
        """My seat's roll (or opening die): its intent goes out before its dice are drawn."""
        table, records = self.driver.table, self.driver.log
        if decider(table) != self.side:
            return  # the other seat's roll, made here
        at = len(records)
        if all(i.at != at for i in self.link.session.intents(self.side)):
            action = Action.OPENING if table.phase is Phase.OPENING else Action.ROLL
            self.link.send(Intent(at, action))

    def follow(self) -> None:
        """Read the broker; send what my seat did; hand the table the other seat's intent.
        ``MatchPausedError`` once the match is paused (a cheat, the boards out of step)."""
        self.link.pump(0)
        session, driver = self.link.session, self.driver
        step = self.step = next_step(
            driver.table,
            driver.log,
            self.side,
            session.intents(self.side),
            session.intents(self.side.other),
        )
        intent = step.intent
        try:
            if step.todo is Todo.SEND_OWED and intent is not None:
                self.link.send(intent)
            elif step.todo is Todo.REDO_MINE and intent is not None and self.redo is not None:
                self.redo(intent)
            elif step.todo is Todo.MAKE_THEIRS and intent is not None:
                self._make_theirs(step.at, intent)
            self._check_made()
        except (OutOfStepError, UnmadeIntentError) as exc:
            self.link.pause(f"{side_name(self.side.other)}'s {exc}")

    def _make_theirs(self, at: int, intent: Intent) -> None:
        if at in self.handed:
            return
        self.handed.add(at)
        self._hand(intent)
        taken = (Phase.GUIDED, Phase.ROLLING)  # a play being made, dice being drawn
        if len(self.driver.log) == at and self.driver.table.phase not in taken:
            self.handed.discard(at)  # refused for now (the board?): ask again

    def _check_made(self) -> None:
        """The other seat's intents handed to the table, once it recorded them."""
        records, other = self.driver.log, self.side.other
        for intent in self.link.session.intents(other):
            if intent.at in self.handed and intent.at < len(records):
                self.handed.discard(intent.at)
                phase = self.driver.table.phase
                check_made(records, intent, other, mine=False, phase=phase)

    def _hand(self, intent: Intent) -> None:
        other, driver = self.side.other, self.driver
        decision = decided(intent, other, self.clock())
        if decision is not None:
            driver.dispatch(decision)
        else:
            moves = Played(other, intent.moves).move_values()
            driver.dispatch(Chosen(other, moves, self.clock()))

    # -- a real board's loop: faults and the page -------------------------------------

    def be_patient(self) -> None:
        """``bgpi run``: the dice are drawn while the loop goes on (:meth:`poll` collects
        them) and wait for the other board as long as it takes; the silence shows as the
        remote fault."""
        self.driver.drawn = PatientDice(
            self.link, self.driver.log, self.announce, silent=self._silent
        )

    def _silent(self, message: str | None) -> None:
        if message is not None and not self.link.transport.subscribed:
            self.online = False  # poll() clears it once the broker is back
            message = _("{broker} cannot be reached").format(broker=self.link.transport.broker)
        self._fault(message)

    def _fault(self, message: str | None) -> None:
        """The remote link failed (``message`` says how) or, with None, works again: shown as
        a backend's fault is, converted at the edge."""
        fault = FaultEvent(FaultSource.REMOTE, message, self.clock())
        self.driver.dispatch(table_event(fault, self.driver.geometry))

    def paused_by(self, exc: MatchPausedError) -> None:
        """The match paused (a cheat, the boards out of step): show why, follow no more."""
        self._fault(f"match paused: {exc}")
        self.paused = str(exc)  # after the fault: whoever sees the status paused sees it too

    def poll(self) -> None:
        """One step of ``bgpi run``'s loop: follow, showing a broker gone (and back) and a
        pause as the table's fault from :attr:`FaultSource.REMOTE`; never raises for either."""
        online = self.link.transport.subscribed
        if online != self.online:
            self.online = online
            broker = self.link.transport.broker
            what = None if online else _("{broker} cannot be reached").format(broker=broker)
            self._fault(what)
        if self.paused is not None or not online or self.over:
            self._offer(possible=False)  # a claim could not go out (or mean anything)
            return
        try:
            if self.claimed:
                self._claim()
            self.driver.collect(self.clock())  # the dice, once the other board's half is in
            self.follow()
            self._offer()
        except MatchPausedError as exc:
            self.paused_by(exc)
        except MatchForfeitedError:  # claimed here, or by the other board while this was away
            forfeit = self.link.session.forfeit
            assert forfeit is not None
            log.warning("%s", told(forfeit))
            settle(self.driver, forfeit, self.clock(), self.link.session.intents(self.side.other))
        # Done: a next match started at this board after this one is not the other board's.
        self.over = self.driver.table.phase is Phase.MATCH_OVER

    # -- a forfeit claimed by the person here --------------------------------------------

    def _offer(self, *, possible: bool = True) -> None:
        """Offer the claim to the person here while the other board owes a message and has
        been silent past ``claim_after`` (and take the offer back once it speaks, or once a
        claim is not ``possible``: the broker gone, the match paused or over)."""
        silent = self.claim_after is not None and self.link.silence() >= self.claim_after
        owed = possible and silent and self.step.todo is Todo.WAIT
        claimant = self.side if owed else None
        if claimant != self.driver.table.claimant:
            if claimant is not None:
                log.warning(
                    "%s said nothing for %d s while it owed a message: the match may be "
                    "claimed by forfeit",
                    side_name(self.side.other),
                    round(self.link.silence()),
                )
            self.driver.dispatch(Silence(claimant, self.clock()))

    def _claimed(self, player: Player) -> None:
        """The driver's word that the person here claimed the match (on the loop's thread,
        from inside its step): the claim goes out on the next :meth:`poll`."""
        self.claimed = player == self.side

    def _claim(self) -> None:
        """Send the claim, unless the other board's message came first: then the offer is
        gone and play goes on. ``MatchForfeitedError`` once the claim (or the other board's,
        crossing it) settled the match."""
        self.claimed = False
        have = len(self.link.session.received)
        self.link.pump(0)
        if len(self.link.session.received) > have:
            log.info("%s spoke before the claim went out: play goes on", side_name(self.side.other))
            return
        self.link.claim(len(self.driver.log))
        self.link.check()

    def status(self) -> RemoteStatus:
        code, side = self.link.pairing.code, self.side
        if self.paused is not None:
            return RemoteStatus(code, side, LinkState.PAUSED, self.paused)
        if not self.online:
            return RemoteStatus(code, side, LinkState.OFFLINE, str(self.link.transport.broker))
        if self.over:
            return RemoteStatus(code, side, LinkState.OVER)
        if self.step.todo is Todo.WAIT:
            return RemoteStatus(code, side, LinkState.WAITING)
        return RemoteStatus(code, side, LinkState.CONNECTED)


def run_game(config: Config) -> RemoteGame | None:
    """The remote match ``[remote]`` configures for ``bgpi run``, if any; ``ValueError``
    saying what is missing."""
    remote = config.remote
    if not remote.broker or (not remote.match and remote.club):
        return None  # no broker, or one for the club's results only
    if not remote.match:
        raise ValueError("[remote] broker is set, but no match code: set [remote] match")
    game = RemoteGame(broker_of(config, None), Pairing(remote.match), side_of(remote.side), 0)
    return replace(game, patience=RUN_PATIENCE)


def open_link(
    stack: ExitStack, game: RemoteGame, journal: Journal, match: MatchStarted, state_dir: Path
) -> Link:
    """The link of a real board's journal to the other board: a new remote match is started
    in the journal (with the other side seated as the remote board) until its first message
    is logged; after that the journal's match is resumed. ``stack`` closes both."""
    match = seated(match, game.side)
    messages = stack.enter_context(MessageLog(log_path(state_dir, game.pairing, game.side)))
    records = journal.records() if journal.matches() else []
    if messages.empty and records != [match]:
        journal.new_match(match)
        records = journal.records()
    first = records[0]
    finished = journal.matches()[-1].finished
    if finished or not isinstance(first, MatchStarted) or first.seats != match.seats:
        raise ValueError(
            _("match code {code} was used for a match that is over: take a new one").format(
                code=game.pairing.code
            )
        )
    session = Session.restore(
        game.pairing,
        game.side,
        first,
        sent=messages.messages("sent"),
        received=messages.messages("received"),
        secrets=messages.secrets(),
    )
    transport = match_transport(game.broker, game.pairing, game.side)
    stack.callback(transport.close)
    transport.open()
    link = Link(session, transport, messages, patience=game.patience)
    link.hello()
    return link
