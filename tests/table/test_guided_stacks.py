"""A guided play on tall stacks: a point fuller than its switches reads the same with one
checker fewer, and without tray sensors a checker borne off leaves no trace. A move the
sensors cannot see is lit and waits for the hands' word; it is never skipped, and the play
is never committed before its checkers moved."""

from __future__ import annotations

from bgpi.base.words import BLACK, ROLL, WHITE
from bgpi.journal.records import MatchStarted, Played, Seat
from bgpi.lights.scene import Meaning
from bgpi.remote.hands import make_theirs
from bgpi.remote.wire import Action
from bgpi.remote.wire import Intent as Wish
from bgpi.rules import Move, Position
from bgpi.sensing.board import counts_of
from bgpi.sim.simtable import SimTable
from bgpi.table import Ask, DecisionRequest, Guided, Intent, Phase, Table, waiting
from bgpi.table.phases import UNSEEN_WAIT
from tests.table.arrange import arrange, fixed_dice
from tests.table.test_seats import follow_one

BEAR_OFF = (Move(2, 0, 5), Move(2, 1, 1))  # 2/off (unseen: 7 on the 2-point read 6), 2/1
# White (the seat) on roll: 7 on its 2-point, 3 on its 1-point, 5 off; Black far away.
TALL = Position.from_points({2: 7, 1: 3}, {12: 5, 13: 5, 14: 5})
TALLER = Position.from_points({2: 12, 1: 3}, {12: 5, 13: 5, 14: 5})  # 2-2: all unseen


class PlaysThese:
    """A seat that rolls and plays ``moves``."""

    def __init__(self, moves: tuple[Move, ...]) -> None:
        self.moves = moves

    def __call__(self, request: DecisionRequest, table: Table) -> Intent | tuple[Move, ...]:
        return Intent.ROLL if request.ask is Ask.TURN else self.moves


def guided(
    position: Position, moves: tuple[Move, ...], dice: tuple[int, int], black: Seat
) -> SimTable:
    """White's seat (the engine) has rolled ``dice`` in ``position`` and chosen ``moves``."""
    sim = SimTable(MatchStarted(5, seats=(Seat.ENGINE, black)))
    sim.seats[WHITE] = PlaysThese(moves)
    fixed_dice(sim, *dice)
    arrange(sim, position, WHITE)
    request = waiting(sim.table)
    assert request is not None
    sim.ask(request)
    sim.advance()
    return sim


def lit(sim: SimTable) -> Move | None:
    at = sim.table.at
    assert isinstance(at, Guided)
    return at.next_move


def plays(sim: SimTable) -> list[Played]:
    return [r for r in sim.driver.log if isinstance(r, Played)]


def test_an_unseen_bear_off_is_lit_first_and_waits_for_the_persons_roll() -> None:
    sim = guided(TALL, BEAR_OFF, (5, 1), Seat.PERSON)
    assert sim.phase is Phase.GUIDED and lit(sim) == BEAR_OFF[0]
    assert sim.scene.prompts == ((BLACK, ROLL, Meaning.CONFIRM),)  # the person's word
    follow_one(sim, WHITE)  # the hands bear off from the 2-point: the sensors see nothing
    sim.advance(UNSEEN_WAIT + 1)  # a person is here: no wait stands in for the word
    assert lit(sim) == BEAR_OFF[0] and plays(sim) == []
    sim.roll(BLACK)  # the person here says the lit move is made
    assert lit(sim) == BEAR_OFF[1] and plays(sim) == []
    follow_one(sim, WHITE)
    assert plays(sim) == [Played.of(WHITE, BEAR_OFF)]
    assert sim.match.turn == BLACK


def test_a_roll_means_nothing_while_a_visible_move_is_lit() -> None:
    sim = guided(TALL, (Move(1, 0, 1), Move(2, 0, 5)), (5, 1), Seat.PERSON)
    assert lit(sim) == Move(1, 0, 1)  # 3 on the 1-point become 2: the sensors see it
    assert sim.scene.prompts == ()
    sim.roll(BLACK)
    assert lit(sim) == Move(1, 0, 1)
    follow_one(sim, WHITE)
    assert lit(sim) == Move(2, 0, 5)  # seen, so the unseen 2/off is lit next


def test_a_play_the_sensors_cannot_see_is_not_committed_before_the_hands_move() -> None:
    moves = (Move(2, 0, 2),) * 4
    sim = guided(TALLER, moves, (2, 2), Seat.PERSON)
    assert sim.phase is Phase.GUIDED and plays(sim) == []  # the board looks played already
    for made in range(4):
        at = sim.table.at
        assert isinstance(at, Guided) and at.done == made and plays(sim) == []
        follow_one(sim, WHITE)
        sim.roll(BLACK)
    assert plays(sim) == [Played.of(WHITE, moves)]


def test_with_no_person_here_an_unseen_move_counts_once_the_hands_have_had_their_time() -> None:
    sim = guided(TALL, BEAR_OFF, (5, 1), Seat.ENGINE)
    assert lit(sim) == BEAR_OFF[0]
    follow_one(sim, WHITE)
    sim.roll(BLACK)  # not a person here: its button does nothing
    sim.advance(UNSEEN_WAIT - 1)
    assert lit(sim) == BEAR_OFF[0]
    sim.advance(1.5)
    assert lit(sim) == BEAR_OFF[1] and plays(sim) == []
    follow_one(sim, WHITE)
    assert plays(sim) == [Played.of(WHITE, BEAR_OFF)]


def test_hands_that_undo_a_seen_move_do_not_take_done_back() -> None:
    sim = guided(TALL, (Move(1, 0, 1), Move(2, 0, 5)), (5, 1), Seat.PERSON)
    follow_one(sim, WHITE)
    assert lit(sim) == Move(2, 0, 5)
    sim.board.place(1, WHITE)  # the checker borne off goes back to the 1-point
    sim.advance(1.0)
    assert lit(sim) == Move(2, 0, 5) and plays(sim) == []


def test_the_other_boards_play_on_tall_stacks_is_made_by_the_hands_and_the_persons_roll() -> None:
    sim = SimTable(MatchStarted(5, seats=(Seat.REMOTE, Seat.PERSON)))
    fixed_dice(sim, 5, 1)
    arrange(sim, TALL, WHITE)
    make_theirs(sim, Wish(3, Action.ROLL), WHITE)
    assert sim.phase is Phase.MOVING
    make_theirs(sim, Wish(4, Action.PLAY, Played.of(WHITE, BEAR_OFF).moves), WHITE)
    assert plays(sim) == [Played.of(WHITE, BEAR_OFF)] and sim.match.turn == BLACK
    journal = counts_of(sim.table.position, WHITE)  # the checkers moved, the unseen one too
    assert [len(sim.board.checkers(zone)) for zone in (1, 2)] == [journal[1], journal[2]]


def test_the_page_says_to_press_roll_for_a_move_the_sensors_cannot_see() -> None:
    from bgpi.present.status import status  # noqa: PLC0415

    sim = guided(TALL, BEAR_OFF, (5, 1), Seat.PERSON)
    assert status(sim.table, sim.scene).endswith(
        "Press ROLL once the lit move is made (the sensors cannot see it)."
    )
