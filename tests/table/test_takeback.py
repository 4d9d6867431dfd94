"""A takeback by agreement at the simulated table: the player who just played holds ROLL
before the opponent rolls or doubles, the opponent lets it be taken back or refuses; the
journal keeps the play and the takeback, the hands put the checkers back as the lights
show, and the same dice are played again. Never on the clock, against a remote board, after
the opponent rolled or doubled, or for the computer's play."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bgpi.base.words import BLACK, CUBE, ROLL, WHITE
from bgpi.journal.export import export_mat
from bgpi.journal.records import (
    Cube,
    CubeAction,
    MatchStarted,
    Played,
    Record,
    Rolled,
    Seat,
    TakebackRefused,
    TakenBack,
    from_json,
    to_json,
)
from bgpi.lights import Alert
from bgpi.present.gamelog import log_entries
from bgpi.present.leds import scene_of
from bgpi.present.status import status
from bgpi.rules import GameState, Position, parse_play
from bgpi.rules.clock import ClockMode, ClockRules
from bgpi.sensing.board import observe
from bgpi.sim.simtable import SimTable
from bgpi.table import (
    Ask,
    BeforeRoll,
    Decided,
    DecisionRequest,
    Intent,
    Phase,
    Press,
    Table,
    TakingBack,
    Tick,
    waiting,
)
from bgpi.table.buttons import may_take_back
from bgpi.table.errors import RecordMismatchError
from bgpi.table.phases import TAKEBACK_WAIT
from tests.table.test_buttons import (
    CONFIG,
    HELD,
    OPENING_PLAY,
    SHORT,
    opened,
    press,
    replay,
    settled,
)
from tests.table.test_resign import opened as white_opens

LONG = CONFIG.long_press + 0.2  # a held press at the simulated table


def white_opened() -> SimTable:
    """White opens 3-1 with 8/5 6/5 and ends the turn: Black is on roll, 6-5 twice to come."""
    return white_opens(MatchStarted(5), 6, 5, 6, 5)


def test_a_play_taken_back_by_agreement_is_made_again_with_the_same_dice() -> None:
    sim = white_opened()
    asking = "the player who just played may hold ROLL to ask for a takeback."
    assert status(sim.table, sim.scene).endswith(asking)
    sim.press(WHITE, ROLL, hold=LONG)
    assert sim.phase is Phase.TAKEBACK_ASKED and sim.driver.log[-1] == Played(WHITE, OPENING_PLAY)
    assert sim.scene.candidate == frozenset({8, 6, 5})  # the play asked back, lit
    assert sim.scene.prompt(BLACK, ROLL) == "accept" and sim.scene.prompt(BLACK, CUBE) == "decline"
    assert sim.scene.prompt(WHITE, CUBE) == "withdraw"  # the asker's own way out
    assert status(sim.table, sim.scene) == (
        "White asks for a takeback of 8/5 6/5 (lit): Black lets it be taken back (ROLL) or "
        "refuses: the play stands (CUBE). White may withdraw the request (CUBE)."
    )
    sim.roll(BLACK)
    assert sim.driver.log[-1] == TakenBack(WHITE, OPENING_PLAY)
    # The hands put the checkers back: two off the 5-point, one each on the 8 and the 6.
    assert sim.phase is Phase.TAKING_BACK and sim.scene.alert is Alert.WRONG
    assert sim.scene.extra == ((5, 2),) and set(sim.scene.missing) == {(8, 1), (6, 1)}
    assert sim.match.turn == WHITE and sim.match.dice == (3, 1)
    assert sim.scene.dice == (3, 1)
    assert status(sim.table, sim.scene) == (
        "White's 8/5 6/5 is taken back: put the checkers back (take away what blinks red, "
        "add where blue winks), then play 3-1 again."
    )
    sim.lift(5, WHITE)
    sim.place(8, WHITE)
    assert sim.phase is Phase.TAKING_BACK  # one back, one to go
    sim.lift(5, WHITE)
    sim.place(6, WHITE)
    assert sim.phase is Phase.MOVING and sim.position == Position.initial()
    for src, dst in ((24, 21), (21, 20)):  # any legal play: another one here
        sim.lift(src, WHITE)
        sim.place(dst, WHITE)
    sim.roll(WHITE)
    records = sim.driver.log
    again = parse_play(Position.initial(), (3, 1), "24/21/20").moves
    assert records[-3:] == [
        Played(WHITE, OPENING_PLAY),
        TakenBack(WHITE, OPENING_PLAY),
        Played.of(WHITE, again),
    ]
    assert sim.phase is Phase.BEFORE_ROLL and sim.match.turn == BLACK
    replayed = Table.replay(CONFIG, records)
    assert (replayed.position, replayed.match) == (sim.position, sim.match)
    # The .mat holds only the play made after the takeback; the log keeps both.
    assert "31: 24/21 21/20" in export_mat(records) and "8/5" not in export_mat(records)
    log = [entry.text for entry in log_entries(records)]
    taken = ["White 31: 8/5 6/5", "White's 8/5 6/5 taken back, as agreed", "White 31: 24/20"]
    assert log[-3:] == taken


def test_a_refused_takeback_leaves_the_play_and_is_not_asked_again() -> None:
    sim = white_opened()
    sim.press(WHITE, ROLL, hold=LONG)
    sim.cube(BLACK)
    assert sim.phase is Phase.BEFORE_ROLL
    assert sim.driver.log[-2:] == [Played(WHITE, OPENING_PLAY), REFUSED]
    assert not may_take_back(sim.table, WHITE)
    sim.press(WHITE, ROLL, hold=LONG)
    assert sim.phase is Phase.BEFORE_ROLL
    sim.roll(BLACK)
    assert sim.driver.log[-1] == Rolled(BLACK, (6, 5))


REFUSED = TakebackRefused(WHITE, OPENING_PLAY)


def test_a_refusal_is_journaled_so_a_power_cut_does_not_give_the_play_back() -> None:
    """The refusal changes what the table allows (the play stands for good), so it is a
    record: a journal resumed after it holds the play, and the asker cannot ask again."""
    sim = white_opened()
    sim.press(WHITE, ROLL, hold=LONG)
    sim.cube(BLACK)
    resumed = settled(Table.replay(CONFIG, sim.driver.log), sim.table.observation or ())
    assert resumed.phase is Phase.BEFORE_ROLL and resumed.match == sim.match
    assert not may_take_back(resumed, WHITE)
    assert press(resumed, WHITE, ROLL, HELD).table.phase is Phase.BEFORE_ROLL
    assert press(resumed, BLACK, ROLL, SHORT).dice is not None  # Black rolls, as before the cut
    # The director reads the dispute in the log; the .mat has the play that stood, as if the
    # takeback had never been asked (gnubg imports it: tests/engine/test_demo_takebacks.py).
    log = [entry.text for entry in log_entries(sim.driver.log)]
    refused = "Black refused White's takeback of 8/5 6/5: the play stands"
    assert log[-2:] == ["White 31: 8/5 6/5", refused]
    unasked = [r for r in sim.driver.log if not isinstance(r, TakebackRefused)]
    assert export_mat(sim.driver.log) == export_mat(unasked)


def test_a_refusal_reads_back_from_its_json_as_the_journal_keeps_it() -> None:
    text = to_json(REFUSED)
    assert text == '{"kind":"refused","player":0,"moves":[[8,5,3,false],[6,5,1,false]]}'
    back = from_json(text)
    assert back == REFUSED and isinstance(back, TakebackRefused) and back.player is WHITE
    with pytest.raises(ValueError, match="player 2 is not 0"):
        from_json('{"kind":"refused","player":2,"moves":[]}')


def test_the_asker_may_withdraw_the_request_and_ask_again_until_the_roll() -> None:
    """His own CUBE, lit as a withdrawal of his own (he declines nothing): back before the
    roll with nothing journaled (the asking never was), the play still his to ask back; the
    opponent may roll at once."""
    sim = white_opened()
    sim.press(WHITE, ROLL, hold=LONG)
    assert sim.scene.prompt(WHITE, CUBE) == "withdraw" and sim.scene.prompt(WHITE, ROLL) is None
    journaled = list(sim.driver.log)
    sim.cube(WHITE)
    assert sim.phase is Phase.BEFORE_ROLL and sim.driver.log == journaled
    assert may_take_back(sim.table, WHITE) and sim.match.turn == BLACK
    assert status(sim.table, sim.scene) == (
        "Black rolls (ROLL) or doubles (CUBE). Hold CUBE to resign; the player who just played "
        "may hold ROLL to ask for a takeback."
    )
    assert sim.scene.prompt(BLACK, ROLL) == "roll" and sim.scene.prompt(WHITE, CUBE) is None
    sim.press(WHITE, ROLL, hold=LONG)  # asked again, and this time agreed
    sim.roll(BLACK)
    assert sim.driver.log[-1] == TakenBack(WHITE, OPENING_PLAY)
    withdrawn = white_opened()
    withdrawn.press(WHITE, ROLL, hold=LONG)
    withdrawn.cube(WHITE)
    withdrawn.roll(BLACK)  # the opponent rolls: the play stands
    assert withdrawn.driver.log[-2:] == [Played(WHITE, OPENING_PLAY), Rolled(BLACK, (6, 5))]
    assert withdrawn.phase is Phase.MOVING


def test_the_computer_agrees_at_once_to_a_persons_takeback() -> None:
    table = replay(*opened(MatchStarted(5, seats=(Seat.PERSON, Seat.ENGINE))))
    step = press(table, WHITE, ROLL, HELD)
    assert step.records == (TakenBack(WHITE, OPENING_PLAY),)
    assert step.table.phase is Phase.TAKING_BACK and step.table.match.turn == WHITE
    # The computer's answer to the turn it was asked about comes too late: refused.
    late = step.table.handle(Decided(BLACK, Intent.ROLL, 31.0))
    assert late.records == () and late.dice is None and late.refused is not None


def test_the_computers_play_is_never_taken_back() -> None:
    table = replay(*opened(MatchStarted(5, seats=(Seat.ENGINE, Seat.PERSON))))
    assert table.phase is Phase.BEFORE_ROLL and not may_take_back(table, WHITE)
    held = press(table, WHITE, ROLL, HELD)  # the computer's buttons do nothing
    assert held.records == () and held.table.phase is Phase.BEFORE_ROLL
    asked = table.handle(Decided(WHITE, Intent.ASK_TAKEBACK, 30.0))  # nor may it ask
    assert asked.records == () and asked.refused is not None
    # Nor can the person on roll take it back: his held ROLL rolls, as ever.
    assert press(table, BLACK, ROLL, HELD).dice is not None


@pytest.mark.parametrize(
    ("start", "why"),
    [
        (MatchStarted(5, clock=ClockRules(ClockMode.USBGF)), "on the clock"),
        (MatchStarted(5, seats=(Seat.PERSON, Seat.REMOTE)), "against a remote board"),
    ],
)
def test_no_takeback_on_the_clock_or_against_a_remote_board(start: MatchStarted, why: str) -> None:
    table = replay(*opened(start))
    assert table.phase is Phase.BEFORE_ROLL and table.board_ok()
    assert not may_take_back(table, WHITE), why
    step = press(table, WHITE, ROLL, HELD)
    assert step.records == () and step.table.phase is Phase.BEFORE_ROLL
    assert "takeback" not in status(step.table, scene_of(step.table))


def test_no_takeback_once_the_opponent_has_rolled_or_doubled() -> None:
    rolled = replay(*opened(MatchStarted(5)), Rolled(BLACK, (6, 5)))
    doubled = replay(*opened(MatchStarted(5)), CubeAction(BLACK, Cube.DOUBLE))
    for table in (rolled, doubled):
        assert not may_take_back(table, WHITE)
        step = press(table, WHITE, ROLL, HELD)  # a roll or a double answered the question
        assert not any(isinstance(record, TakenBack) for record in step.records)
    assert press(rolled, WHITE, ROLL, HELD).table.phase is Phase.MOVING
    # Doubled, White's held ROLL is its answer to the double (a take), as it always was.
    assert press(doubled, WHITE, ROLL, HELD).records == (CubeAction(WHITE, Cube.TAKE),)


def test_a_held_roll_begun_before_a_double_means_nothing_once_doubled() -> None:
    """White starts holding ROLL to ask; Black doubles meanwhile: White's release takes
    nothing (in the doubled phase a held ROLL would have been a take)."""
    table = replay(*opened(MatchStarted(5)))
    down = table.handle(Press(WHITE, ROLL, True, 20.0)).table
    doubling = down.handle(Press(BLACK, CUBE, True, 20.2)).table
    doubled = doubling.handle(Press(BLACK, CUBE, False, 20.3))
    assert doubled.records == (CubeAction(BLACK, Cube.DOUBLE),)
    up = doubled.table.handle(Press(WHITE, ROLL, False, 21.5))
    assert up.records == () and up.table.phase is Phase.DOUBLED


def test_no_takeback_of_a_roll_with_no_move_or_while_the_board_is_wrong() -> None:
    closed = Position.from_points({25: 1, 13: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 5})
    table = replay(*opened(MatchStarted(5)))
    wrong = settled(table, observe(Position.initial(), WHITE, CONFIG.caps))
    assert may_take_back(table, WHITE) and not may_take_back(wrong, WHITE)
    passed = Table.replay(CONFIG, [*opened(MatchStarted(5))])
    match = replace(passed.match, state=GameState.PLAYING, turn=WHITE, dice=None)
    blocked = replace(passed, at=BeforeRoll(), position=closed, match=match)
    blocked = settled(blocked.apply(Rolled(WHITE, (6, 5))), observe(closed, WHITE, CONFIG.caps))
    blocked = blocked.apply(Played(WHITE, ()))
    assert blocked.phase is Phase.BEFORE_ROLL and not may_take_back(blocked, WHITE)


@pytest.mark.parametrize(
    ("records", "why"),
    [
        ([*opened(MatchStarted(5)), Rolled(BLACK, (6, 5)), TakenBack(WHITE, OPENING_PLAY)],
         "came in phase moving"),
        ([*opened(MatchStarted(5)), TakenBack(WHITE, ((8, 5, 3, False),))], "the play just made"),
        ([*opened(MatchStarted(5)), TakenBack(BLACK, OPENING_PLAY)], "the play just made"),
        ([*opened(MatchStarted(5, clock=ClockRules(ClockMode.USBGF))),
          TakenBack(WHITE, OPENING_PLAY)], "on the clock"),
        ([*opened(MatchStarted(5)), Rolled(BLACK, (6, 5)), REFUSED], "came in phase moving"),
        ([*opened(MatchStarted(5)), TakebackRefused(BLACK, OPENING_PLAY)], "the play just made"),
        ([*opened(MatchStarted(5)), REFUSED, TakenBack(WHITE, OPENING_PLAY)], "no play to take"),
        ([*opened(MatchStarted(5, clock=ClockRules(ClockMode.USBGF))), REFUSED], "on the clock"),
    ],
)  # fmt: skip
def test_a_takeback_out_of_place_does_not_replay(records: list[Record], why: str) -> None:
    with pytest.raises(RecordMismatchError, match=why):
        Table.replay(CONFIG, records)


def test_a_power_cut_between_asking_and_agreeing_resumes_before_the_roll() -> None:
    """The asking is not journaled: the journal resumes with the play standing, the
    opponent not yet rolled, and the player asks again."""
    sim = white_opened()
    sim.press(WHITE, ROLL, hold=LONG)
    assert sim.phase is Phase.TAKEBACK_ASKED
    resumed = settled(Table.replay(CONFIG, sim.driver.log), sim.table.observation or ())
    assert resumed.phase is Phase.BEFORE_ROLL and may_take_back(resumed, WHITE)
    asked = press(resumed, WHITE, ROLL, HELD).table
    assert press(asked, BLACK, ROLL, SHORT).records == (TakenBack(WHITE, OPENING_PLAY),)


def test_a_power_cut_while_the_checkers_go_back_resumes_where_the_hands_are() -> None:
    sim = white_opened()
    sim.press(WHITE, ROLL, hold=LONG)
    sim.roll(BLACK)
    sim.lift(5, WHITE)
    sim.place(8, WHITE)  # one back, then the power went
    replayed = Table.replay(CONFIG, sim.driver.log)
    assert isinstance(replayed.at, TakingBack)
    resumed = settled(replayed, sim.table.observation or ())
    assert resumed.phase is Phase.TAKING_BACK  # the sensors give back where the hands are
    back = settled(resumed, observe(Position.initial(), WHITE, CONFIG.caps))
    assert back.phase is Phase.MOVING and back.match.dice == (3, 1)


def test_the_computer_waits_a_moment_for_a_takeback_then_rolls() -> None:
    """After a person's play the computer is asked to roll or double only once the table has
    waited TAKEBACK_WAIT (it would answer in milliseconds, a held ROLL takes 0.8 s); then
    the play stands. A shell configured with no wait asks it at once."""
    against = MatchStarted(5, seats=(Seat.PERSON, Seat.ENGINE))
    table = replay(*opened(against))
    assert waiting(table) is None
    assert status(table, scene_of(table)) == (
        "Black (engine) rolls, doubles or resigns. The player who just played may hold ROLL to "
        "ask for a takeback."
    )
    at = table.at  # the wait started as the board was read, at 10.0 (the replay's tick)
    assert isinstance(at, BeforeRoll) and at.since == 10.0 and may_take_back(table, WHITE)
    almost = table.handle(Tick(10.0 + TAKEBACK_WAIT - 0.1))
    assert almost.request is None
    over = almost.table.handle(Tick(10.0 + TAKEBACK_WAIT))
    assert over.request == DecisionRequest(BLACK, Ask.TURN) and over.records == ()
    assert not may_take_back(over.table, WHITE)  # the play stands: the computer is asked
    assert press(over.table, WHITE, ROLL, HELD).records == ()
    eager = replace(CONFIG, takeback_wait=0.0)
    assert waiting(replay(*opened(against), config=eager)) == DecisionRequest(BLACK, Ask.TURN)
