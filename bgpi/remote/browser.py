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

from bgpi.base.i18n import _
from bgpi.base.words import ROLL, WHITE
from bgpi.journal.records import MatchStarted
from bgpi.journal.store import Journal
from bgpi.lights.ledmap import LedMap
from bgpi.lights.render import Style
from bgpi.present.phrases import SIDES
from bgpi.remote.board import RemoteSeat, RemoteStatus
from bgpi.remote.clubpost import ClubPoster
from bgpi.remote.demo import RemoteGame, remote_board, seated
from bgpi.remote.hands import make
from bgpi.remote.link import Link
from bgpi.remote.turns import decider
from bgpi.remote.wire import Intent
from bgpi.service.config import Config
from bgpi.sim.simtable import SimTable
from bgpi.table import Phase
from bgpi.web.auth import is_loopback, new_token
from bgpi.web.linkview import remote_message
from bgpi.web.run import Address, serve_sim
from bgpi.web.server import PageCommandError, Snapshot
from bgpi.web.session import SimSession


class RemoteSimSession(SimSession):
    """The page's session of one seat of a remote match."""

    def __init__(
        self, sim: SimTable, ledmap: LedMap, style: Style, link: Link, *, sound: bool = False
    ) -> None:
        super().__init__(sim, ledmap, style, sound=sound)
        self.link, self.side = link, link.session.side
        self.seat = RemoteSeat(link, sim.driver, sim.clock, self._redo, claim_after=link.patience)
        self.seat.be_patient()  # the page goes on while the dice are drawn with the other board
        self._status: RemoteStatus | None = None

    def catch_up(self) -> None:
        super().catch_up()
        self.follow()

    def command(self, message: Mapping[str, object]) -> None:
        if message.get("type") == "press" and self._too_early(message):
            raise PageCommandError("White rolls the first opening die: wait for it")
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

    def _redo(self, intent: Intent) -> None:
        make(self.sim, intent, self.side)

    def follow(self) -> None:
        """Read the broker; the dice once drawn; send what my seat did; hand the table the
        other seat's intent. A broker gone and a pause show as the remote fault."""
        self.seat.poll()

    def snapshot(self) -> Snapshot:
        """The page's state with the match code and the link's state (sent again whenever
        the link's state changes, even when the table did not)."""
        status = self.seat.status()
        if status != self._status:
            self._status = status
            self._table = None  # the state goes out again, with the new link state
        snapshot = super().snapshot()
        if snapshot.state is None:
            return snapshot
        return replace(snapshot, state={**snapshot.state, "remote": remote_message(status)})


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
    match = seated(match, game.side)
    with ExitStack() as stack:
        sim, link = stack.enter_context(remote_board(game, match, state_dir))
        if sim.phase is Phase.SETUP:
            sim.setup()
        session = RemoteSimSession(
            sim, config.ledmap, config.style, link, sound=config.sound.enabled
        )
        session.site = config.players.site

        token = None if is_loopback(host) else new_token()

        def ready(address: Address) -> None:
            print(f"bgpi sim: {address.url}", flush=True)
            if token is not None:
                print("bgpi sim: " + _("bound to the network: every request needs the token above"))
            seat = _("{side} against a remote board, match {code}").format(
                side=_(SIDES[game.side]), code=game.pairing.code
            )
            print(f"bgpi sim: {seat}", flush=True)
            journal = sim.journal
            if config.remote.club and isinstance(journal, Journal):  # --club NAME
                board = game.pairing.client_id(game.side)
                poster = ClubPoster(
                    game.broker, config.remote.club, board=board, link=address.mat_link
                )
                stack.callback(poster.close)
                session.watchers.append(lambda played: poster.watch(played.table, journal))

        with suppress(KeyboardInterrupt):
            asyncio.run(serve_sim(session, host=host, port=port, token=token, ready=ready))
    return 0
