"""Dice thrown by hand and read from two GoDice, as the table judges them: a roll counts when
both dice rest flat after a throw; a die cocked or moved means both are thrown again,
journaled, said on the page and blinked on the LEDs; a die lost mid-throw turns the roll
into entered dice until it is back, and a die that answers but cannot be used gives way to
the roll entered by hand at the thrower's word; the computer's roll is thrown by the person."""

from __future__ import annotations

from dataclasses import replace

from bgpi.base.faults import FaultSource
from bgpi.base.words import BLACK, CUBE, ROLL, WHITE
from bgpi.journal.export import export_mat
from bgpi.journal.records import (
    DiceSource,
    MatchStarted,
    OpeningDie,
    OpeningRolled,
    Played,
    Record,
    Rethrown,
    Rolled,
    Seat,
    Unfit,
    from_json,
    to_json,
)
from bgpi.lights.scene import Alert
from bgpi.present.gamelog import log_entries
from bgpi.present.leds import scene_of
from bgpi.present.status import status
from bgpi.rules import MatchRules, parse_play
from bgpi.sensing.godice import Rest
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
    Step,
    Table,
    Tick,
    waiting,
)
from bgpi.table.events import DieRested
from bgpi.table.options import Option
from bgpi.table.phases import TAKEBACK_WAIT
from bgpi.web.view import dice_message
from tests.table.test_buttons import HELD, SHORT, opened, press, replay

GODICE = DiceSource.GODICE


def throwing(**start: object) -> Table:
    """Black on roll in a match of GoDice, having pressed ROLL: the table waits for the throw."""
    table = replay(*opened(MatchStarted(5, dice=GODICE, **start)))  # type: ignore[arg-type]
    return press(table, BLACK, ROLL, SHORT).table


def tell(table: Table, *said: tuple[int, Rest, int]) -> tuple[Table, tuple[Record, ...]]:
    """The dice say ``said`` (die, rest, value) in turn: the table after, the records."""
    records: tuple[Record, ...] = ()
    for n, (die, rest, value) in enumerate(said):
        step: Step = table.handle(DieRested(die, rest, value, 30.0 + n))
        table, records = step.table, records + step.records
    return table, records


THROWN = ((0, Rest.ROLLING, 0), (1, Rest.ROLLING, 0))


def test_a_roll_counts_once_both_dice_rest_flat_after_the_throw() -> None:
    table = throwing()
    assert isinstance(table.at, Rolling) and table.at.thrown and table.at.player == BLACK
    assert "Black throws both dice: they are read as they come to rest." in status(
        table, scene_of(table)
    )
    table, records = tell(table, *THROWN, (1, Rest.STABLE, 5))
    assert records == () and table.phase is Phase.ROLLING
    table, records = tell(table, (0, Rest.STABLE, 6))
    assert records == (Rolled(BLACK, (6, 5), GODICE),)
    assert table.phase is Phase.MOVING and table.match.dice == (6, 5)


def test_a_die_handled_between_rolls_is_no_roll() -> None:
    before = replay(*opened(MatchStarted(5, dice=GODICE)))
    table, records = tell(before, *THROWN, (0, Rest.STABLE, 6), (1, Rest.STABLE, 6))
    assert records == () and table.at == before.at  # not asked for: ROLL was not pressed
    table, records = tell(press(table, BLACK, ROLL, SHORT).table, (0, Rest.STABLE, 3))
    assert records == () and table.phase is Phase.ROLLING  # a pick-up without a throw


def test_a_cocked_die_is_thrown_again_both_dice_journaled_said_and_blinked() -> None:
    table, records = tell(throwing(), *THROWN, (0, Rest.STABLE, 4), (1, Rest.TILT_STABLE, 3))
    assert records == (Rethrown(BLACK, 2, Unfit.COCKED, 3),)
    line = status(table, scene_of(table))
    assert line.startswith("Die 2 came to rest cocked: roll again. Black throws both dice")
    scene = scene_of(table)
    assert scene.alert is Alert.AGAIN and scene.turn == BLACK
    # The flat die of the throw that did not count is forgotten: both are thrown again.
    table, more = tell(table, (1, Rest.ROLLING, 0), (1, Rest.STABLE, 2))
    assert more == ()
    table, more = tell(table, (0, Rest.ROLLING, 0), (0, Rest.MOVE_STABLE, 1))
    assert more == (Rethrown(BLACK, 1, Unfit.MOVED, 1),)
    assert "Die 1 was moved as it came to rest: roll again." in status(table, scene_of(table))
    records += more
    table, more = tell(table, *THROWN, (0, Rest.STABLE, 2), (1, Rest.STABLE, 1))
    assert more == (Rolled(BLACK, (2, 1), GODICE),) and scene_of(table).alert is None
    journal = [*opened(MatchStarted(5, dice=GODICE)), *records, *more]
    assert Table.replay(table.config, journal).match == table.match  # replays as it played


def test_a_rethrow_is_a_record_of_its_own_and_the_match_file_never_sees_it() -> None:
    record = Rethrown(WHITE, 2, Unfit.COCKED, 4)
    assert to_json(record) == '{"kind":"rethrow","player":0,"die":2,"why":"cocked","value":4}'
    assert from_json(to_json(record)) == record
    start = MatchStarted(5, dice=GODICE)
    plain = [*opened(start), Rolled(BLACK, (6, 5), GODICE)]
    again = [*opened(start), Rethrown(BLACK, 1, Unfit.COCKED, 3), Rolled(BLACK, (6, 5), GODICE)]
    assert export_mat(again) == export_mat(plain)
    assert [e.text for e in log_entries(again)][
        -2
    ] == "Black's die 1 came to rest cocked: roll again"


def test_the_opening_die_is_one_die_thrown_by_each_player() -> None:
    table = replay(MatchStarted(5, dice=GODICE))  # the board set up: the opening roll
    assert table.phase is Phase.OPENING
    records: tuple[Record, ...] = ()
    for player, value in ((WHITE, 2), (BLACK, 5)):
        table = press(table, player, ROLL, SHORT).table
        assert isinstance(table.at, Rolling) and table.at.count == 1
        assert scene_of(table).turn == player  # whose die the board waits for, on its LEDs
        assert f"{table.names[player]} throws the opening die" in status(table, scene_of(table))
        table, said = tell(table, (1, Rest.ROLLING, 0), (1, Rest.STABLE, value))
        records += said
    assert records == (
        OpeningDie(WHITE, 2, GODICE),
        OpeningDie(BLACK, 5, GODICE),
        OpeningRolled(2, 5),
    )
    assert table.match.turn == BLACK


def test_a_die_lost_mid_throw_turns_the_roll_to_entered_dice_and_back() -> None:
    table, _records = tell(throwing(), *THROWN, (0, Rest.STABLE, 4))
    lost = table.handle(Fault(FaultSource.GODICE, "die 2 (red) is gone", 31.0)).table
    assert isinstance(lost.at, Entering) and lost.at.player == BLACK
    assert status(lost, scene_of(lost)).startswith(
        "Die 2 (red) is gone: the dice are entered with the buttons meanwhile."
    )
    back = lost.handle(Fault(FaultSource.GODICE, None, 32.0)).table
    assert isinstance(back.at, Rolling) and back.at.thrown  # read from the dice again
    # Once a person began entering the roll, the dice coming back leave it entered.
    begun = press(lost, BLACK, CUBE, SHORT).table
    kept = begun.handle(Fault(FaultSource.GODICE, None, 32.0)).table
    assert isinstance(kept.at, Entering) and kept.at.shown == 2
    # Dice the board would roll are not the GoDice's throw; a phone's are this roll entered
    # by hand, as the thrower's held CUBE would make it (the page's way to that press).
    step = back.handle(DiceRolled(BLACK, (6, 6), 33.0, DiceSource.ELECTRONIC))
    assert step.records == () and step.refused
    step = back.handle(DiceRolled(BLACK, (6, 6), 33.0, DiceSource.ENTERED))
    assert step.records == (Rolled(BLACK, (6, 6), DiceSource.ENTERED),)


def test_a_die_that_answers_but_cannot_be_used_gives_way_to_this_roll_entered() -> None:
    """Under the sofa, cocked throw after throw, in a pocket: no fault the link sees, so the
    thrower's held CUBE enters this one roll; the next is read from the dice again."""
    table, _records = tell(throwing(), *THROWN, (0, Rest.STABLE, 4), (1, Rest.TILT_STABLE, 2))
    line = status(table, scene_of(table))
    assert line.endswith("Hold CUBE to enter this roll by hand.")
    assert press(table, WHITE, CUBE, HELD).table.at == table.at  # the thrower's CUBE only
    assert press(table, BLACK, CUBE, SHORT).table.at == table.at  # held, not pressed
    step = press(table, BLACK, CUBE, HELD)
    assert step.records == () and step.dice is None
    entering = step.table
    assert entering.at == Entering(BLACK, 2, table.at.back, chosen=True)  # type: ignore[union-attr]
    # The pair's coming and going leaves the roll entered, as the person chose.
    lost = entering.handle(Fault(FaultSource.GODICE, "die 2 (red) is gone", 31.0)).table
    back = lost.handle(Fault(FaultSource.GODICE, None, 32.0)).table
    assert back.at == entering.at
    # A die's word is no roll now: the dice are entered with the buttons.
    assert tell(back, *THROWN, (0, Rest.STABLE, 6), (1, Rest.STABLE, 6))[1] == ()
    for _step in range(4):
        back = press(back, BLACK, CUBE, SHORT).table
    step = press(back, BLACK, ROLL, HELD)  # 5-5, a doublet at once
    assert step.records == (Rolled(BLACK, (5, 5), DiceSource.ENTERED),)
    assert step.table.phase is Phase.MOVING
    # White's next roll is read from the dice again.
    play = parse_play(step.table.mover_view, (5, 5), "13/3(2)")
    played = replay(
        *opened(MatchStarted(5, dice=GODICE)), *step.records, Played.of(BLACK, play.moves)
    )
    rolling = press(played, WHITE, ROLL, SHORT).table
    assert isinstance(rolling.at, Rolling) and rolling.at.thrown and rolling.at.player == WHITE


def test_against_the_computer_the_person_enters_its_roll_by_hand_too() -> None:
    table = replay(*opened(MatchStarted(5, seats=(Seat.PERSON, Seat.ENGINE), dice=GODICE)))
    table = table.handle(Decided(BLACK, Intent.ROLL, 30.0)).table
    assert status(table, scene_of(table)) == (
        "White throws the dice for Black (engine): they are read as they come to rest."
        " Hold CUBE to enter this roll by hand."
    )
    entering = press(table, WHITE, CUBE, HELD).table  # the person's CUBE: he throws them
    assert isinstance(entering.at, Entering) and entering.at.player == BLACK


def test_against_the_computer_the_person_throws_its_dice() -> None:
    table = replay(*opened(MatchStarted(5, seats=(Seat.PERSON, Seat.ENGINE), dice=GODICE)))
    for t in (11.0, 11.0 + TAKEBACK_WAIT):  # the computer waits for a takeback of White's play
        table = table.handle(Tick(t)).table
    assert waiting(table) == DecisionRequest(BLACK, Ask.TURN)
    table = table.handle(Decided(BLACK, Intent.ROLL, 30.0)).table
    assert isinstance(table.at, Rolling) and table.at.thrown and table.at.player == BLACK
    assert waiting(table) is None  # the computer's turn waits for its throw
    table, records = tell(table, *THROWN, (0, Rest.STABLE, 3), (1, Rest.STABLE, 3))
    assert records == (Rolled(BLACK, (3, 3), GODICE),)
    assert waiting(table) == DecisionRequest(BLACK, Ask.PLAY)


def test_the_players_choose_godice_only_where_a_pair_is_paired_and_a_person_sits() -> None:
    def stepped(table: Table) -> list[DiceSource]:
        table = replace(table, at=Choosing(MatchRules(5), Option.DICE))
        seen = []
        for _press in range(3):
            table = press(table, WHITE, CUBE, SHORT).table
            assert isinstance(table.at, Choosing)
            seen.append(table.at.dice)
        return seen

    table = replay(*opened(MatchStarted(5)))
    assert stepped(table) == [DiceSource.ENTERED, DiceSource.ELECTRONIC, DiceSource.ENTERED]
    paired = replace(table, config=replace(table.config, godice=True))
    assert stepped(paired) == [DiceSource.ENTERED, GODICE, DiceSource.ELECTRONIC]
    assert "The next match: dice GoDice." in status(
        press(
            replace(paired, at=Choosing(MatchRules(5), Option.DICE, dice=DiceSource.ENTERED)),
            WHITE,
            CUBE,
            SHORT,
        ).table,
        scene_of(table),
    )


def test_a_board_with_nobody_at_it_keeps_the_boards_dice_and_says_why() -> None:
    engines = replay(*opened(MatchStarted(5, seats=(Seat.ENGINE, Seat.ENGINE))))
    engines = replace(engines, config=replace(engines.config, godice=True))
    choosing = replace(engines, at=Choosing(MatchRules(5), Option.DICE))
    step = choosing.handle(Decided(WHITE, Intent.NEXT_VALUE, 30.0))
    assert isinstance(step.table.at, Choosing) and step.table.at.dice is DiceSource.ELECTRONIC
    assert dice_message(choosing)["why"] == (
        "Nobody sits at this board to throw dice by hand: with the engine or a remote board in"
        " both seats, the board rolls."
    )


def test_a_pair_down_says_nothing_in_a_match_that_rolls_otherwise() -> None:
    board = replay(*opened(MatchStarted(5)))  # the pair paired, but this match is electronic
    lost = board.handle(Fault(FaultSource.GODICE, "die 1 (red) is gone", 25.0)).table
    assert status(lost, scene_of(lost)) == status(board, scene_of(board))
    assert scene_of(lost).alert is None
    assert press(lost, BLACK, ROLL, SHORT).dice is not None  # the board rolls as ever
