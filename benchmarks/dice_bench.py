"""Dice thrown by hand: run ``python benchmarks/dice_bench.py``.

- Presses per entered roll with the board's two buttons, the mean over all 36 rolls (the
  hands' fewest presses, :mod:`bgpi.sim.entering`): a count, not a time.
- The time from the second GoDice's stable notification to the legal destinations being
  ready, along the whole path a board takes: the die's bytes decoded by the ``godice``
  library on the link's own event loop (over a fake BLE client: only the radio is left
  out), the battery asked after the rest as the link does, the word handed across threads
  to the table's queue, converted at the edge, judged by the table, journaled, the frame
  rendered and the turn's tree prepared (:class:`~bgpi.service.driver.Driver`). Against
  the same driver's step from the board's electronic roll (its dice event) to the same
  point, measured in the same run and interleaved: the ratio says what reading the dice
  adds. Each of the 36 rolls is timed on its own; the medians are printed.
"""

from __future__ import annotations

import statistics
import time

from bgpi.base.words import BLACK, ROLL, WHITE
from bgpi.journal.records import (
    DiceSource,
    GameStarted,
    MatchStarted,
    OpeningRolled,
    Played,
    Record,
)
from bgpi.rules import Position, parse_play
from bgpi.sim.entering import mean_presses
from bgpi.sim.simtable import SimOptions, SimTable
from bgpi.table import DiceRolled, Phase, Table

ROUNDS = 15
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, 7)]


def black_on_roll(source: DiceSource) -> SimTable:
    """White opened 3-1 with 8/5 6/5; Black is on roll (with GoDice: the pair paired)."""
    play = parse_play(Position.initial(), (3, 1), "8/5 6/5")
    records: list[Record] = [MatchStarted(5, dice=source), GameStarted(), OpeningRolled(3, 1)]
    records.append(Played.of(WHITE, play.moves))
    return SimTable(records, options=SimOptions(godice=source is DiceSource.GODICE))


def ready(sim: SimTable) -> None:
    assert sim.phase is Phase.MOVING and sim.table.tracker is not None


def electronic(sim: SimTable, before: Table, times: list[float]) -> None:
    """Each roll from the board's dice event (what the driver dispatches once it rolled)
    to the destinations ready."""
    for roll in ROLLS:
        sim.driver.table = before
        start = time.perf_counter()
        sim.driver.dispatch(DiceRolled(BLACK, roll, sim.clock()))
        times.append(time.perf_counter() - start)
        ready(sim)


def godice(sim: SimTable, thrown: Table, times: list[float]) -> None:
    """Each roll from the second die's stable notification (the first at rest already) to
    the destinations ready."""
    assert sim.godice is not None
    second = sim.godice.fakes[1]
    for _a, b in ROLLS:
        sim.driver.table = thrown
        start = time.perf_counter()
        sim.godice.say(second.rest(b))
        sim.advance(0.0)  # the loop takes the word from its queue
        times.append(time.perf_counter() - start)
        ready(sim)


def main() -> None:
    print(f"presses per entered roll, the mean over all 36: {mean_presses():.2f}")
    board = black_on_roll(DiceSource.ELECTRONIC)
    before = board.table
    dice = black_on_roll(DiceSource.GODICE)
    assert dice.godice is not None
    first, second = dice.godice.fakes
    dice.press(BLACK, ROLL)
    dice.godice.say(first.rolling(), second.rolling(), first.rest(6))
    dice.advance(0.0)
    thrown = dice.table  # waiting for the second die, the first at rest showing 6
    boards: list[float] = []
    reads: list[float] = []
    try:
        for _round in range(ROUNDS):  # interleaved: a busy moment slows both, not one
            electronic(board, before, boards)
            godice(dice, thrown, reads)
    finally:
        dice.close()
    board_ms, read_ms = statistics.median(boards) * 1000, statistics.median(reads) * 1000
    rolls = f"{ROUNDS} x {len(ROLLS)} rolls"
    print(
        f"electronic roll's dice event to destinations ready: {board_ms:.2f} ms (median, {rolls})"
    )
    print(f"second GoDice at rest to destinations ready: {read_ms:.2f} ms (median)")
    print(f"ratio GoDice / electronic: {read_ms / board_ms:.2f}")


if __name__ == "__main__":
    main()
