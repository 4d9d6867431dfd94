"""The roll the GoDice owe, entered on the page instead: the same command as entered dice,
taken where the thrower's held CUBE would turn the throw to entering by hand (the table's
rows decide, both where the page's command is read and where the table takes the dice)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bgpi.base.words import BLACK, CUBE, ROLL, WHITE
from bgpi.journal.records import DiceSource, MatchStarted, Rolled, Seat
from bgpi.table import BeforeRoll, Decided, DiceRolled, Intent, Phase, Rolling, Table
from bgpi.table.buttons import Hold, rows_of
from bgpi.web.entry import EntryOnly, entered
from bgpi.web.server import PageCommandError
from tests.table.test_buttons import SHORT, opened, press, replay

GODICE = DiceSource.GODICE
ENTERED = DiceSource.ENTERED


def throwing(*seats: Seat) -> Table:
    """Black's roll awaited from the GoDice, White's opening 3-1 played."""
    table = replay(*opened(MatchStarted(5, dice=GODICE, seats=seats or (Seat.PERSON,) * 2)))
    if table.seats[BLACK] is Seat.ENGINE:
        return table.handle(Decided(BLACK, Intent.ROLL, 30.0)).table
    return press(table, BLACK, ROLL, SHORT).table


def test_the_roll_entered_on_the_page_is_journaled_as_entered_and_replays() -> None:
    table = throwing()
    assert isinstance(table.at, Rolling) and table.at.thrown
    assert Intent.ENTER_BY_HAND in {row.intent for row in rows_of(table, BLACK, CUBE).values()}
    rolled = entered(table, {"type": "enter", "dice": [6, 5]}, 40.0)
    assert rolled == DiceRolled(BLACK, (6, 5), 40.0, ENTERED)
    step = table.handle(rolled)
    assert step.records == (Rolled(BLACK, (6, 5), ENTERED),) and step.refused is None
    assert step.table.phase is Phase.MOVING and step.table.match.dice == (6, 5)
    journal = [*opened(MatchStarted(5, dice=GODICE)), *step.records]
    assert Table.replay(table.config, journal).match == step.table.match
    # The next roll is read from the dice again: the match's dice are still GoDice.
    assert step.table.dice is GODICE


def test_against_the_computer_the_person_enters_its_awaited_roll_on_the_page() -> None:
    table = throwing(Seat.PERSON, Seat.ENGINE)
    assert isinstance(table.at, Rolling) and table.at.player == BLACK
    assert rows_of(table, WHITE, CUBE)[Hold.HELD].intent is Intent.ENTER_BY_HAND
    step = table.handle(entered(table, {"type": "enter", "dice": [2, 2]}, 40.0))
    assert step.records == (Rolled(BLACK, (2, 2), ENTERED),)


def test_dice_drawn_with_another_board_are_not_entered_on_the_page() -> None:
    drawing = replace(throwing(), at=Rolling(BLACK, 2, BeforeRoll()))  # no GoDice: a draw
    assert not rows_of(drawing, BLACK, CUBE)
    with pytest.raises(PageCommandError, match="no dice are entered in phase rolling"):
        entered(drawing, {"type": "enter", "dice": [6, 5]}, 40.0)
    # Had the page's command been read on an older table, the table still refuses it.
    step = drawing.handle(DiceRolled(BLACK, (6, 5), 40.0, ENTERED))
    assert step.table is drawing and step.records == ()
    assert step.refused == "the dice entered on the page are not the roll entered"


def test_the_awaited_roll_takes_only_its_own_count_of_dice_and_no_electronic_dice() -> None:
    table = throwing()
    with pytest.raises(PageCommandError, match="are not 2 dice of 1 to 6"):
        entered(table, {"type": "enter", "dice": [6]}, 40.0)
    step = table.handle(DiceRolled(BLACK, (6,), 40.0, ENTERED))
    assert step.table is table and step.refused is not None
    step = table.handle(DiceRolled(BLACK, (6, 5), 40.0, DiceSource.ELECTRONIC))
    assert step.refused == "the dice are read from the GoDice as they come to rest"


def test_the_companion_posts_the_awaited_roll_and_refuses_the_rest() -> None:
    table = throwing()
    posted: list[DiceRolled] = []
    entry = EntryOnly(lambda: table, posted.append, lambda: 50.0)
    entry.command({"type": "enter", "dice": [3, 1]})
    assert posted == [DiceRolled(BLACK, (3, 1), 50.0, ENTERED)]
    with pytest.raises(PageCommandError, match="only shows the board"):
        entry.command({"type": "press", "player": BLACK, "button": "cube"})
