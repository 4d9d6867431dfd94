"""``bgpi demo --remote``: this process's built-in player plays one seat of a match against
another board over an MQTT broker; the other seat's intents arrive from the broker and the
simulated hands here make them.

Each board journals every record (the match's journal) and every message (its message log)
before it shows or sends anything, so a board killed at any moment and started again with
the same state directory goes on where it was, and so does the other. A board whose other
board owes a message and says nothing past its patience claims the match by forfeit (the
demo's hands take the offer at once), and a board that comes back to find the match claimed
ends it the same way (:mod:`~bgpi.remote.forfeit`).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from bgpi.base.i18n import _
from bgpi.base.words import WHITE, Player
from bgpi.journal.records import ELECTRONIC, MatchStarted, OpeningDie, Record, Rolled, Seat
from bgpi.present.phrases import REMOTE_DICE
from bgpi.present.printer import Printer
from bgpi.remote.broker import Broker
from bgpi.remote.forfeit import settle, told
from bgpi.remote.hands import UnmadeIntentError, decide, make, make_theirs
from bgpi.remote.link import Link, MatchForfeitedError, SilenceError
from bgpi.remote.log import MessageLog, log_path
from bgpi.remote.pairing import Pairing, side_name
from bgpi.remote.session import Session
from bgpi.remote.transport import match_transport
from bgpi.remote.turns import OutOfStepError, Todo, check_made, next_step
from bgpi.remote.wire import Action, Intent
from bgpi.service.driver import Journal, MemoryJournal
from bgpi.sim.demo import PipPlayer
from bgpi.sim.simtable import SimOptions, SimTable

MAX_STEPS = 50_000  # a runaway guard: a 25-point match needs far fewer
log = logging.getLogger("bgpi")


@dataclass(frozen=True, slots=True)
class RemoteGame:
    """Who this board is in which remote match."""

    broker: Broker
    pairing: Pairing
    side: Player
    seed: int
    patience: float = 120.0


def seats_of(side: Player) -> tuple[Seat, Seat]:
    """My seat is the person at this board; the other is the remote board's."""
    return (Seat.PERSON, Seat.REMOTE) if side == WHITE else (Seat.REMOTE, Seat.PERSON)


def seated(match: MatchStarted, side: Player) -> MatchStarted:
    """``match`` as this board plays it against a remote board on ``side``: my seat the
    person here, the other the remote board's, and the dice commit-reveal (the log says why
    if dice thrown by hand were chosen)."""
    if match.dice.physical:
        logging.getLogger("bgpi").warning("%s", _(REMOTE_DICE))
    return replace(match, seats=seats_of(side), dice=ELECTRONIC)


class ExchangedDice:
    """The table's dice, drawn with the other board (commit, reveal), numbered in the match."""

    def __init__(
        self,
        link: Link,
        records: Sequence[Record],
        announce: Callable[[], None] | None = None,
    ) -> None:
        self.link, self.announce = link, announce
        self.draws = sum(isinstance(r, OpeningDie | Rolled) for r in records)

    def roll(self) -> tuple[int, int]:
        if self.announce is not None:  # my seat's roll: its intent goes out before the dice
            self.announce()
        dice = self.link.dice(self.draws)
        self.draws += 1
        return dice

    def die(self) -> int:
        return self.roll()[0]


@contextmanager
def remote_board(
    game: RemoteGame, match: MatchStarted, state_dir: Path | None
) -> Iterator[tuple[SimTable, Link]]:
    """The simulated table and its link, new or resumed from the state directory."""
    with ExitStack() as stack:
        journal, messages, records = _open_logs(stack, game, match, state_dir)
        session = Session.restore(
            game.pairing,
            game.side,
            match if not records else _first(records),
            sent=messages.messages("sent"),
            received=messages.messages("received"),
            secrets=messages.secrets(),
        )
        transport = match_transport(game.broker, game.pairing, game.side)
        stack.callback(transport.close)
        transport.open()
        link = Link(session, transport, messages, patience=game.patience)
        sim = SimTable(records or match, options=SimOptions(seed=game.seed), journal=journal)
        sim.driver.dice = ExchangedDice(link, sim.driver.log)
        link.hello()
        yield sim, link
        transport.flush()


def _first(records: Sequence[Record]) -> MatchStarted:
    first = records[0]
    assert isinstance(first, MatchStarted)
    return first


def _open_logs(
    stack: ExitStack, game: RemoteGame, match: MatchStarted, state_dir: Path | None
) -> tuple[Journal, MessageLog, list[Record]]:
    """The match's journal, the message log, and the records to resume (none: a new match)."""
    if state_dir is None:
        return MemoryJournal(), stack.enter_context(MessageLog(":memory:")), []
    from bgpi.journal.store import JOURNAL_NAME  # noqa: PLC0415
    from bgpi.journal.store import Journal as Store  # noqa: PLC0415

    state_dir.mkdir(parents=True, exist_ok=True)
    journal = stack.enter_context(Store.open(state_dir / JOURNAL_NAME))
    messages = stack.enter_context(MessageLog(log_path(state_dir, game.pairing, game.side)))
    if messages.empty:
        return journal, messages, []
    matches = journal.matches()
    if not matches or matches[-1].finished:
        raise ValueError(
            f"match code {game.pairing.code} was used for a match that is over: take a new one"
        )
    return journal, messages, journal.records()


def play_remote(
    game: RemoteGame,
    match: MatchStarted,
    *,
    state_dir: Path | None = None,
    say: Callable[[str], None] = print,
) -> SimTable:
    """Play this board's seat until the match is over; ``MatchPausedError`` if it pauses."""
    match = seated(match, game.side)
    with remote_board(game, match, state_dir) as (sim, link):
        say(f"{side_name(game.side)} at {game.broker}, room {game.pairing.room[:8]}")
        printer = Printer(sim.table, sim.driver.log, say)
        player = PipPlayer()
        for _turn in range(MAX_STEPS):
            printer.flush(sim.driver.log)
            if not _play_on(sim, link, player, game):
                printer.flush(sim.driver.log)
                return sim
    raise RuntimeError(f"the remote demo took {MAX_STEPS} steps without finishing the match")


def _play_on(sim: SimTable, link: Link, player: PipPlayer, game: RemoteGame) -> bool:
    """One step; False once the match is over, by its score or by a forfeit."""
    try:
        return _step(sim, link, player, game)
    except SilenceError:
        if not _claim(link, len(sim.driver.log)):
            return True
    except MatchForfeitedError:
        pass
    forfeit = link.session.forfeit
    assert forfeit is not None
    log.warning("%s", told(forfeit))
    settle(sim.driver, forfeit, sim.clock(), link.session.intents(link.session.peer))
    return False


def _claim(link: Link, at: int) -> bool:
    """The other board owes a message and said nothing past its patience (the journal's match
    holding ``at`` records): the match is offered as won by forfeit, and the demo's hands take
    the offer (a person would press), unless the
    message came first: then the offer is gone and play goes on (False). True once the match
    is settled by forfeit."""
    have = len(link.session.received)
    try:
        link.pump(0)
    except MatchForfeitedError:  # the other board's claim came first
        return True
    if len(link.session.received) > have:
        link.heard()
        return False
    link.claim(at)
    return True


def _step(sim: SimTable, link: Link, player: PipPlayer, game: RemoteGame) -> bool:
    """One thing this board does next; False once the match is over."""
    link.pump(0)
    session, side = link.session, game.side
    records = sim.driver.log
    step = next_step(sim.table, records, side, session.intents(side), session.intents(side.other))
    todo = step.todo
    if todo is Todo.DONE:
        return False
    if todo is Todo.SET_UP:
        sim.setup()
    elif todo is Todo.NEXT_GAME:
        sim.roll(side)
    elif todo is Todo.WAIT:
        link.wait(0.2)
    elif todo is Todo.SEND_OWED:
        assert step.intent is not None
        link.send(step.intent)
    elif todo is Todo.MAKE_THEIRS:
        _make(sim, link, step.intent, side.other)
    else:  # my seat: an intent sent before a restart, or a new decision
        intent = step.intent or _decide(sim, link, player, game)
        _make(sim, link, intent, side)
    return True


def _decide(sim: SimTable, link: Link, player: PipPlayer, game: RemoteGame) -> Intent:
    """My seat's decision; sent before my hands make it (a play only once committed)."""
    at = len(sim.driver.log)
    intent = decide(sim, player, game.side, at, random.Random(f"{game.seed}:{game.side}:{at}"))
    if intent.action is not Action.PLAY:
        link.send(intent)
    return intent


def _make(sim: SimTable, link: Link, intent: Intent | None, who: Player) -> None:
    assert intent is not None
    try:
        if who == link.session.side:
            make(sim, intent, who)
        else:
            make_theirs(sim, intent, who)
        check_made(sim.driver.log, intent, who, mine=who == link.session.side, phase=sim.phase)
    except (OutOfStepError, UnmadeIntentError) as exc:
        link.pause(f"{side_name(who)}'s {exc}")
