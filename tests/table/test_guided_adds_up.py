"""A guided play whose visible moves add up to a change the sensors cannot see: 6/4 then
4/off from a point fuller than its switches reads as the start; 8/5 then 5/off reads as the
checker from the 8-point still in the hand. A board that reads as a later step is no sign
that the hands got there: the table lights each move until the hands make it, and
commits the play only after its checkers moved, so the board and the journal stay one.

Found by playing many seeded positions through the hands that make the other board's play
(:func:`bgpi.remote.hands.make_theirs`), as a remote match does: before the fix the play was
committed at once and its checkers never moved; a later play then found the board unlike
every step lit, and a remote match stopped with "made no record here (guided play)"."""

from __future__ import annotations

import random

import pytest

from bgpi.base.words import BLACK, WHITE
from bgpi.journal.records import MatchStarted, Played, Seat
from bgpi.remote.hands import decide, make, make_theirs
from bgpi.remote.turns import decider
from bgpi.remote.wire import Action
from bgpi.remote.wire import Intent as Wish
from bgpi.rules import BAR, Move, Position, legal_plays
from bgpi.sensing.board import counts_of, zone_of
from bgpi.sim.demo import PipPlayer
from bgpi.sim.simtable import SimOptions, SimTable
from bgpi.table import Chosen, Guided, Phase
from tests.table.arrange import arrange, fixed_dice

# White on roll: 8 on its 6-point (6 switches), 3 on the 5-point, 4 on the 4-point.
STACKED = Position.from_points({6: 8, 5: 3, 4: 4}, {12: 5, 13: 5, 14: 5})
UNSEEN_SUM = (Move(6, 4, 2), Move(4, 0, 4))  # 6/4 (seen), 4/off (seen): together, nothing
# The same with a Black blot on White's 4-point: 6/4* then 4/off leaves the 4-point empty and
# the blot on the bar, as the board reads while the hand has put the blot there and still
# holds the hitter.
BLOT = Position.from_points({6: 8, 5: 3, 3: 4}, {12: 5, 13: 5, 14: 4, 21: 1})
HIT_SUM = (Move(6, 4, 2, hit=True), Move(4, 0, 4))
# No tall stack at all: 8/5 then 5/off reads as the checker from the 8-point still in the hand.
IN_HAND = Position.from_points({8: 1, 6: 5, 5: 4, 4: 5}, {12: 5, 13: 5, 14: 5})
IN_HAND_SUM = (Move(8, 5, 3), Move(5, 0, 5))
SEATS = (Seat.REMOTE, Seat.PERSON)
BOARD_ZONES = range(1, 27)  # the points and the bars: the zones that hold checkers here


def plays(sim: SimTable) -> list[Played]:
    return [r for r in sim.driver.log if isinstance(r, Played)]


def board_is_journal(sim: SimTable) -> bool:
    """Whether the checkers on the board stand as the journal's position says."""
    journal = counts_of(sim.table.position, WHITE)
    return all(len(sim.board.checkers(zone)) == journal[zone] for zone in BOARD_ZONES)


def rolled(position: Position, dice: tuple[int, int], seats: tuple[Seat, Seat]) -> SimTable:
    """White (the other board's seat) has rolled ``dice`` in ``position``."""
    sim = SimTable(MatchStarted(5, seats=seats))
    fixed_dice(sim, *dice)
    arrange(sim, position, WHITE)
    make_theirs(sim, Wish(3, Action.ROLL), WHITE)
    assert sim.phase is Phase.MOVING
    return sim


def test_moves_adding_up_to_nothing_seen_are_lit_until_the_hands_make_them() -> None:
    sim = rolled(STACKED, (4, 2), SEATS)
    sim.driver.dispatch(Chosen(WHITE, UNSEEN_SUM, sim.clock()))
    sim.advance(1.0)  # the board still shows the start, which the whole play reads as
    at = sim.table.at
    assert isinstance(at, Guided) and at.next_move == UNSEEN_SUM[0] and plays(sim) == []
    sim.make_move(WHITE, UNSEEN_SUM[0])
    at = sim.table.at
    assert isinstance(at, Guided) and at.next_move == UNSEEN_SUM[1] and plays(sim) == []
    sim.make_move(WHITE, UNSEEN_SUM[1])
    assert plays(sim) == [Played.of(WHITE, UNSEEN_SUM)] and sim.match.turn == BLACK
    assert len(sim.board.checkers(6)) == 7 and board_is_journal(sim)


def test_a_hit_blot_on_the_bar_before_the_hitter_lands_is_not_the_end_of_the_play() -> None:
    sim = rolled(BLOT, (4, 2), SEATS)
    sim.driver.dispatch(Chosen(WHITE, HIT_SUM, sim.clock()))
    sim.advance()
    sim.board.lift(4, BLACK)  # the hands hit first: the blot to its bar
    sim.board.place(zone_of(BLACK, BAR), BLACK)
    sim.advance(1.0)  # the board reads as the whole play, the hitter still in the hand
    at = sim.table.at
    assert isinstance(at, Guided) and at.next_move == HIT_SUM[0] and plays(sim) == []
    sim.board.lift(6, WHITE)
    sim.board.place(4, WHITE)
    sim.advance()
    at = sim.table.at
    assert isinstance(at, Guided) and at.next_move == HIT_SUM[1] and plays(sim) == []
    sim.make_move(WHITE, HIT_SUM[1])
    assert plays(sim) == [Played.of(WHITE, HIT_SUM)] and board_is_journal(sim)


def test_a_checker_in_the_hand_is_not_the_end_of_the_play_it_looks_like() -> None:
    sim = rolled(IN_HAND, (5, 3), SEATS)
    sim.driver.dispatch(Chosen(WHITE, IN_HAND_SUM, sim.clock()))
    sim.advance()
    sim.board.lift(8, WHITE)
    sim.advance(1.0)  # the hand holds the checker: the board reads as the whole play
    at = sim.table.at
    assert isinstance(at, Guided) and at.next_move == IN_HAND_SUM[0] and plays(sim) == []
    sim.board.place(5, WHITE)
    sim.advance()
    at = sim.table.at
    assert isinstance(at, Guided) and at.next_move == IN_HAND_SUM[1] and plays(sim) == []
    sim.make_move(WHITE, IN_HAND_SUM[1])
    assert plays(sim) == [Played.of(WHITE, IN_HAND_SUM)] and board_is_journal(sim)


@pytest.mark.parametrize("seats", [SEATS, (Seat.REMOTE, Seat.ENGINE)])
@pytest.mark.parametrize(("position", "moves"), [(STACKED, UNSEEN_SUM), (BLOT, HIT_SUM)])
def test_the_other_boards_play_adding_up_to_nothing_seen_is_made_then_committed(
    seats: tuple[Seat, Seat], position: Position, moves: tuple[Move, ...]
) -> None:
    sim = rolled(position, (4, 2), seats)
    make_theirs(sim, Wish(4, Action.PLAY, Played.of(WHITE, moves).moves), WHITE)
    assert plays(sim) == [Played.of(WHITE, moves)] and board_is_journal(sim)


def late_position(rng: random.Random) -> Position:
    """White's checkers near or in its home board, one point often stacked past its switches,
    some borne off; Black's mostly far away, now and then a blot to hit."""
    top = rng.choice((3, 4, 6, 6, 9))
    stacked = rng.randint(7, 11) if rng.random() < 0.7 else 0
    mine = {rng.randint(1, 6): stacked} if stacked else {}
    for _ in range(rng.randint(0 if stacked else 1, 15 - stacked)):
        point = rng.randint(1, top)
        mine[point] = mine.get(point, 0) + 1
    theirs: dict[int, int] = {}
    for _ in range(rng.randint(1, 15)):
        mover_point = rng.randint(1, 24) if rng.random() < 0.3 else rng.randint(13, 24)
        if mover_point not in mine:
            theirs[25 - mover_point] = theirs.get(25 - mover_point, 0) + 1
    return Position.from_points(mine, theirs or {25: 1})  # else: one on Black's bar


@pytest.mark.parametrize("seed", range(4))
def test_seeded_late_plays_of_the_other_board_are_all_made_and_committed(seed: int) -> None:
    """A bounded sweep: random late positions and dice, the play chosen at random among the
    legal ones or by the demo's player, made by the hands as the other board's play."""
    rng = random.Random(seed)
    for _ in range(60):
        position, dice = late_position(rng), (rng.randint(1, 6), rng.randint(1, 6))
        sim = rolled(position, dice, SEATS)
        legal = legal_plays(sim.table.mover_view, dice)
        if rng.random() < 0.5:
            choice = rng.choice(legal)
        else:
            choice = PipPlayer().choose(sim.table.mover_view, sim.match, rng)
        moves = Played.of(WHITE, choice.moves).moves
        make_theirs(sim, Wish(4, Action.PLAY, moves), WHITE)
        assert plays(sim) == [Played(WHITE, moves)], (position, dice, choice.moves)
        assert board_is_journal(sim), (position, dice, choice.moves)


@pytest.mark.parametrize("seed", range(24))
def test_seeded_games_from_late_positions_commit_every_play_of_the_other_board(seed: int) -> None:
    """Games played out from a late position as a remote match plays them here: my seat
    (Black) made by my hands and ROLL, White's intents made as they arrive. Every play of
    White's is committed and leaves the board as the journal says. Before the fix, seeds 13
    and 22 parted the board from the journal at their first play; played on regardless, a
    later play of White's was never committed: the table stayed in the guided play, as in the remote
    match that stopped with "made no record here (guided play)"."""
    rng = random.Random(seed)
    sim = SimTable(MatchStarted(5, seats=SEATS), options=SimOptions(seed=seed))
    arrange(sim, late_position(rng), WHITE)
    player = PipPlayer()
    for _ in range(600):
        if sim.phase in (Phase.GAME_OVER, Phase.MATCH_OVER):
            return
        side = decider(sim.table)
        assert side is not None, sim.phase
        intent = decide(sim, player, side, len(sim.driver.log), rng)
        if intent.action is Action.DOUBLE:  # the cube stays put: the plays are tested here
            intent = Wish(intent.at, Action.ROLL)
        if side == BLACK:
            make(sim, intent, side)
            continue
        before = len(plays(sim))
        make_theirs(sim, intent, side)
        if intent.action is Action.PLAY:
            assert len(plays(sim)) == before + 1, (sim.phase, intent)
            assert board_is_journal(sim), intent
    pytest.fail("the game did not end in 600 steps")
