"""Dice thrown by hand and entered at the board: with the two buttons (the dice pixels show
the die, CUBE steps it, ROLL takes it, a held ROLL takes a double) or on the page, for the
opening roll, every roll of the game, and the computer's roll (the person enters it)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bgpi.base.faults import FaultSource
from bgpi.base.words import BLACK, CUBE, ROLL, WHITE
from bgpi.journal.export import export_mat
from bgpi.journal.records import (
    DiceSource,
    MatchStarted,
    OpeningDie,
    OpeningRolled,
    Rolled,
    Seat,
    from_json,
    to_json,
)
from bgpi.present.leds import scene_of
from bgpi.present.status import status
from bgpi.rules import MatchRules
from bgpi.sim.entering import gestures, mean_presses
from bgpi.sim.simtable import SimTable
from bgpi.table import (
    Ask,
    Choosing,
    Decided,
    DecisionRequest,
    DiceRolled,
    Entering,
    Fault,
    Intent,
    Phase,
    Rolling,
    Tick,
    waiting,
)
from bgpi.table.buttons import enterer
from bgpi.table.errors import TableError
from bgpi.table.options import Option
from bgpi.table.phases import TAKEBACK_WAIT
from tests.table.test_buttons import HELD, SHORT, opened, replay
from tests.table.test_hints import press

ENTERED = DiceSource.ENTERED
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, 7)]


def black_on_roll(**start: object) -> SimTable:
    """White has opened 3-1 with 8/5 6/5 in a match of entered dice: Black is on roll."""
    return SimTable(opened(MatchStarted(5, dice=ENTERED, **start)))  # type: ignore[arg-type]


@pytest.mark.parametrize("dice", ROLLS, ids=lambda d: f"{d[0]}-{d[1]}")
def test_every_roll_is_entered_with_the_two_buttons(dice: tuple[int, int]) -> None:
    sim = black_on_roll()
    sim.roll(BLACK)
    assert sim.phase is Phase.ENTERING and enterer(sim.table) == BLACK
    assert sim.scene.opening_dice == (None, 1)  # the dice pixels show the first die: 1
    sim.enter(dice)
    assert sim.driver.log[-1] == Rolled(BLACK, sim.match.dice or (0, 0), ENTERED)
    assert sorted(sim.driver.log[-1].dice) == sorted(dice)  # type: ignore[union-attr]
    assert sim.phase is Phase.MOVING


def test_a_roll_takes_four_presses_and_a_bit_on_average() -> None:
    assert round(mean_presses(), 2) == 4.31
    assert max(len(gestures(roll)) for roll in ROLLS) == 6  # 3 and 6: never more
    assert len(gestures((1, 1))) == 1  # a held ROLL at once


def test_the_dice_pixels_and_the_status_line_show_the_die_being_entered() -> None:
    sim = black_on_roll()
    sim.roll(BLACK)
    sim.cube(BLACK)
    sim.cube(BLACK)
    assert sim.scene.opening_dice == (None, 3)
    assert status(sim.table, sim.scene) == (
        "Black's dice, thrown by hand, are entered: the first shows 3."
        " CUBE steps the die shown or ROLL keeps it. Hold CUBE to step back; hold ROLL: both"
        " dice alike."
    )
    sim.roll(BLACK)
    sim.press(BLACK, CUBE, hold=HELD)  # back, round from 3 to 2
    assert sim.scene.dice == (3, 2) and sim.scene.dice_left == (2,)
    assert status(sim.table, sim.scene) == (
        "Black's dice, thrown by hand, are entered: 3 and 2."
        " CUBE steps the die shown or ROLL keeps it. Hold CUBE to step back."
    )


def test_the_opening_roll_with_equal_dice_is_rolled_again() -> None:
    sim = SimTable(MatchStarted(5, dice=ENTERED))
    sim.setup()
    for player, die in ((WHITE, 4), (BLACK, 4)):
        sim.roll(player)
        assert sim.phase is Phase.ENTERING and enterer(sim.table) == player
        sim.enter((die,))
    assert sim.driver.log[-3:] == [
        OpeningDie(WHITE, 4, ENTERED),
        OpeningDie(BLACK, 4, ENTERED),
        OpeningRolled(4, 4),
    ]
    assert sim.phase is Phase.OPENING and sim.table.opening == (None, None)
    for player, die in ((BLACK, 2), (WHITE, 5)):
        sim.roll(player)
        sim.enter((die,))
    assert sim.driver.log[-1] == OpeningRolled(5, 2)
    assert sim.phase is Phase.MOVING and sim.match.turn == WHITE


def test_against_the_computer_the_person_rolls_and_enters_its_dice() -> None:
    table = replay(*opened(MatchStarted(5, seats=(Seat.PERSON, Seat.ENGINE), dice=ENTERED)))
    for t in (11.0, 11.0 + TAKEBACK_WAIT):  # the computer waits for a takeback of White's play
        table = table.handle(Tick(t)).table
    assert waiting(table) == DecisionRequest(BLACK, Ask.TURN)
    table = table.handle(Decided(BLACK, Intent.ROLL, 30.0)).table
    assert isinstance(table.at, Entering) and table.at.player == BLACK
    assert waiting(table) is None  # the computer's turn waits for its roll
    assert enterer(table) == WHITE
    assert press(table, BLACK, CUBE, SHORT).table.at == table.at  # not the engine's buttons
    table = press(table, WHITE, CUBE, SHORT).table
    step = press(table, WHITE, ROLL, HELD)
    assert step.records == (Rolled(BLACK, (2, 2), ENTERED),)
    assert waiting(step.table) == DecisionRequest(BLACK, Ask.PLAY)


def test_dice_entered_on_the_page_are_the_roll_and_only_for_the_roll_entered() -> None:
    table = replay(*opened(MatchStarted(5, dice=ENTERED)))
    table = press(table, BLACK, ROLL, SHORT).table
    late = table.handle(DiceRolled(WHITE, (6, 5), 30.0, ENTERED))  # a page behind the board
    assert late.refused == "the dice entered on the page are not the roll entered"
    assert late.table is table and late.records == ()
    with pytest.raises(TableError, match="not 1 to 6"):
        table.handle(DiceRolled(BLACK, (7, 5), 30.0, ENTERED))
    step = table.handle(DiceRolled(BLACK, (6, 5), 30.0, ENTERED))
    assert step.records == (Rolled(BLACK, (6, 5), ENTERED),)


def test_a_match_of_the_boards_dice_rolls_as_before() -> None:
    step = press(replay(*opened(MatchStarted(5))), BLACK, ROLL, SHORT)
    assert step.dice is not None and step.table.phase is Phase.BEFORE_ROLL


def test_the_journal_keeps_each_rolls_source_and_reads_old_rolls_as_the_boards() -> None:
    assert from_json('{"kind":"roll","player":0,"dice":[3,1]}') == Rolled(WHITE, (3, 1))
    assert from_json(to_json(Rolled(WHITE, (3, 1), ENTERED))).source is ENTERED  # type: ignore[union-attr]
    assert from_json(to_json(MatchStarted(5, dice=ENTERED))) == MatchStarted(5, dice=ENTERED)
    with pytest.raises(ValueError, match="no dice source 'loaded'"):
        from_json('{"kind":"roll","player":0,"dice":[3,1],"source":"loaded"}')


def test_the_match_file_is_the_same_whatever_the_dice_source() -> None:
    board = opened(MatchStarted(5))
    entered = [
        replace(r, source=ENTERED) if isinstance(r, Rolled | OpeningDie) else r
        for r in opened(MatchStarted(5, dice=ENTERED))
    ]
    assert export_mat(entered) == export_mat(board)


def test_a_remote_match_refuses_dice_thrown_by_hand() -> None:
    with pytest.raises(ValueError, match="a remote match rolls commit-reveal dice, not entered"):
        MatchStarted(5, seats=(Seat.PERSON, Seat.REMOTE), dice=ENTERED)
    table = replay(*opened(MatchStarted(5, seats=(Seat.PERSON, Seat.REMOTE))))
    choosing = replace(table, at=Choosing(MatchRules(5), Option.DICE))
    assert press(choosing, WHITE, CUBE, SHORT).table.at == choosing.at  # stays the board's


def test_the_dice_source_is_chosen_at_the_board_between_matches() -> None:
    table = replay(*opened(MatchStarted(5)))
    table = replace(table, at=Choosing(MatchRules(5)))
    for _option in range(3):  # length, Crawford, cube limit, then the dice
        table = press(table, WHITE, ROLL, SHORT).table
    assert isinstance(table.at, Choosing) and table.at.option is Option.DICE
    assert "The next match: dice the board's." in status(table, scene_of(table))
    table = press(table, WHITE, CUBE, SHORT).table
    assert "The next match: dice your own, entered." in status(table, scene_of(table))
    step = press(table, WHITE, ROLL, HELD)
    assert step.records[0] == MatchStarted(5, dice=ENTERED)
    assert step.table.dice is ENTERED


def test_while_a_godice_is_lost_the_roll_is_entered_and_the_page_names_the_die() -> None:
    godice = replay(*opened(MatchStarted(5, dice=DiceSource.GODICE)))
    waiting = press(godice, BLACK, ROLL, SHORT)  # read from the dice, not rolled by the board
    assert waiting.dice is None and isinstance(waiting.table.at, Rolling)
    assert waiting.table.at.thrown
    lost = godice.handle(Fault(FaultSource.GODICE, "the red die is gone", 25.0)).table
    table = press(lost, BLACK, ROLL, SHORT).table
    assert isinstance(table.at, Entering)
    assert status(table, scene_of(table)).startswith(
        "The red die is gone: the dice are entered with the buttons meanwhile. Black's dice,"
    )
    assert scene_of(table).alert is None
    back = godice.handle(Fault(FaultSource.GODICE, None, 26.0)).table
    again = press(back, BLACK, ROLL, SHORT).table.at
    assert isinstance(again, Rolling) and again.thrown
