"""Choosing the next match at the simulated table, with the two buttons: CUBE changes the
option shown, ROLL goes to the next, ROLL held starts the match; the choice is journaled with
the match, and the defaults are the config's as the shell last read it."""

from __future__ import annotations

from dataclasses import replace

from bgpi.base.words import BLACK, CUBE, ROLL, WHITE
from bgpi.journal.records import GameStarted, MatchStarted, Seat
from bgpi.lights.scene import Meaning
from bgpi.present.status import status
from bgpi.rules import MatchRules
from bgpi.rules.clock import ClockMode, ClockRules
from bgpi.service.driver import MemoryJournal
from bgpi.sim.simtable import Fresh, SimTable
from bgpi.table import Ask, DecisionRequest, Intent, MatchOver, Phase, waiting
from bgpi.table.options import LENGTHS, Option, options_of

HOLD = 1.0


def match_over(start: MatchStarted, next_match: MatchRules | None = None) -> SimTable:
    """A table at the end of ``start``'s match (put there), the next match's defaults
    ``next_match`` (the config's, as the shell built the table's config)."""
    sim = SimTable(start)
    table = sim.table
    config = replace(table.config, next_match=next_match)
    sim.driver.table = replace(table, config=config, at=MatchOver())
    sim.roll(WHITE)
    assert sim.phase is Phase.CHOOSING
    return sim


def step_to(sim: SimTable, option: Option) -> None:
    for _ in range(6):
        if sim.table.at.option is option:  # type: ignore[union-attr]
            return
        sim.roll(BLACK)
    raise AssertionError(f"{option} never shown")


def test_a_money_session_with_jacoby_then_a_seven_point_match() -> None:
    sim = match_over(MatchStarted(5))
    assert status(sim.table, sim.scene) == (
        "The next match: a 5-point match. CUBE changes it, ROLL goes to the next option. "
        "Hold ROLL to start the match."
    )
    # The captions say the same: CUBE changes the option shown, ROLL goes to the next one.
    assert sim.scene.prompt(WHITE, CUBE) == sim.scene.prompt(BLACK, CUBE) == Meaning.CHANGE
    assert sim.scene.prompt(WHITE, ROLL) == sim.scene.prompt(BLACK, ROLL) == Meaning.NEXT
    assert sim.scene.score == (5, 1)  # the length on White's score pixels, option 1 on Black's
    while sim.table.at.draft.length:  # type: ignore[union-attr]
        sim.cube(WHITE)
    step_to(sim, Option.JACOBY)
    sim.cube(BLACK)
    assert status(sim.table, sim.scene).startswith("The next match: Jacoby rule on.")
    sim.press(WHITE, ROLL, hold=HOLD)
    assert sim.driver.log[0] == MatchStarted(0, jacoby=True)
    assert sim.phase is Phase.SETUP and sim.match.rules.jacoby
    # That session over, a 7-point match: the length steps 0, 1, 3, 5, 7.
    sim.driver.table = replace(sim.table, at=MatchOver())
    sim.roll(BLACK)
    for _ in range(LENGTHS.index(7)):
        sim.cube(BLACK)
    sim.press(BLACK, ROLL, hold=HOLD)
    assert sim.driver.log == [MatchStarted(7)]  # the money options go with a match length


def test_a_config_edited_between_matches_is_the_next_matchs_default() -> None:
    sim = match_over(MatchStarted(5), next_match=MatchRules(11, crawford=False))
    assert sim.scene.score == (11, 1)
    sim.press(WHITE, ROLL, hold=HOLD)
    assert sim.driver.log == [MatchStarted(11, crawford=False)]


def test_the_cube_limit_and_automatic_doubles_step_round() -> None:
    sim = match_over(MatchStarted(0))
    step_to(sim, Option.AUTOMATIC)
    sim.cube(WHITE)
    sim.cube(WHITE)
    step_to(sim, Option.LIMIT)
    sim.cube(BLACK)  # 64 comes round to 2
    assert sim.scene.score == (1, 5)
    sim.press(BLACK, ROLL, hold=HOLD)
    assert sim.driver.log == [MatchStarted(0, automatic_doubles=2, cube_limit=2)]
    assert sim.scene.prompt(WHITE, CUBE) is None  # setting up the board now


def test_a_fresh_board_opens_on_choosing_and_journals_nothing_until_it_starts() -> None:
    sim = SimTable(Fresh(MatchStarted(7, crawford=False)))
    assert sim.phase is Phase.CHOOSING and sim.driver.log == []
    assert isinstance(sim.journal, MemoryJournal) and sim.journal.records == []
    assert sim.scene.score == (7, 1)  # the defaults, on the score pixels
    sim.cube(WHITE)  # 7 -> 9
    assert sim.driver.log == []
    sim.press(BLACK, ROLL, hold=HOLD)
    # The board stood set up meanwhile: the game opens at once.
    assert sim.driver.log == [MatchStarted(9, crawford=False), GameStarted()]
    assert sim.phase is Phase.OPENING


def test_with_no_person_at_the_board_the_seats_start_the_match_shown() -> None:
    seats = (Seat.ENGINE, Seat.ENGINE)
    sim = SimTable(Fresh(MatchStarted(3, seats=seats)))
    request = waiting(sim.table)
    assert request == DecisionRequest(WHITE, Ask.START)
    sim.seats = {WHITE: lambda asked, table: Intent.START_MATCH}
    sim.ask(request)
    assert sim.driver.log[0] == MatchStarted(3, seats=seats)
    person_here = SimTable(Fresh(MatchStarted(3, seats=(Seat.PERSON, Seat.ENGINE))))
    assert waiting(person_here.table) is None  # the person chooses


def shown_option(sim: SimTable) -> str:
    """The option the status line shows: "The next match: <this>. CUBE changes it..."."""
    line = status(sim.table, sim.scene)
    return line.removeprefix("The next match: ").split(". CUBE changes it")[0]


def test_the_clock_steps_through_its_settings_and_is_journaled_with_the_match() -> None:
    sim = match_over(MatchStarted(5))
    step_to(sim, Option.CLOCK)
    assert shown_option(sim) == "clock off"
    assert sim.scene.score == (0, 5)  # off on White's score pixels, option 5 on Black's
    shown = []
    for _ in ClockMode:
        sim.cube(WHITE)
        shown.append((sim.scene.score[0], shown_option(sim)))
    assert shown == [
        (1, "clock U.S. rules, a 12-second delay"),
        (2, "clock Bronstein, a 12-second delay"),
        (3, "clock 12 seconds a move"),
        (0, "clock off"),
    ]
    sim.cube(BLACK)
    sim.press(BLACK, ROLL, hold=HOLD)
    assert sim.driver.log[0] == MatchStarted(5, clock=ClockRules(ClockMode.USBGF))
    assert sim.table.clock is not None and sim.table.clock.rules.mode is ClockMode.USBGF


def test_the_configs_delay_and_overtime_go_with_each_setting_and_money_play_has_no_clock() -> None:
    configured = ClockRules(ClockMode.BRONSTEIN, per_move=10, overtime=120)
    sim = match_over(MatchStarted(5))
    sim.driver.table = replace(
        sim.table, config=replace(sim.table.config, next_clock=configured), at=MatchOver()
    )
    sim.roll(WHITE)
    step_to(sim, Option.CLOCK)
    assert shown_option(sim) == "clock Bronstein, a 10-second delay, 120 seconds' overtime"
    sim.cube(WHITE)  # Bronstein -> per move
    sim.press(WHITE, ROLL, hold=HOLD)
    per_move = ClockRules(ClockMode.PER_MOVE, per_move=10, overtime=120)
    assert sim.driver.log[0] == MatchStarted(5, clock=per_move)
    money = match_over(MatchStarted(0))
    assert Option.CLOCK not in options_of(money.table.at.draft)  # type: ignore[union-attr]
