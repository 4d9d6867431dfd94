"""Whole games and matches played by hand on the simulated table."""

import pytest

from bgpi.base.faults import FaultSource
from bgpi.base.words import BAR_BLACK, BLACK, WHITE
from bgpi.hal.api import FaultEvent
from bgpi.journal.records import CubeAction, GameEnded, MatchStarted, OpeningRolled, Played
from bgpi.lights import Alert
from bgpi.rules import BAR, Position, parse_play
from bgpi.sim.demo import play_match
from bgpi.sim.simtable import SimOptions, SimTable
from bgpi.table import Phase, Table
from tests.sensing.hands import position_on
from tests.table.arrange import arrange, fixed_dice


def opened(white: int = 3, black: int = 1, match: MatchStarted | None = None) -> SimTable:
    """A table with the board set up and the opening roll made."""
    sim = SimTable(match or MatchStarted(5))
    fixed_dice(sim, white, black)
    assert sim.phase is Phase.SETUP
    sim.setup()
    assert sim.phase is Phase.OPENING
    sim.roll(WHITE)
    sim.roll(BLACK)
    return sim


def play(sim: SimTable, text: str) -> None:
    turn = sim.match.turn
    assert turn is not None and sim.match.dice is not None
    chosen = parse_play(sim.table.mover_view, sim.match.dice, text)
    sim.make_play(turn, chosen.moves)


def records(sim: SimTable) -> list[object]:
    return list(sim.driver.log)


def test_setup_guides_the_checkers_to_the_start() -> None:
    sim = SimTable(MatchStarted(5))
    assert sim.phase is Phase.SETUP
    scene = sim.scene
    assert (6, 5) in scene.missing and (1, 2) in scene.missing and not scene.correct
    sim.setup()
    assert sim.phase is Phase.OPENING


def test_opening_roll_and_first_play() -> None:
    sim = opened(3, 1)
    assert sim.phase is Phase.MOVING and sim.match.turn == WHITE
    assert sim.match.dice == (3, 1)
    sim.lift(8, WHITE)
    assert sim.scene.destinations == {7, 5, 4}
    sim.place(5, WHITE)
    sim.lift(6, WHITE)
    sim.place(5, WHITE)
    assert sim.scene.prompts == ((WHITE, "roll", "end turn"),)
    sim.roll(WHITE)
    assert sim.phase is Phase.BEFORE_ROLL and sim.match.turn == BLACK
    assert sim.position.player[5] == 2
    assert isinstance(records(sim)[-1], Played)


def test_opening_tie_rolls_again() -> None:
    sim = SimTable(MatchStarted(5))
    fixed_dice(sim, 4, 4, 6, 1)
    sim.setup()
    sim.roll(BLACK)
    sim.roll(WHITE)
    assert sim.phase is Phase.OPENING and sim.match.cube == 1  # no automatic doubles in a match
    sim.roll(WHITE)
    sim.roll(BLACK)
    assert sim.match.turn == WHITE and sim.match.dice == (6, 1)


def test_roll_on_an_incomplete_play_is_refused() -> None:
    sim = opened(3, 1)
    sim.lift(8, WHITE)
    sim.place(5, WHITE)
    sim.roll(WHITE)
    assert sim.phase is Phase.MOVING
    assert not any(isinstance(r, Played) for r in records(sim))


def test_a_wrong_board_is_shown_and_fixed_mid_turn() -> None:
    sim = opened(3, 1)
    sim.lift(8, WHITE)
    sim.place(5, WHITE)
    sim.lift(6, WHITE)
    sim.place(4, WHITE)  # a 2: not in the roll
    assert sim.scene.alert is Alert.WRONG
    assert sim.scene.extra == ((4, 1),) and sim.scene.missing == ((6, 1),)
    sim.roll(WHITE)  # ends the turn as it stands: shown to both as illegal
    assert sim.phase is Phase.ILLEGAL and sim.scene.alert is Alert.WRONG
    sim.cube(BLACK)  # Black demands the correction
    assert sim.phase is Phase.MOVING  # nothing committed from a wrong board
    assert records(sim)[-1] == OpeningRolled(3, 1)
    sim.lift(4, WHITE)
    sim.place(5, WHITE)
    assert sim.scene.alert is None
    sim.roll(WHITE)
    assert sim.phase is Phase.BEFORE_ROLL


def test_dance() -> None:
    sim = opened(3, 1)
    dance = Position.from_points({BAR: 1, 13: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 5})
    arrange(sim, dance, WHITE)
    fixed_dice(sim, 6, 5)
    sim.roll(WHITE)
    assert sim.scene.alert is Alert.NO_MOVE
    assert sim.scene.prompts == ((WHITE, "roll", "acknowledge"),)
    sim.roll(WHITE)
    assert records(sim)[-1] == Played(WHITE, ())
    assert sim.match.turn == BLACK


def test_forced_single_die_play() -> None:
    sim = opened(3, 1)
    arrange(sim, Position.from_points({13: 1, 1: 14}, {23: 2, 6: 13}), WHITE)
    fixed_dice(sim, 6, 5)
    sim.roll(WHITE)
    sim.lift(13, WHITE)
    assert sim.scene.destinations == {7}
    sim.place(7, WHITE)
    sim.roll(WHITE)
    assert sim.phase is Phase.BEFORE_ROLL and sim.position.player[7] == 1


def test_hit_puts_the_blot_on_the_bar() -> None:
    sim = opened(6, 4)
    sim.lift(24, WHITE)
    sim.place(18, WHITE)
    sim.lift(18, WHITE)
    sim.place(14, WHITE)
    sim.roll(WHITE)
    fixed_dice(sim, 6, 1)
    sim.roll(BLACK)
    # Black's 13/7* 8/7: the blot on printed 14 is Black's 11 point... play 24/18 8/7 instead
    play(sim, "13/7 8/7")
    sim.roll(BLACK)
    assert sim.phase is Phase.BEFORE_ROLL and sim.board.checkers(BAR_BLACK) == ()


def finish(sim: SimTable, winner: int, dice: tuple[int, int], text: str) -> None:
    fixed_dice(sim, *dice)
    sim.roll(winner)
    play(sim, text)
    sim.roll(winner)


def test_gammon_and_backgammon_score_times_the_cube() -> None:
    sim = opened()
    # Black has borne off none; one Black checker is still in White's home: a backgammon.
    backgammon = Position.from_points({1: 1}, {22: 1, 6: 14})
    arrange(sim, backgammon, WHITE, cube=2, cube_owner=BLACK)
    finish(sim, WHITE, (2, 1), "1/off")
    assert records(sim)[-1] == GameEnded(WHITE, 3, 6)
    assert sim.match.score == (6, 0) and sim.phase is Phase.MATCH_OVER


def test_gammon() -> None:
    sim = opened()
    arrange(sim, Position.from_points({1: 1}, {6: 15}), WHITE)
    finish(sim, WHITE, (2, 1), "1/off")
    assert records(sim)[-1] == GameEnded(WHITE, 2, 2)
    assert sim.phase is Phase.GAME_OVER and sim.scene.alert is Alert.GAME_OVER


def test_take_redouble_and_drop() -> None:
    sim = opened()
    play(sim, "8/5 6/5")
    sim.roll(WHITE)
    sim.cube(BLACK)  # Black doubles
    assert sim.phase is Phase.DOUBLED
    assert sim.scene.prompts == ((WHITE, "roll", "take"), (WHITE, "cube", "drop"))
    sim.roll(WHITE)  # takes
    assert sim.match.cube == 2 and sim.match.cube_owner == WHITE
    fixed_dice(sim, 2, 1)
    sim.roll(BLACK)
    play(sim, "13/11 6/5")
    sim.roll(BLACK)
    sim.cube(WHITE)  # White redoubles to 4
    sim.cube(BLACK)  # Black drops: White wins 2
    assert records(sim)[-2:] == [CubeAction(BLACK, "drop"), GameEnded(WHITE, 1, 2, dropped=True)]
    assert sim.match.score == (2, 0)


def test_the_owner_alone_may_redouble() -> None:
    sim = opened()
    play(sim, "8/5 6/5")
    sim.roll(WHITE)
    sim.cube(BLACK)
    sim.roll(WHITE)
    fixed_dice(sim, 2, 1)
    sim.roll(BLACK)
    play(sim, "13/11 6/5")
    sim.roll(BLACK)
    fixed_dice(sim, 5, 2)
    sim.cube(BLACK)  # not Black's turn, and White owns the cube: nothing happens
    assert sim.phase is Phase.BEFORE_ROLL and sim.match.turn == WHITE


def crawford_table() -> SimTable:
    """White 4-away... White at 4 of 5 after a single win: the next game is Crawford."""
    sim = opened()
    single = Position.from_points({1: 1}, {6: 14})  # Black has one checker off
    arrange(sim, single, WHITE, score=(3, 0))
    finish(sim, WHITE, (2, 1), "1/off")
    assert sim.match.score == (4, 0) and sim.phase is Phase.GAME_OVER
    sim.roll(WHITE)  # next game
    fixed_dice(sim, 3, 1)
    sim.setup()
    sim.roll(WHITE)
    sim.roll(BLACK)
    return sim


def test_the_crawford_game_has_no_doubling() -> None:
    sim = crawford_table()
    assert sim.match.crawford_game
    assert not sim.scene.cube_available
    play(sim, "8/5 6/5")
    sim.roll(WHITE)
    sim.cube(BLACK)
    assert sim.phase is Phase.BEFORE_ROLL  # the double was refused


def test_post_crawford_the_trailer_may_double() -> None:
    sim = crawford_table()
    single = Position.from_points({1: 1}, {6: 14})
    arrange(sim, single.swap(), BLACK, score=(4, 0), crawford_game=True)
    finish(sim, BLACK, (2, 1), "1/off")
    assert sim.match.score == (4, 1)
    sim.roll(WHITE)
    fixed_dice(sim, 1, 3)
    sim.setup()
    sim.roll(WHITE)
    sim.roll(BLACK)
    assert not sim.match.crawford_game and sim.match.turn == BLACK
    play(sim, "8/5 6/5")
    sim.roll(BLACK)
    sim.cube(WHITE)  # White needs 1 point: may not double
    assert sim.phase is Phase.BEFORE_ROLL
    fixed_dice(sim, 2, 1)
    sim.roll(WHITE)
    play(sim, "13/11 6/5")
    sim.roll(WHITE)
    sim.cube(BLACK)  # the trailer doubles
    assert sim.phase is Phase.DOUBLED


def test_money_automatic_doubles_and_beaver() -> None:
    money = MatchStarted(0, jacoby=True, beaver=True, automatic_doubles=1)
    sim = SimTable(money)
    fixed_dice(sim, 5, 5, 2, 2, 3, 1)
    sim.setup()
    sim.roll(WHITE)
    sim.roll(BLACK)
    assert sim.match.cube == 2 and sim.match.cube_owner is None  # one automatic double
    sim.roll(WHITE)
    sim.roll(BLACK)
    assert sim.match.cube == 2  # the limit of one automatic double is reached
    sim.roll(WHITE)
    sim.roll(BLACK)
    play(sim, "8/5 6/5")
    sim.roll(WHITE)
    sim.cube(BLACK)  # Black doubles to 4
    sim.press(WHITE, "roll", hold=1.0)  # White beavers: 8, White's cube
    assert records(sim)[-1] == CubeAction(WHITE, "beaver")
    assert sim.match.cube == 8 and sim.match.cube_owner == WHITE


def test_jacoby_gammon_counts_single_with_a_centred_cube() -> None:
    money = MatchStarted(0, jacoby=True)
    sim = opened(match=money)
    arrange(sim, Position.from_points({1: 1}, {6: 15}), WHITE)
    finish(sim, WHITE, (2, 1), "1/off")
    assert records(sim)[-1] == GameEnded(WHITE, 2, 1)


@pytest.mark.parametrize(
    ("seed", "match"),
    [(seed, MatchStarted(1)) for seed in range(6)]
    + [(10, MatchStarted(3)), (11, MatchStarted(0, jacoby=True, beaver=True, automatic_doubles=2))],
)
def test_demo_games_are_legal_and_every_checker_is_accounted_for(
    seed: int, match: MatchStarted
) -> None:
    sim = play_match(match, seed=seed, say=lambda _: None, games=2)
    # Replaying checks every record against the rules: each play was legal.
    replayed = Table.replay(sim.table.config, sim.driver.log)
    assert replayed.match == sim.match
    assert replayed.position == sim.position
    # The checkers on the simulated board are exactly the table's position.
    assert position_on(sim.board, WHITE) == sim.position


def test_a_failed_backend_is_shown_until_it_recovers() -> None:
    sim = opened()
    sim.take(FaultEvent(FaultSource.SENSORS, "reading the sensor chain failed", sim.clock()))
    sim.advance()
    assert sim.scene.alert is Alert.FAULT
    sim.take(FaultEvent(FaultSource.SENSORS, None, sim.clock()))
    sim.advance()
    assert sim.scene.alert is None
    assert sim.phase is Phase.MOVING  # the game goes on where it was


def test_the_simulated_table_takes_the_settle_time_and_long_press() -> None:
    sim = SimTable(MatchStarted(5), options=SimOptions(settle=0.1, long_press=1.5))
    assert sim.table.config.settle == 0.1 and sim.table.config.long_press == 1.5
    sim.setup()
    sim.board.lift(13, WHITE)
    sim.advance(0.06)  # not yet held still long enough to count
    assert sim.table.observation is not None and sim.table.observation[13] == 5
    sim.advance(0.1)
    assert sim.table.observation[13] == 4


def test_a_restart_mid_turn_reads_the_board_as_the_hands_left_it() -> None:
    sim = opened(3, 1)
    sim.lift(8, WHITE)
    sim.place(5, WHITE)  # half the play made when the power goes
    resumed = SimTable(sim.driver.log)  # the journal replayed: the turn, rolled, not yet played
    assert resumed.phase is Phase.MOVING and resumed.match.dice == (3, 1)
    resumed.lift(8, WHITE)  # the board as the hands had left it
    resumed.place(5, WHITE)
    reading = resumed.table.reading
    assert resumed.scene.alert is None and reading is not None and not reading.complete
    resumed.lift(6, WHITE)
    resumed.place(5, WHITE)
    resumed.roll(WHITE)
    assert resumed.phase is Phase.BEFORE_ROLL and resumed.position.player[5] == 2


def test_a_board_bumped_during_a_power_cut_is_shown_until_fixed() -> None:
    sim = opened(3, 1)
    play(sim, "8/5 6/5")
    sim.roll(WHITE)
    resumed = SimTable(sim.driver.log)
    resumed.knock(13)
    assert resumed.scene.alert is Alert.WRONG and resumed.scene.missing == ((13, 1),)
    fixed_dice(resumed, 6, 5)
    resumed.roll(BLACK)
    assert resumed.phase is Phase.BEFORE_ROLL  # no roll on a wrong board
    resumed.straighten(13)
    resumed.roll(BLACK)
    assert resumed.phase is Phase.MOVING


def test_a_new_match_after_the_end_starts_a_fresh_log() -> None:
    sim = opened()
    arrange(sim, Position.from_points({1: 1}, {22: 1, 6: 14}), WHITE, cube=2, cube_owner=BLACK)
    finish(sim, WHITE, (2, 1), "1/off")
    assert sim.phase is Phase.MATCH_OVER and sim.scene.alert is Alert.MATCH_OVER
    sim.roll(BLACK)  # the next match is chosen, from the same rules
    assert sim.phase is Phase.CHOOSING
    sim.press(BLACK, "roll", hold=1.0)  # as they are
    assert sim.phase is Phase.SETUP and sim.match.score == (0, 0)
    assert sim.driver.log == [MatchStarted(5)]
    assert sim.journal.records == [MatchStarted(5)]  # type: ignore[attr-defined]
