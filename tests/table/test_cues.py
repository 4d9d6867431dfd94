"""What the table sounds like: the records and alerts heard as cues, and the shell's driver
telling them as the table's steps make them."""

from __future__ import annotations

import random

import pytest

from bgpi.base.words import BLACK, WHITE, bar_zone
from bgpi.journal.records import (
    CubeAction,
    GameEnded,
    IllegalAccepted,
    MatchStarted,
    OpeningDie,
    OpeningRolled,
    Played,
    Rethrown,
    Rolled,
    Seat,
    Unfit,
)
from bgpi.present.cues import Cue, Note, cues_of
from bgpi.rules import legal_plays
from bgpi.sensing.board import zone_of
from bgpi.service.driver import HEARD
from bgpi.sim.demo import PipPlayer, act
from bgpi.sim.simtable import SimOptions, SimTable
from bgpi.table import Phase

PEOPLE = (Seat.PERSON, Seat.PERSON)
QUIET = Played(WHITE, ((8, 5, 3, False), (6, 5, 1, False)))
HITTING = Played(BLACK, ((13, 7, 6, False), (7, 5, 2, True)))


def test_the_dice_are_heard_once_a_step() -> None:
    assert cues_of([Rolled(WHITE, (6, 4))], PEOPLE) == (Cue.DICE,)
    opening = [OpeningDie(BLACK, 5), OpeningDie(WHITE, 3), OpeningRolled(3, 5)]
    assert cues_of(opening, PEOPLE) == (Cue.DICE,)


def test_a_throw_to_make_again_is_heard_as_a_refusal() -> None:
    """A GoDice die cocked or moved: the thrower's eyes are on the dice, not on the LEDs."""
    assert cues_of([Rethrown(BLACK, 2, Unfit.COCKED, 3)], PEOPLE) == (Cue.REFUSED,)
    assert cues_of([Rethrown(WHITE, 1, Unfit.MOVED, 5)], PEOPLE) == (Cue.REFUSED,)


def test_a_play_passes_the_turn() -> None:
    assert cues_of([QUIET], PEOPLE) == (Cue.TURN,)
    assert cues_of([HITTING], PEOPLE) == (Cue.TURN,)  # its hit was heard as it was made
    assert cues_of([IllegalAccepted(WHITE, "4HPwATDgc/ABMA")], PEOPLE) == (Cue.TURN,)


def test_your_turn_is_only_for_a_person_at_this_board() -> None:
    engine_black = (Seat.PERSON, Seat.ENGINE)
    assert cues_of([QUIET], engine_black) == ()  # the engine needs no reminder
    assert cues_of([HITTING], engine_black) == (Cue.TURN,)  # White, here, is next
    assert cues_of([QUIET], (Seat.PERSON, Seat.REMOTE)) == ()


def test_a_winning_play_hands_no_turn_over() -> None:
    assert cues_of([HITTING, GameEnded(BLACK, 1, 1)], PEOPLE) == ()
    assert cues_of([CubeAction(WHITE, "double"), CubeAction(BLACK, "take")], PEOPLE) == ()


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
    hits = hitting = turns = rolls = 0
    for step in range(3000):
        if sim.phase in (Phase.GAME_OVER, Phase.MATCH_OVER):
            break
        records = len(sim.driver.log)
        act(sim, players, random.Random(step))
        new = sim.driver.log[records:]
        rolls += sum(isinstance(r, Rolled | OpeningDie) for r in new)
        plays = [r for r in new if isinstance(r, Played)]
        hits += sum(m.hit for r in plays for m in r.move_values())
        hitting += sum(any(m.hit for m in r.move_values()) for r in plays)
        turns += sum(isinstance(r, Played) for r in new)
    assert hits and turns and rolls
    # Heard as the hit checker reaches the bar: once a hit, or once for two made at once.
    assert hitting <= told.count(Cue.HIT) <= hits
    for index, cue in enumerate(told):  # a hit is heard before the turn passes
        if cue is Cue.HIT:
            assert Cue.TURN in told[index + 1 :] or index == len(told) - 1
    # The winning play hands over nothing; a game resigned or dropped ends after a handover.
    last = [r for r in sim.driver.log if not isinstance(r, GameEnded)][-1]
    assert told.count(Cue.TURN) == turns - isinstance(last, Played)
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
    sim.advance(1.0)  # said once, not again while the board stays so
    assert told == [Cue.DICE, Cue.DICE, Cue.REFUSED]
    sim.board.lift(12, WHITE)
    sim.board.place(13, WHITE)  # put back: nothing to hear
    sim.advance(1.0)
    sim.roll(WHITE)  # ROLL with nothing played: refused, and heard so
    assert told == [Cue.DICE, Cue.DICE, Cue.REFUSED, Cue.REFUSED]
    assert sim.phase is Phase.MOVING


def test_a_hit_is_heard_when_the_hit_checker_reaches_the_bar() -> None:
    sim = SimTable(MatchStarted(1), options=SimOptions(seed=3))  # Black opens 5-2: 13/8 13/11
    told: list[Cue] = []
    sim.driver.hear = told.append
    players = (PipPlayer(), PipPlayer())
    for step in range(400):  # the demo's hands, up to a turn whose play may hit
        if sim.phase is Phase.MOVING and any(
            m.hit
            for play in legal_plays(sim.table.mover_view, sim.match.dice or ())
            for m in play.moves[:1]
        ):
            break
        act(sim, players, random.Random(step))
    mover = sim.match.turn
    assert sim.phase is Phase.MOVING and mover is not None
    (play,) = [
        p for p in legal_plays(sim.table.mover_view, sim.match.dice or ()) if p.moves[0].hit
    ][:1]
    move = play.moves[0]
    before = len(told)
    other = mover.other
    src, dst = zone_of(mover, move.src), zone_of(mover, move.dst)
    sim.board.lift(src, mover)
    sim.board.place(dst, mover)  # two checkers on the point: the hit is not made yet
    sim.advance(1.0)
    assert told[before:] == []  # nor is it a mistake to be buzzed at: the blot is on its way
    sim.board.lift(dst, other)
    sim.board.place(bar_zone(other), other)
    sim.advance(1.0)
    assert told[before:] == [Cue.HIT]
