"""``bgpi plays``: the rules engine at the command line."""

from __future__ import annotations

import argparse

from bgpi.base.i18n import ngettext
from bgpi.cli.arguments import Commands, add_command
from bgpi.cli.errors import OK, UsageError
from bgpi.service.config import Config


def add_commands(commands: Commands, common: argparse.ArgumentParser) -> None:
    plays = add_command(commands, common, "plays", _plays, "list the legal plays of a roll")
    plays.add_argument("dice", help="the roll, e.g. 31 or 3-1")
    plays.add_argument("--position", help="gnubg Position ID (default: the starting position)")


def _plays(config: Config, args: argparse.Namespace) -> int:
    from bgpi.rules import Position, legal_plays, parse_roll  # noqa: PLC0415

    try:
        pos = Position.from_id(args.position) if args.position else Position.initial()
        roll = parse_roll(args.dice)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    print(pos)
    plays = legal_plays(pos, roll)
    legal = ngettext("{count} legal play of {roll}:", "{count} legal plays of {roll}:", len(plays))
    print(legal.format(count=len(plays), roll=f"{roll[0]}-{roll[1]}"))
    for play in plays:
        print(f"  {play}")
    return OK
