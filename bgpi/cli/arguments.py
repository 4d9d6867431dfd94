"""What several commands share: argparse types, option groups, and the match they start."""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bgpi.base.i18n import N_, _
from bgpi.rules.clock import NO_CLOCK, ClockMode, ClockRules
from bgpi.service.config import Config

if TYPE_CHECKING:
    from bgpi.engine.seats import Seat
    from bgpi.journal.records import MatchStarted

Command = Callable[[Config, argparse.Namespace], int]
# argparse's own type for add_subparsers' result is private; each module adds its commands.
Commands = Any


def add_command(
    commands: Commands, common: argparse.ArgumentParser, name: str, run: Command, help_text: str
) -> argparse.ArgumentParser:
    """A subcommand that takes the common options and runs ``run``."""
    sub: argparse.ArgumentParser = commands.add_parser(
        name, parents=[common], help=help_text, description=help_text
    )
    sub.set_defaults(run=run)
    return sub


def bounded(low: int, high: int | None, what: str) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high`` (no bound when None)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                _("{text} is not a whole number").format(text=repr(text))
            ) from None
        if value < low or (high is not None and value > high):
            if high is None:
                why = _("{what} is {low} or more, got {value}")
            else:
                why = _("{what} is {low} to {high}, got {value}")
            raise argparse.ArgumentTypeError(
                why.format(what=_(what), low=low, high=high, value=value)
            )
        return value

    return parse


def share(text: str) -> float:
    """An argparse type: a share, from 0 to 1."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"a share is 0 to 1, got {text}")
    return value


def journal_path(config: Config, args: argparse.Namespace) -> Path:
    from bgpi.journal.store import JOURNAL_NAME  # noqa: PLC0415 (each command loads what it needs)

    return config.state_dir(args.state_dir) / JOURNAL_NAME


def say(text: str) -> None:
    print(text, flush=True)  # at once, even into a pipe


def chosen_match(config: Config, args: argparse.Namespace) -> MatchStarted:
    """The config's match, with the command line's ``--length`` or ``--money`` over it; a
    money session drops the options that exist only in money play's absence and vice versa."""
    from bgpi.journal.records import MatchStarted  # noqa: PLC0415

    base = config.match_record()
    length = 0 if args.money else (args.length if args.length is not None else base.length)
    return MatchStarted(
        length,
        base.crawford,
        base.jacoby if not length else False,
        base.beaver if not length else False,
        base.automatic_doubles if not length else 0,
        base.cube_limit,
        base.names,
        base.seats,
        _clock(base, args) if length else NO_CLOCK,
        getattr(args, "dice", None) or base.dice,
    )


def _clock(base: MatchStarted, args: argparse.Namespace) -> ClockRules:
    """The config's clock, or the command line's ``--clock`` mode with the config's times."""
    mode = getattr(args, "clock", None)
    if mode is None:
        return base.clock
    return dataclasses.replace(base.clock, mode=ClockMode(mode))


def seat(text: str) -> Seat:
    """An argparse type: a seat (``demo``, ``gnubg``, ``gnubg:LEVEL``)."""
    from bgpi.engine.seats import Seat  # noqa: PLC0415

    try:
        return Seat.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def level(text: str) -> str:
    """An argparse type: one of gnubg's level names."""
    from bgpi.engine import Level  # noqa: PLC0415

    try:
        return Level.parse(text).value
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def match_options(parser: argparse.ArgumentParser) -> None:
    kind = parser.add_mutually_exclusive_group()
    kind.add_argument(
        "--length", type=bounded(1, 99, N_("a match length")), help="match length (default: config)"
    )
    kind.add_argument("--money", action="store_true", help="a money session instead")
    parser.add_argument(
        "--clock",
        choices=[str(mode) for mode in ClockMode],
        help="the match's clock: usbgf (U.S. Backgammon Clock Rules), bronstein, per-move, "
        "or off (default: the config's [clock])",
    )
    parser.add_argument(
        "--dice",
        choices=("electronic", "entered", "godice"),
        help="the board rolls, or the players throw their own dice and enter them with the "
        "buttons, or throw two GoDice the board reads (simulated here; default: the config's "
        "[dice])",
    )


def seat_options(parser: argparse.ArgumentParser, choices: str, default: str | None = None) -> None:
    """``--white SEAT`` and ``--black SEAT``; a level is one of gnubg's, beginner to
    grandmaster."""
    for side in ("white", "black"):
        parser.add_argument(
            f"--{side}",
            type=seat,
            default=default,
            metavar="SEAT",
            help=f"who plays {side.title()}: {choices}",
        )
