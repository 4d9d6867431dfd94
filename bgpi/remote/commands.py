"""The commands of remote play: ``bgpi demo --remote …`` and ``bgpi club results``."""

from __future__ import annotations

import argparse
import socket
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from bgpi.base.i18n import _
from bgpi.journal.export import MatHeader
from bgpi.journal.records import MatchStarted, Record
from bgpi.present.phrases import players
from bgpi.remote.broker import Broker
from bgpi.remote.pairing import Pairing, side_of
from bgpi.service.config import Config

if TYPE_CHECKING:
    from bgpi.remote.demo import RemoteGame

OK, FAILED = 0, 1


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
    from bgpi.remote.demo import play_remote  # noqa: PLC0415

    state_dir = Path(args.state_dir) if args.state_dir else None
    print(f"bgpi demo --remote, match {game.pairing.code}, seed {game.seed}", flush=True)
    sim = play_remote(game, match, state_dir=state_dir, say=lambda text: print(text, flush=True))
    score, names = sim.match.score, sim.table.names
    final = _("final score: {white} {white_score}, {black} {black_score}")
    white, black = players(names)
    print()
    print(final.format(white=white, white_score=score[0], black=black, black_score=score[1]))
    if args.club:
        header = journaled_header(state_dir, game.pairing.client_id(game.side))
        publish(game.broker, args.club, sim.driver.log, header)
    return OK


def board_name() -> str:
    """This board's name at its club: the machine's (a club names its boards' Pis)."""
    return socket.gethostname().split(".")[0]


def journaled_header(state_dir: Path | None, board: str) -> MatHeader:
    """A club result's header, the site ``board``: from the journal, as ``bgpi export``
    writes it, where the match was journaled; else stamped now (a match that was not
    journaled was played just now)."""
    import time  # noqa: PLC0415

    from bgpi.journal.store import JOURNAL_NAME, Journal  # noqa: PLC0415

    path = None if state_dir is None else state_dir / JOURNAL_NAME
    if path is None or not path.exists():
        return MatHeader(board, None, time.time())
    with Journal.open(path, read_only=True) as journal:
        return MatHeader.journaled(journal, board)


def publish(
    broker: Broker, club: str, records: Sequence[Record], header: MatHeader, link: str | None = None
) -> None:
    """Publish a finished match's result to ``club`` and say so."""
    from bgpi.remote.club import publish_result  # noqa: PLC0415

    publish_result(broker, club, records, header, link=link)
    print(_("published the result to club {club}").format(club=club))


def club_of(config: Config, args: argparse.Namespace) -> tuple[Broker, str]:
    """The broker and the club the command line (else the config) names; ``ValueError``
    saying what is missing or malformed."""
    from bgpi.remote.club import club_topic  # noqa: PLC0415

    club = args.club or config.remote.club
    if not club:
        raise ValueError("no club: give --club NAME or set [remote] club")
    club_topic(club)  # a name no topic can hold is refused here, before any broker is asked
    return broker_of(config, args.broker), club


def club_results(broker: Broker, club: str, folder: Path | None = None) -> int:
    """Print the club's results as a table; with ``folder``, save each one's ``.mat`` there
    (1 if a file there already holds another match, or the folder cannot be written)."""
    from bgpi.remote.club import fetch_results  # noqa: PLC0415
    from bgpi.remote.evening import save, table  # noqa: PLC0415

    results = fetch_results(broker, club)
    if not results:
        print(_("no results in club {club}").format(club=club))
        return OK
    for line in table(results):
        print(line)
    if folder is None:
        return OK
    try:
        saved = save(results, folder)
    except OSError as exc:  # no permission, a full disk: said in words
        why = exc.strerror or type(exc).__name__
        print(
            "bgpi club: " + _("cannot write in {folder}: {why}").format(folder=folder, why=why),
            file=sys.stderr,
        )
        return FAILED
    for path in saved.refused:
        refused = _("{file} is there already and holds another match: not overwritten")
        print("bgpi club: " + refused.format(file=path), file=sys.stderr)
    done = _(".mat files saved in {folder}: {written} new, {kept} there already")
    print(done.format(folder=folder, written=len(saved.written), kept=len(saved.kept)))
    return FAILED if saved.refused else OK
