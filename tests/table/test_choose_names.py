"""Choosing the players at the board from the config's roster, between matches: two options
after the match's own, each side's colour name (nobody in particular) and then the roster's
names, one person never both sides; the names chosen go with the match into the journal."""

from __future__ import annotations

from dataclasses import replace

from bgpi.base.words import BLACK, ROLL, WHITE
from bgpi.journal.records import MatchStarted, Seat
from bgpi.present.status import status
from bgpi.sim.simtable import Fresh, SimOptions, SimTable
from bgpi.table import MatchOver, Phase
from bgpi.table.options import Option, next_name, starting_names

HOLD = 1.0
ROSTER = ("Anna", "Ben", "Cleo")


def choosing(start: MatchStarted, roster: tuple[str, ...] = ROSTER) -> SimTable:
    """A table at the end of ``start``'s match (put there), choosing the next one."""
    sim = SimTable(start, options=SimOptions(roster=roster))
    sim.driver.table = replace(sim.table, at=MatchOver())
    sim.roll(BLACK)  # a person plays Black in every match here
    assert sim.phase is Phase.CHOOSING
    return sim


def shown(sim: SimTable) -> str:
    line = status(sim.table, sim.scene)
    return line.removeprefix("The next match: ").split(". CUBE changes it")[0]


def options_shown(sim: SimTable) -> list[Option]:
    """Every option ROLL steps through, from the one shown round to it again."""
    first = sim.table.at.option  # type: ignore[union-attr]
    seen = [first]
    sim.roll(BLACK)
    while sim.table.at.option is not first:  # type: ignore[union-attr]
        seen.append(sim.table.at.option)  # type: ignore[union-attr]
        sim.roll(BLACK)
    return seen


def step_to(sim: SimTable, option: Option) -> None:
    for _ in Option:
        if sim.table.at.option is option:  # type: ignore[union-attr]
            return
        sim.roll(BLACK)
    raise AssertionError(f"{option} never shown")


def test_the_players_are_chosen_from_the_roster_and_journaled_with_the_match() -> None:
    sim = choosing(MatchStarted(5))
    assert options_shown(sim)[-2:] == [Option.WHITE_PLAYER, Option.BLACK_PLAYER]
    step_to(sim, Option.WHITE_PLAYER)
    assert shown(sim) == "White's player White"  # nobody in particular
    assert sim.scene.score == (0, 6)  # the roster's place on White's pixels, option 6
    sim.cube(WHITE)
    assert (shown(sim), sim.scene.score) == ("White's player Anna", (1, 6))
    sim.roll(WHITE)
    assert shown(sim) == "Black's player Black"
    seen = []
    for _ in range(4):
        sim.cube(BLACK)
        seen.append((sim.scene.score, shown(sim)))
    # Anna plays White: Black's steps past her.
    assert seen == [
        ((2, 7), "Black's player Ben"),
        ((3, 7), "Black's player Cleo"),
        ((0, 7), "Black's player Black"),
        ((2, 7), "Black's player Ben"),
    ]
    sim.press(BLACK, ROLL, hold=HOLD)
    assert sim.driver.log[0] == MatchStarted(5, names=("Anna", "Ben"))
    assert sim.table.names == ("Anna", "Ben")
    # The next choosing starts from the same players; White's steps past Ben to Cleo.
    sim.driver.table = replace(sim.table, at=MatchOver())
    sim.roll(WHITE)
    step_to(sim, Option.WHITE_PLAYER)
    sim.cube(WHITE)
    assert shown(sim) == "White's player Cleo"
    sim.press(WHITE, ROLL, hold=HOLD)
    assert sim.driver.log[0] == MatchStarted(5, names=("Cleo", "Ben"))


def test_money_play_offers_the_players_too_and_a_fresh_board_starts_from_the_defaults() -> None:
    defaults = MatchStarted(0, names=("Ben", "Black"))
    sim = SimTable(Fresh(defaults), options=SimOptions(roster=ROSTER))
    assert options_shown(sim) == [
        Option.LENGTH,
        Option.JACOBY,
        Option.BEAVER,
        Option.AUTOMATIC,
        Option.LIMIT,
        Option.DICE,
        Option.WHITE_PLAYER,
        Option.BLACK_PLAYER,
    ]
    step_to(sim, Option.BLACK_PLAYER)
    sim.cube(WHITE)
    assert shown(sim) == "Black's player Anna"
    sim.press(WHITE, ROLL, hold=HOLD)
    assert sim.driver.log[0] == MatchStarted(0, names=("Ben", "Anna"))


def test_without_a_roster_the_options_and_the_names_are_as_they_were() -> None:
    sim = choosing(MatchStarted(5, names=("Ann Lee", "Bo")), roster=())
    assert Option.WHITE_PLAYER not in options_shown(sim)
    sim.press(WHITE, ROLL, hold=HOLD)
    assert sim.driver.log[0] == MatchStarted(5, names=("Ann Lee", "Bo"))


def test_a_name_the_roster_no_longer_holds_starts_as_nobody_in_particular() -> None:
    assert starting_names(ROSTER, ("Dora", "Ben"), (WHITE, BLACK)) == ("White", "Ben")
    assert starting_names(ROSTER, ("Dora", "Eve"), (BLACK,)) == ("Dora", "Black")
    assert starting_names((), ("Dora", "Ben"), ()) == ("Dora", "Ben")
    # A name not among the choices steps to the first; a roster of one steps back and forth.
    assert next_name(ROSTER, ("Dora", "Ben"), WHITE) == ("Anna", "Ben")
    assert next_name(("Anna",), ("Anna", "Black"), BLACK) == ("Anna", "Black")
    assert next_name(("Anna",), ("White", "Black"), BLACK) == ("White", "Anna")


def test_only_a_side_a_person_plays_here_is_chosen_from_the_roster() -> None:
    # The engine's name is its own (as a remote board names its own player).
    seats = (Seat.ENGINE, Seat.PERSON)
    sim = choosing(MatchStarted(5, names=("gnubg", "Black"), seats=seats))
    assert options_shown(sim)[-1:] == [Option.BLACK_PLAYER]
    assert Option.WHITE_PLAYER not in options_shown(sim)
    step_to(sim, Option.BLACK_PLAYER)
    assert sim.scene.score == (0, 6)  # the player is option 6 here
    sim.cube(BLACK)
    sim.press(BLACK, ROLL, hold=HOLD)
    assert sim.driver.log[0] == MatchStarted(5, names=("gnubg", "Anna"), seats=seats)
