"""What the table sounds like: the records and alerts heard as cues, and the shell's driver
telling them as the table's steps make them."""

from __future__ import annotations

import random

import pytest

from bgpi.cues import Cue, Note, alert_cue, cues_of
from bgpi.demo import PipPlayer, act
from bgpi.driver import HEARD
from bgpi.records import (
    CubeAction,
    GameEnded,
    IllegalAccepted,
    MatchStarted,
    OpeningDie,
    OpeningRolled,
    Played,
    Rolled,
    Seat,
)
from bgpi.simtable import SimOptions, SimTable
from bgpi.table import Phase
from bgpi.words import BLACK, WHITE

PEOPLE = (Seat.PERSON, Seat.PERSON)
QUIET = Played(WHITE, ((8, 5, 3, False), (6, 5, 1, False)))
HITTING = Played(BLACK, ((13, 7, 6, False), (7, 5, 2, True)))


def test_the_dice_are_heard_once_a_step() -> None:
    assert cues_of([Rolled(WHITE, (6, 4))], PEOPLE) == (Cue.DICE,)
    opening = [OpeningDie(BLACK, 5), OpeningDie(WHITE, 3), OpeningRolled(3, 5)]
    assert cues_of(opening, PEOPLE) == (Cue.DICE,)


def test_a_play_passes_the_turn_and_a_hit_is_heard_first() -> None:
    assert cues_of([QUIET], PEOPLE) == (Cue.TURN,)
    assert cues_of([HITTING], PEOPLE) == (Cue.HIT, Cue.TURN)
    assert cues_of([IllegalAccepted(WHITE, "4HPwATDgc/ABMA")], PEOPLE) == (Cue.TURN,)


def test_your_turn_is_only_for_a_person_at_this_board() -> None:
    engine_black = (Seat.PERSON, Seat.ENGINE)
    assert cues_of([QUIET], engine_black) == ()  # the engine needs no reminder
    assert cues_of([HITTING], engine_black) == (Cue.HIT, Cue.TURN)  # White, here, is next
    assert cues_of([QUIET], (Seat.PERSON, Seat.REMOTE)) == ()


def test_a_winning_play_hands_no_turn_over() -> None:
    assert cues_of([HITTING, GameEnded(BLACK, 1, 1)], PEOPLE) == (Cue.HIT,)
    assert cues_of([CubeAction(WHITE, "double"), CubeAction(BLACK, "take")], PEOPLE) == ()


def test_a_board_turning_wrong_mid_play_is_a_refused_move() -> None:
    assert alert_cue(None, "wrong", moving=True) is Cue.REFUSED
    assert alert_cue("wrong", "wrong", moving=True) is None  # once, when it turns wrong
    assert alert_cue(None, "wrong", moving=False) is None  # setting up is wrong by nature
    assert alert_cue("wrong", None, moving=True) is None
    assert alert_cue(None, "no move", moving=True) is None


def test_notes_keep_to_what_a_buzzer_plays() -> None:
    with pytest.raises(ValueError, match="outside"):
        Note(100, 0.1)
    with pytest.raises(ValueError, match="between 0 and 1 s"):
        Note(880, 0)
    assert Note(0, 0.1).hz == 0  # a rest


def test_the_driver_tells_the_cues_of_a_match_as_they_happen() -> None:
    sim = SimTable(MatchStarted(1), options=SimOptions(seed=3))
    told: list[Cue] = []
    sim.driver.hear = told.append
    players = (PipPlayer(), PipPlayer())
    hits = turns = rolls = 0
    for step in range(3000):
        if sim.phase in (Phase.GAME_OVER, Phase.MATCH_OVER):
            break
        records = len(sim.driver.log)
        act(sim, players, random.Random(step))
        new = sim.driver.log[records:]
        rolls += sum(isinstance(r, Rolled | OpeningDie) for r in new)
        hits += sum(isinstance(r, Played) and any(m.hit for m in r.move_values()) for r in new)
        turns += sum(isinstance(r, Played) for r in new)
    assert hits and turns and rolls
    assert told.count(Cue.HIT) == hits
    assert told.count(Cue.TURN) == turns - 1  # the winning play hands over nothing
    assert rolls - 1 <= told.count(Cue.DICE) <= rolls  # the two opening dice: one rattle
    numbers = [number for number, _ in sim.driver.heard]
    assert len(numbers) == HEARD and numbers == list(range(len(told) - HEARD + 1, len(told) + 1))
    assert [cue for _, cue in sim.driver.heard] == told[-HEARD:]


def test_a_wrong_placement_mid_play_is_heard_as_refused() -> None:
    sim = SimTable(MatchStarted(1), options=SimOptions(seed=23))  # White opens 3-1
    told: list[Cue] = []
    sim.driver.hear = told.append
    sim.setup()
    sim.roll(WHITE)
    sim.roll(BLACK)
    assert sim.phase is Phase.MOVING and told == [Cue.DICE, Cue.DICE]  # a die each
    sim.board.lift(13, WHITE)
    sim.board.place(12, WHITE)  # Black holds 12: no legal move lands there
    sim.advance(1.0)
    assert told == [Cue.DICE, Cue.DICE, Cue.REFUSED]
