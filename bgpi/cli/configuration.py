"""``bgpi config check``, ``bgpi config show`` and ``bgpi config dropin``."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from bgpi.base.i18n import _
from bgpi.cli.arguments import Commands
from bgpi.cli.errors import OK, USAGE
from bgpi.service.config import Config, show

# The root the installed unit is looked for under (the tests'; scripts/install.sh --root).
ROOT_VARIABLE = "BGPI_SYSTEMD_ROOT"


def add_commands(commands: Commands, common: argparse.ArgumentParser) -> None:
    config = commands.add_parser("config", help="check or show the configuration")
    actions = config.add_subparsers(dest="action", required=True, metavar="ACTION")
    for name, run, text in (
        ("check", _check, "check a configuration file and say what is wrong"),
        ("show", _show, "print the effective configuration"),
        ("dropin", _dropin, "print the systemd drop-in that opens the network the file needs"),
    ):
        sub = actions.add_parser(name, parents=[common], help=text, description=text)
        sub.add_argument("file", nargs="?", help="the configuration file (same as --config)")
        sub.set_defaults(run=run)


def _check(config: Config, args: argparse.Namespace) -> int:
    # The service's own config must also be one its sandbox can run: a broker it cannot
    # reach would fail no sooner than the first move, and silently.
    from bgpi.service.unit import refusal  # noqa: PLC0415

    refused = refusal(config, Path(os.environ.get(ROOT_VARIABLE) or "/"))
    if refused is not None:
        print(f"bgpi: {refused}", file=sys.stderr)
        return USAGE
    print(_("{source}: ok").format(source=config.source))
    return OK


def _show(config: Config, args: argparse.Namespace) -> int:
    sys.stdout.write(show(config))
    return OK


def _dropin(config: Config, args: argparse.Namespace) -> int:
    from bgpi.service.unit import dropin  # noqa: PLC0415

    sys.stdout.write(dropin(config) or "")
    return OK
