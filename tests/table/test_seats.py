"""A seat that is not a person here: asked by the table, answering with intents and plays;
its play lit move by move and made by the hands at the board, wrong moves shown until fixed."""

from __future__ import annotations

from bgpi.base.words import BLACK, CUBE, WHITE, Player
from bgpi.journal.records import CubeAction, GameEnded, MatchStarted, Played, ResignOffered, Seat
from bgpi.lights import Alert
from bgpi.present.status import status
from bgpi.rules import GameResult, Move, legal_plays, parse_play
from bgpi.sim.simtable import SimTable
from bgpi.table import Ask, Chosen, Decided, DecisionRequest, Intent, Phase, Table, waiting
from tests.table.arrange import fixed_dice

ENGINE_BLACK = MatchStarted(5, seats=(Seat.PERSON, Seat.ENGINE))


class ScriptedSeat:
    """Answers every ask from a script: plays as text, in turn; rolls; takes a double."""

    def __init__(self, *plays: str, cube: Intent = Intent.TAKE, turn: Intent = Intent.ROLL) -> None:
        self.plays = list(plays)
        self.cube, self.turn = cube, turn
        self.asked: list[DecisionRequest] = []

    def __call__(self, request: DecisionRequest, table: Table) -> Intent | tuple[Move, ...] | None:
        self.asked.append(request)
        if request.ask is Ask.OPENING_ROLL:
            return Intent.OPENING_ROLL
        if request.ask is Ask.TURN:
            return self.turn
        if request.ask is Ask.CUBE:
            return self.cube
        if request.ask is Ask.RESIGN:
            return Intent.ACCEPT_RESIGN
        assert table.match.dice is not None
        if not self.plays:
            return None  # still thinking
        return parse_play(table.mover_view, table.match.dice, self.plays.pop(0)).moves


def follow_one(sim: SimTable, player: Player) -> None:
    """The hands at the board make the move lit: a blot on the destination to its bar first."""
    (src,) = sim.scene.lifted
    (dst,) = sim.scene.destinations
    other = player.other
    if other in sim.board.checkers(dst):
        sim.board.lift(dst, other)
        sim.board.place((25, 26)[other], other)
        sim.advance()
    sim.board.lift(src, player)
    if dst not in (27, 28) or sim.geometry.tray_slots:
        sim.board.place(dst, player)
    sim.advance()


def engine_opens(*plays: str) -> tuple[SimTable, ScriptedSeat]:
    """Black is the engine and wins the opening 6-5 (its die rolled when the table asks)."""
    sim = SimTable(ENGINE_BLACK)
    seat = ScriptedSeat(*plays)
    sim.seats[BLACK] = seat
    fixed_dice(sim, 6, 5)  # Black's die is asked for first: the seat answers at once
    sim.setup()
    sim.roll(WHITE)
    return sim, seat


def test_the_seats_play_is_lit_move_by_move_and_the_hands_make_it() -> None:
    sim, seat = engine_opens("24/13")
    assert [r.ask for r in seat.asked] == [Ask.OPENING_ROLL, Ask.PLAY]
    assert sim.match.turn == BLACK and sim.phase is Phase.GUIDED
    # Black's 24/18 lit first: the checker on Black's 24 (printed point 1) and point 7.
    assert sim.scene.lifted == {1} and sim.scene.destinations == {7}
    assert sim.scene.prompts == ()  # no button of the engine's is lit, nor White's
    line = status(sim.table, sim.scene)
    assert line.startswith("Black (engine) plays 6-5: 1/12.")  # printed: its own 24/13
    assert line.endswith("Move 1 of 2: from point 1 (blinking) to point 7.")
    follow_one(sim, BLACK)
    assert sim.scene.lifted == {7} and sim.scene.destinations == {12}
    assert sim.phase is Phase.GUIDED  # not until the whole play is on the board
    follow_one(sim, BLACK)
    assert sim.phase is Phase.BEFORE_ROLL and sim.match.turn == WHITE
    assert isinstance(sim.driver.log[-1], Played) and sim.driver.log[-1].player == BLACK


def test_a_wrong_move_is_shown_and_the_play_goes_on_once_it_is_corrected() -> None:
    sim, _ = engine_opens("24/13")
    sim.lift(1, BLACK)
    sim.place(8, BLACK)  # one point short of the 7 lit
    assert sim.scene.alert is Alert.WRONG and sim.scene.destinations == {7}
    assert (8, 1) in sim.scene.extra
    sim.lift(8, BLACK)
    sim.place(7, BLACK)
    assert sim.scene.alert is None and sim.scene.lifted == {7}
    follow_one(sim, BLACK)
    assert sim.phase is Phase.BEFORE_ROLL and sim.match.turn == WHITE


def test_the_seat_is_asked_to_answer_a_double_and_its_buttons_do_nothing() -> None:
    sim, seat = engine_opens("24/13")
    follow_one(sim, BLACK)
    follow_one(sim, BLACK)
    sim.cube(BLACK)  # the engine's own button: ignored
    assert sim.phase is Phase.BEFORE_ROLL and sim.match.turn == WHITE
    sim.cube(WHITE)
    assert seat.asked[-1] == DecisionRequest(BLACK, Ask.CUBE)
    assert sim.driver.log[-1] == CubeAction(BLACK, "take") and sim.match.cube == 2


def test_a_play_that_is_not_legal_or_not_due_is_refused_in_one_line() -> None:
    sim, _ = engine_opens()  # the seat has not chosen yet
    table = sim.table
    wrong = table.handle(Chosen(BLACK, (Move(24, 18, 6),), 1.0))  # short of the roll's 6-5
    assert (
        wrong.table is table and wrong.refused is not None and "not a legal play" in wrong.refused
    )
    person = table.handle(Decided(WHITE, Intent.DOUBLE, 1.0))
    assert person.table is table and person.refused is not None and "person" in person.refused
    not_now = table.handle(Decided(BLACK, Intent.DOUBLE, 1.0))
    assert not_now.refused is not None and "not open" in not_now.refused


def test_a_journal_resumed_mid_turn_says_what_it_waits_for() -> None:
    sim, _ = engine_opens("24/13")
    again = SimTable(sim.driver.log)
    assert again.phase is Phase.MOVING  # the chosen play is not journaled: asked again
    assert waiting(again.table) == DecisionRequest(BLACK, Ask.PLAY)


def first_legal(request: DecisionRequest, table: Table) -> Intent | tuple[Move, ...] | None:
    """A seat that rolls, takes, and plays the first legal play: hits, dances, bear-offs."""
    if request.ask is Ask.PLAY:
        assert table.match.dice is not None
        return legal_plays(table.mover_view, table.match.dice)[0].moves
    return {Ask.OPENING_ROLL: Intent.OPENING_ROLL, Ask.TURN: Intent.ROLL}.get(
        request.ask, Intent.TAKE
    )


def test_two_seats_play_a_whole_game_by_the_lights_alone() -> None:
    sim = SimTable(MatchStarted(3, seats=(Seat.ENGINE, Seat.REMOTE)))
    sim.seats = {WHITE: first_legal, BLACK: first_legal}
    sim.setup()
    for _ in range(2000):
        if sim.phase is not Phase.GUIDED:
            break
        assert sim.scene.alert is None, sim.scene
        assert sim.match.turn is not None
        follow_one(sim, sim.match.turn)
    assert sim.phase is Phase.GAME_OVER
    assert any(isinstance(r, Played) and r.moves and r.moves[0][3] for r in sim.driver.log)  # a hit
    assert Table.replay(sim.table.config, sim.driver.log).match == sim.match


def test_the_seat_answers_a_resignation_and_may_offer_one() -> None:
    sim, seat = engine_opens("24/13")
    follow_one(sim, BLACK)
    follow_one(sim, BLACK)
    sim.press(WHITE, CUBE, hold=1.0)
    sim.roll(WHITE)  # White offers a single; the engine is asked, and accepts
    assert seat.asked[-1] == DecisionRequest(BLACK, Ask.RESIGN)
    assert sim.driver.log[-1] == GameEnded(BLACK, 1, 1, resigned=True)
    offered = sim.table.handle(Decided(BLACK, Intent.RESIGN, 1.0, GameResult.GAMMON))
    assert offered.records == () and offered.refused is not None  # the game is over


def test_a_seat_resigns_on_its_turn_with_the_level() -> None:
    sim, _ = engine_opens()
    step = sim.table.handle(Decided(BLACK, Intent.RESIGN, 1.0, GameResult.GAMMON))
    assert step.records == (ResignOffered(BLACK, 2),) and step.table.phase is Phase.RESIGN_OFFERED
    assert step.table.handle(Decided(BLACK, Intent.RESIGN, 1.0)).refused is not None
