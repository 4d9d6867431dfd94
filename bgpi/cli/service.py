"""``bgpi run``: the table on the configured hardware, the service systemd starts."""

from __future__ import annotations

import argparse
import secrets
import sys

from bgpi.base.i18n import _
from bgpi.cli.arguments import Commands, add_command, say
from bgpi.cli.errors import UsageError
from bgpi.service.config import Config


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

    if config.remote.broker and not config.remote.match:  # --match is the demo's, not run's
        raise UsageError(_("[remote] broker is set, but not the match code: set [remote] match"))
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
    if not config.web.enabled:
        return app.run()
    from bgpi.web.companion import Companion  # noqa: PLC0415

    companion = Companion(config, host=config.web.host, port=config.web.port)
    for url in companion.start().urls:
        print("bgpi run: " + _("the companion page is at {url}").format(url=url), flush=True)
    app.observer = companion
    companion.remote = app.remote_status
    companion.post = app.events.put  # the dice a phone enters
    try:
        return app.run()
    finally:
        companion.close()


def _say_refused(error: Exception) -> None:
    # At once, though the command goes on showing the fault on the LEDs until stopped.
    print(f"bgpi run: {error}", file=sys.stderr, flush=True)
