"""The ``bgpi`` command line."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence

from bgpi import __version__
from bgpi.rules import Position, RulesError, legal_plays, parse_roll
from bgpi.rules.result import game_result


def _demo(args: argparse.Namespace) -> int:
    """A game between two players who pick a random legal play: the rules engine at work."""
    # A seeded PRNG is right here: the demo must replay exactly. Real dice use `secrets`.
    rng = random.Random(args.seed)
    pos = Position.initial()
    names = ("White", "Black")
    turn = 0
    for number in range(1, 1000):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        play = rng.choice(legal_plays(pos, dice))
        print(f"{number:3}. {names[turn]:5} {dice[0]}-{dice[1]}: {play}")
        result = game_result(play.result)
        if result is not None:
            print(f"{names[turn]} wins a {result.name.lower()} ({int(result)} points).")
            print(play.result)
            return 0
        pos, turn = play.result.swap(), 1 - turn
    return 1


def _plays(args: argparse.Namespace) -> int:
    try:
        pos = Position.from_id(args.position) if args.position else Position.initial()
        roll = parse_roll(args.dice)
    except RulesError as exc:
        print(f"bgpi plays: {exc}", file=sys.stderr)
        return 2
    print(pos)
    plays = legal_plays(pos, roll)
    print(f"{len(plays)} legal plays of {roll[0]}-{roll[1]}:")
    for play in plays:
        print(f"  {play}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bgpi", description=__doc__)
    parser.add_argument("--version", action="version", version=f"bgpi {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    demo = commands.add_parser("demo", help="play a game by the rules engine and print it")
    demo.add_argument("--seed", type=int, default=None, help="make the game reproducible")
    demo.set_defaults(run=_demo)
    plays = commands.add_parser("plays", help="list the legal plays of a roll")
    plays.add_argument("dice", help="the roll, e.g. 31 or 3-1")
    plays.add_argument("--position", help="gnubg Position ID (default: the starting position)")
    plays.set_defaults(run=_plays)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    code: int = args.run(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
