"""Dice thrown by hand: run ``python benchmarks/dice_bench.py``.

- Presses per entered roll with the board's two buttons, the mean over all 36 rolls (the
  hands' fewest presses, :mod:`bgpi.sim.entering`): a count, not a time.
- The time from the second GoDice's stable notification (its bytes, decoded by the
  ``godice`` library over a fake BLE client, judged by the pair's reading) to the legal
  destinations being ready (the table's step, the turn's tree prepared), against the same
  path from the board's electronic roll, both measured in the same run: the ratio says what
  reading the dice adds.
"""

from __future__ import annotations

import asyncio
import time

from bgpi.base.geometry import Geometry
from bgpi.base.words import BLACK
from bgpi.hal.dice import SeededDice
from bgpi.hal.godice import FakeBleClient, GoDicePair
from bgpi.journal.records import DiceSource, GameStarted, MatchStarted, OpeningRolled, Played
from bgpi.rules import Position, parse_play
from bgpi.sensing.board import capacities
from bgpi.sensing.godice import Thrown
from bgpi.sim.entering import mean_presses
from bgpi.table import DiceRolled, Table, TableConfig

ROUNDS = 15
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, 7)]
CONFIG = TableConfig(capacities(Geometry.default()))


def black_on_roll(source: DiceSource) -> Table:
    play = parse_play(Position.initial(), (3, 1), "8/5 6/5")
    start = MatchStarted(5, dice=source)
    return Table.replay(
        CONFIG, [start, GameStarted(), OpeningRolled(3, 1), Played.of(0, play.moves)]
    )


def destinations_ready(table: Table, dice: tuple[int, ...], source: DiceSource) -> None:
    tracker = table.handle(DiceRolled(BLACK, dice, 30.0, source)).table.tracker
    assert tracker is not None
    tracker.prepare()


def electronic() -> float:
    """Seconds for all 36 rolls: the board rolls (the same 36 rolls as the GoDice, so both
    build the same trees; the seeded roll is still made), the table steps, the tree is
    ready."""
    table, dice = black_on_roll(DiceSource.ELECTRONIC), SeededDice(3)
    start = time.perf_counter()
    for roll in ROLLS:
        dice.roll()
        destinations_ready(table, roll, DiceSource.ELECTRONIC)
    return time.perf_counter() - start


async def godice() -> float:
    """Seconds for all 36 rolls, each from the second die's stable notification on."""
    table = black_on_roll(DiceSource.GODICE)
    first, second = FakeBleClient("first"), FakeBleClient("second")
    pair = GoDicePair((first, second))
    await pair.connect()
    spent = 0.0
    for a, b in ROLLS:
        await first.rolling()
        await second.rolling()
        await first.rest(a)
        start = time.perf_counter()
        await second.rest(b)
        thrown = pair.outcomes.pop()
        assert isinstance(thrown, Thrown)
        destinations_ready(table, thrown.dice, DiceSource.GODICE)
        spent += time.perf_counter() - start
    return spent


def main() -> None:
    print(f"presses per entered roll, the mean over all 36: {mean_presses():.2f}")
    boards, reads = [], []
    for _round in range(ROUNDS):  # interleaved: a busy moment slows both, not one
        boards.append(electronic())
        reads.append(asyncio.run(godice()))
    board, read = min(boards), min(reads)
    per = 1000 / len(ROLLS)
    print(f"electronic roll to destinations ready: {board * per:.2f} ms a roll (best of {ROUNDS})")
    print(f"second GoDice at rest to destinations ready: {read * per:.2f} ms a roll")
    print(f"ratio GoDice / electronic: {read / board:.2f}")


if __name__ == "__main__":
    main()
