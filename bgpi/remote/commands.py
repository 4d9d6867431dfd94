"""The commands of remote play: ``bgpi demo --remote …`` and ``bgpi club results``."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from bgpi.base.i18n import _
from bgpi.journal.records import MatchStarted
from bgpi.present.phrases import players
from bgpi.remote.broker import Broker
from bgpi.remote.pairing import Pairing, side_of
from bgpi.service.config import Config

if TYPE_CHECKING:
    from bgpi.remote.demo import RemoteGame

OK = 0


def broker_of(config: Config, url: str | None) -> Broker:
    """The broker named on the command line (else the config's), with the config's login."""
    remote = config.remote
    chosen = url or remote.broker
    if not chosen:
        raise ValueError("no broker: give --remote/--broker URL or set [remote] broker")
    return Broker.parse(
        chosen,
        username=remote.username or None,
        password=remote.password or None,
        ca_file=remote.ca_file or None,
    )


def remote_game(config: Config, args: argparse.Namespace) -> RemoteGame:
    """Who this board is, from the command line and the config; ``ValueError`` saying what
    is missing or wrong."""
    from bgpi.remote.demo import RemoteGame  # noqa: PLC0415

    code = args.match or config.remote.match
    if not code:
        raise ValueError("--remote needs the match code: --match CODE or [remote] match")
    side = side_of(args.side or config.remote.side)
    seed = args.seed if args.seed is not None else 0
    patience = args.patience if args.patience is not None else config.remote.patience
    return RemoteGame(broker_of(config, args.remote), Pairing(code), side, seed, patience)


def remote_demo(game: RemoteGame, match: MatchStarted, args: argparse.Namespace) -> int:
    from bgpi.remote.club import publish_result  # noqa: PLC0415
    from bgpi.remote.demo import play_remote  # noqa: PLC0415

    state_dir = Path(args.state_dir) if args.state_dir else None
    print(f"bgpi demo --remote, match {game.pairing.code}, seed {game.seed}", flush=True)
    sim = play_remote(game, match, state_dir=state_dir, say=lambda text: print(text, flush=True))
    score, names = sim.match.score, sim.table.names
    final = _("final score: {white} {white_score}, {black} {black_score}")
    white, black = players(names)
    print()
    print(final.format(white=white, white_score=score[0], black=black, black_score=score[1]))
    club = args.club or ""
    if club:
        publish_result(game.broker, club, sim.driver.log, board=game.pairing.client_id(game.side))
        print(_("published the result to club {club}").format(club=club))
    return OK


def club_of(config: Config, args: argparse.Namespace) -> tuple[Broker, str]:
    """The broker and the club the command line (else the config) names; ``ValueError``
    saying what is missing or malformed."""
    from bgpi.remote.club import club_topic  # noqa: PLC0415

    club = args.club or config.remote.club
    if not club:
        raise ValueError("no club: give --club NAME or set [remote] club")
    club_topic(club)  # a name no topic can hold is refused here, before any broker is asked
    return broker_of(config, args.broker), club


def club_results(broker: Broker, club: str) -> int:
    from bgpi.remote.club import fetch_results  # noqa: PLC0415

    results = fetch_results(broker, club)
    if not results:
        print(_("no results in club {club}").format(club=club))
    for result in results:
        print(result.line())
    return OK
