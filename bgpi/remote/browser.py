"""``bgpi sim --remote``: a person plays a remote board's seat in the browser.

The page's hands act for the person's seat; the other seat's decisions arrive from the broker
and go to the table as that seat's answers, and its plays are lit move by move for the person
to make with the page's hands. The person's own actions go to the other board: a roll (or an
opening die) just before its dice are drawn, a cube action or a play once the table records
it. One thread, the page's loop, owns the table and the link: the broker is read at every
step of the simulated clock.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from contextlib import ExitStack, suppress
from dataclasses import replace
from pathlib import Path

from bgpi.config import Config
from bgpi.lights.ledmap import LedMap
from bgpi.lights.render import Style
from bgpi.records import MatchStarted, Played
from bgpi.remote.demo import ExchangedDice, RemoteGame, remote_board, seats_of
from bgpi.remote.hands import UnmadeIntentError, make
from bgpi.remote.link import Link
from bgpi.remote.pairing import side_name
from bgpi.remote.turns import OutOfStepError, Todo, check_made, decider, next_step
from bgpi.remote.wire import Action, Intent
from bgpi.simtable import SimTable
from bgpi.table import Chosen, Decided, Phase
from bgpi.table import Intent as TableIntent
from bgpi.web.auth import is_loopback, new_token
from bgpi.web.run import Address, serve_sim
from bgpi.web.server import CommandError
from bgpi.web.session import SimSession
from bgpi.words import ROLL, WHITE

_DECISIONS = {
    Action.OPENING: TableIntent.OPENING_ROLL,
    Action.ROLL: TableIntent.ROLL,
    Action.DOUBLE: TableIntent.DOUBLE,
    Action.TAKE: TableIntent.TAKE,
    Action.BEAVER: TableIntent.BEAVER,
    Action.DROP: TableIntent.DROP,
}


class RemoteSimSession(SimSession):
    """The page's session of one seat of a remote match."""

    def __init__(self, sim: SimTable, ledmap: LedMap, style: Style, link: Link) -> None:
        super().__init__(sim, ledmap, style)
        self.link, self.side = link, link.session.side
        self.handed: set[int] = set()  # the other seat's intents handed to the table
        sim.driver.dice = ExchangedDice(link, sim.driver.log, self._announce)

    def catch_up(self) -> None:
        super().catch_up()
        self.follow()

    def command(self, message: Mapping[str, object]) -> None:
        if message.get("type") == "press" and self._too_early(message):
            raise CommandError("White rolls the first opening die: wait for it")
        super().command(message)
        self.follow()

    def _too_early(self, message: Mapping[str, object]) -> bool:
        """The opening roll goes White's die first, so both journals keep one order."""
        table = self.sim.table
        return (
            message.get("button") == ROLL
            and message.get("player") == self.side
            and table.phase is Phase.OPENING
            and decider(table) == WHITE != self.side
        )

    def _announce(self) -> None:
        table, records = self.sim.table, self.sim.driver.log
        if decider(table) != self.side:
            return  # the other seat's roll, made here
        at = len(records)
        if all(i.at != at for i in self.link.session.intents(self.side)):
            action = Action.OPENING if table.phase is Phase.OPENING else Action.ROLL
            self.link.send(Intent(at, action))

    def follow(self) -> None:
        """Read the broker; send what my seat did; hand the table the other seat's intent."""
        self.link.pump(0)
        session, sim = self.link.session, self.sim
        records = sim.driver.log
        step = next_step(
            sim.table,
            records,
            self.side,
            session.intents(self.side),
            session.intents(1 - self.side),
        )
        intent = step.intent
        try:
            if step.todo is Todo.SEND_OWED and intent is not None:
                self.link.send(intent)
            elif step.todo is Todo.REDO_MINE and intent is not None:
                make(sim, intent, self.side)
            elif (
                step.todo is Todo.MAKE_THEIRS and intent is not None and step.at not in self.handed
            ):
                self.handed.add(step.at)
                self._hand(intent)
                if len(sim.driver.log) == step.at and sim.phase is not Phase.GUIDED:
                    self.handed.discard(step.at)  # refused for now (the board?): ask again
            self._check_made()
        except (OutOfStepError, UnmadeIntentError) as exc:
            self.link.pause(f"{side_name(1 - self.side)}'s {exc}")

    def _check_made(self) -> None:
        """The other seat's intents handed to the table, once it recorded them."""
        records, other = self.sim.driver.log, 1 - self.side
        for intent in self.link.session.intents(other):
            if intent.at in self.handed and intent.at < len(records):
                self.handed.discard(intent.at)
                check_made(records, intent, other, mine=False, phase=self.sim.phase)

    def _hand(self, intent: Intent) -> None:
        sim, other = self.sim, 1 - self.side
        if intent.action is Action.PLAY:
            moves = Played(other, intent.moves).move_values()
            sim.driver.dispatch(Chosen(other, moves, sim.clock()))
        elif intent.action in _DECISIONS:
            sim.driver.dispatch(Decided(other, _DECISIONS[intent.action], sim.clock()))
        else:
            self.link.pause(
                f"{side_name(other)}'s {intent.action.value}: not yet made at the table"
            )


def run_remote_sim(
    config: Config,
    game: RemoteGame,
    match: MatchStarted,
    *,
    host: str,
    port: int,
    state_dir: Path,
) -> int:
    """Serve the page of this board's seat until the match is over or Ctrl-C."""
    match = replace(match, seats=seats_of(game.side))
    with ExitStack() as stack:
        sim, link = stack.enter_context(remote_board(game, match, state_dir))
        if sim.phase is Phase.SETUP:
            sim.setup()
        session = RemoteSimSession(sim, config.ledmap, config.style, link)

        token = None if is_loopback(host) else new_token()

        def ready(address: Address) -> None:
            print(f"bgpi sim: {address.url}", flush=True)
            if token is not None:
                print("bgpi sim: bound to the network: every request needs the token above")
            seat = f"{side_name(game.side)} against a remote board, match {game.pairing.code}"
            print(f"bgpi sim: {seat}", flush=True)

        with suppress(KeyboardInterrupt):
            asyncio.run(serve_sim(session, host=host, port=port, token=token, ready=ready))
    return 0
