"""Dice drawn with another board come later (a remote match's commit-reveal exchange): the
table waits in the rolling phase, still reading the board and the buttons but deciding
nothing, and goes on from where it was once they come."""

from __future__ import annotations

import pytest

from bgpi.base.geometry import Geometry
from bgpi.base.words import BLACK, CUBE, ROLL, WHITE
from bgpi.journal.records import (
    GameStarted,
    MatchStarted,
    OpeningDie,
    OpeningRolled,
    Played,
    Rolled,
)
from bgpi.lights import Alert
from bgpi.present.leds import scene_of
from bgpi.present.status import status
from bgpi.rules import Position, parse_play
from bgpi.sensing.board import capacities, observe, zone_of
from bgpi.table import (
    DiceDrawing,
    DiceRolled,
    Phase,
    Press,
    Rolling,
    Seen,
    Table,
    TableConfig,
    Tick,
)

CONFIG = TableConfig(capacities(Geometry.default()))


def settled(table: Table, observation: tuple[int, ...], t: float) -> Table:
    table = table.handle(Seen(observation, t)).table
    return table.handle(Tick(t + 1.0)).table


def before_black_rolls() -> Table:
    play = parse_play(Position.initial(), (3, 1), "8/5 6/5")
    records = [MatchStarted(5), GameStarted(), OpeningRolled(3, 1), Played.of(WHITE, play.moves)]
    table = Table.replay(CONFIG, records)
    return settled(table, observe(table.position, WHITE, CONFIG.caps), 0.0)


def test_a_roll_whose_dice_come_later_waits_reading_the_board_and_deciding_nothing() -> None:
    table = before_black_rolls()
    step = table.handle(Press(BLACK, ROLL, True, 5.0))
    assert step.dice is not None and step.dice.player == BLACK and step.dice.count == 2
    table = step.table.handle(DiceDrawing(BLACK, 2, 5.0)).table
    assert isinstance(table.at, Rolling) and table.phase is Phase.ROLLING
    assert "waiting for its half" in status(table, scene_of(table))
    # A checker lifted meanwhile: the board is read and shown wrong, and said so.
    lifted = list(observe(table.position, WHITE, CONFIG.caps))
    lifted[zone_of(WHITE, 6)] -= 1
    table = settled(table, tuple(lifted), 6.0)
    assert table.observation == tuple(lifted)
    assert scene_of(table).alert is Alert.WRONG
    line = status(table, scene_of(table))
    assert "waiting for its half" in line and "The board is wrong" in line
    # Black's CUBE, short and held: no double, no resignation after the roll.
    for hold in (0.1, 2.0):
        down = table.handle(Press(BLACK, CUBE, True, 8.0))
        up = down.table.handle(Press(BLACK, CUBE, False, 8.0 + hold))
        assert down.records == up.records == () and up.table.phase is Phase.ROLLING
        assert down.dice is None and up.dice is None
    table = settled(table, observe(table.position, WHITE, CONFIG.caps), 12.0)
    step = table.handle(DiceRolled(BLACK, (6, 5), 13.0))
    assert step.records == (Rolled(BLACK, (6, 5)),)
    assert step.table.phase is Phase.MOVING and step.table.match.dice == (6, 5)


def test_an_opening_die_drawn_later_keeps_the_other_die_and_goes_on() -> None:
    table = Table.replay(CONFIG, [MatchStarted(5), GameStarted(), OpeningDie(WHITE, 4)])
    table = table.handle(DiceDrawing(BLACK, 1, 1.0)).table
    assert table.phase is Phase.ROLLING and table.opening == (4, None)
    assert "opening die" in status(table, scene_of(table))
    step = table.handle(DiceRolled(BLACK, (2,), 2.0))
    assert step.records == (OpeningDie(BLACK, 2), OpeningRolled(4, 2))
    assert step.table.phase is Phase.MOVING and step.table.match.turn == WHITE


def test_dice_drawn_when_none_were_asked_for_are_refused() -> None:
    table = before_black_rolls()
    moving = table.handle(Press(BLACK, ROLL, True, 1.0)).table.handle(
        DiceRolled(BLACK, (6, 5), 1.0)
    )
    with pytest.raises(ValueError, match="drawn in phase moving"):
        moving.table.handle(DiceDrawing(BLACK, 2, 2.0))
