"""``bgpi run``: the table on the configured hardware, the service systemd starts."""

from __future__ import annotations

import argparse
import secrets
import sys
from contextlib import ExitStack
from typing import TYPE_CHECKING

from bgpi.base.i18n import _
from bgpi.cli.arguments import Commands, add_command, say
from bgpi.cli.errors import UsageError
from bgpi.service.config import Config

if TYPE_CHECKING:
    from bgpi.journal.store import Journal
    from bgpi.service.app import App, Observer
    from bgpi.service.driver import Driver


def add_commands(commands: Commands, common: argparse.ArgumentParser) -> None:
    service = add_command(
        commands, common, "run", run, "run the table on the configured hardware (the service)"
    )
    service.add_argument(
        "--self-play",
        action="store_true",
        help="on the simulator, simulated hands play both seats (a soak test)",
    )
    service.add_argument(
        "--seed", type=int, help="self-play: make the dice and choices reproducible"
    )
    service.add_argument(
        "--matches", type=int, help="self-play: stop once the journal holds this many finished"
    )


def run(config: Config, args: argparse.Namespace) -> int:
    from bgpi.service.app import App  # noqa: PLC0415 (each command loads what it needs)

    remote = config.remote
    if remote.broker and not remote.match and not remote.club:  # --match is the demo's
        raise UsageError(
            _(
                "[remote] broker is set, but neither a match code nor a club: set [remote] "
                "match (a match against another board) or club (the results published)"
            )
        )
    app = App(config, config.state_dir(args.state_dir))
    if args.self_play:
        from bgpi.sim.selfplay import Hands, check_simulated  # noqa: PLC0415

        try:
            check_simulated(config)
        except ValueError as exc:
            raise UsageError(exc) from None

        seed = args.seed if args.seed is not None else secrets.randbelow(10_000)
        print("bgpi run: " + _("self-play, seed {seed}").format(seed=seed), flush=True)
        hands = Hands(seed, matches=args.matches, say=say)
        app.hands, app.hardware = hands, hands.hardware
    elif args.seed is not None or args.matches is not None:
        raise UsageError(_("--seed and --matches go with --self-play"))
    app.handle_signals()
    app.on_refusal = _say_refused
    with ExitStack() as stack:
        watchers: list[Observer] = []
        link = None
        if config.web.enabled:
            link = _serve_page(config, app, stack, watchers)
        if remote.broker and remote.club:
            watchers.append(_club_poster(config, link, stack))

        def watch_all(driver: Driver, journal: Journal) -> None:
            for watch in watchers:
                watch(driver, journal)

        app.observer = watch_all
        return app.run()


def _serve_page(config: Config, app: App, stack: ExitStack, watchers: list[Observer]) -> str | None:
    """The companion page, watching every step; the link to its ``.mat`` where others can
    reach it (a club's director), else None."""
    from bgpi.web.companion import Companion  # noqa: PLC0415

    companion = Companion(config, host=config.web.host, port=config.web.port)
    address = companion.start()
    stack.callback(companion.close)
    for url in address.urls:
        print("bgpi run: " + _("the companion page is at {url}").format(url=url), flush=True)
    companion.remote = app.remote_status
    companion.post = app.events.put  # the dice a phone enters
    watchers.append(companion)
    return address.mat_link


def _club_poster(config: Config, link: str | None, stack: ExitStack) -> Observer:
    """``[remote] club``: each match this board finishes published to the club, whether it
    was played here by two people or against another board."""
    from bgpi.remote.clubpost import ClubPoster  # noqa: PLC0415 (a club only)
    from bgpi.remote.commands import board_name, broker_of  # noqa: PLC0415

    poster = ClubPoster(broker_of(config, None), config.remote.club, board=board_name(), link=link)
    stack.callback(poster.close)
    return lambda driver, journal: poster.watch(driver.table, journal)


def _say_refused(error: Exception) -> None:
    # At once, though the command goes on showing the fault on the LEDs until stopped.
    print(f"bgpi run: {error}", file=sys.stderr, flush=True)
