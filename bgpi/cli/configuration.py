"""``bgpi config check`` and ``bgpi config show``."""

from __future__ import annotations

import argparse
import sys

from bgpi.base.i18n import _
from bgpi.cli.arguments import Commands
from bgpi.cli.errors import OK
from bgpi.service.config import Config, show


def add_commands(commands: Commands, common: argparse.ArgumentParser) -> None:
    config = commands.add_parser("config", help="check or show the configuration")
    actions = config.add_subparsers(dest="action", required=True, metavar="ACTION")
    for name, run, text in (
        ("check", _check, "check a configuration file and say what is wrong"),
        ("show", _show, "print the effective configuration"),
    ):
        sub = actions.add_parser(name, parents=[common], help=text, description=text)
        sub.add_argument("file", nargs="?", help="the configuration file (same as --config)")
        sub.set_defaults(run=run)


def _check(config: Config, args: argparse.Namespace) -> int:
    print(_("{source}: ok").format(source=config.source))
    return OK


def _show(config: Config, args: argparse.Namespace) -> int:
    sys.stdout.write(show(config))
    return OK
