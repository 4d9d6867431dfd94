"""Test aids: fixed dice, and a table put straight into a position mid-game."""

from __future__ import annotations

from collections import deque
from dataclasses import replace

from bgpi.rules import GameState, Position
from bgpi.sim.simtable import SimTable
from bgpi.table import BeforeRoll


class FixedDice:
    """Dice that come out as listed: each value one die."""

    def __init__(self, *values: int) -> None:
        self.values = deque(values)

    def add(self, *values: int) -> None:
        self.values.extend(values)

    def die(self) -> int:
        return self.values.popleft()

    def roll(self) -> tuple[int, int]:
        return self.values.popleft(), self.values.popleft()


def fixed_dice(sim: SimTable, *values: int) -> FixedDice:
    dice = FixedDice(*values)
    sim.driver.dice = dice
    return dice


def arrange(sim: SimTable, position: Position, turn: int, **match: object) -> None:
    """Put the table and the board in ``position`` (White's view), ``turn`` to roll; the
    match's other fields (cube, cube_owner, score, crawford_game) as given."""
    table = sim.table
    playing = replace(table.match, state=GameState.PLAYING, turn=turn, dice=None, **match)  # type: ignore[arg-type]
    sim.driver.table = replace(table, match=playing, at=BeforeRoll(), position=position)
    sim.setup(position)
