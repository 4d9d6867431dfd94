"""Match IDs both ways with GNU Backgammon 1.1 (the gnubg package, in-process): every state
of random matches and money sessions written by gnubg's own encoder from the state's fields
exactly as we write it, and read back by us as the same match; and the IDs gnubg writes for
its new matches and sessions read with their Jacoby rule."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from bgpi.base.geometry import Geometry
from bgpi.journal.records import MatchStarted, Record
from bgpi.rules import Match, MatchRules
from bgpi.sensing.board import capacities
from bgpi.table import Table, TableConfig
from tests.shell.matches import play_match

gnubg = pytest.importorskip("gnubg", reason="the gnubg package (dev extra) is not installed")

CONFIG = TableConfig(capacities(Geometry.default()))
STARTS = [
    MatchStarted(5),
    MatchStarted(3, crawford=False),
    MatchStarted(0, jacoby=True, beaver=True, cube_limit=16),
    MatchStarted(0),
]


@pytest.fixture(scope="module", autouse=True)
def gnubg_quiet() -> None:
    for command in ("set player 0 human", "set player 1 human", "set confirm new off"):
        gnubg.command(command)


def states(records: list[Record]) -> Iterator[Match]:
    """The match after each record, as the table holds it."""
    start = records[0]
    assert isinstance(start, MatchStarted)
    table = Table.start(CONFIG, start)
    yield table.match
    for record in records[1:]:
        table = table.apply(record)
        yield table.match


def matches() -> Iterator[tuple[int, MatchStarted]]:
    for seed in range(3):
        for start in STARTS:
            yield seed, start


def gnubg_id(match: Match) -> str:
    """The Match ID gnubg's own encoder writes for ``match``'s fields. gnubg's cube info
    refuses a score that ends the match and keeps neither a money score nor the Jacoby rule
    as given, so those are set in the dictionary it returns, which its encoder reads."""
    owner = -1 if match.cube_owner is None else match.cube_owner
    cube = gnubg.cubeinfo(
        match.cube, owner, match.turn or 0, match.rules.length, (0, 0),
        int(match.crawford_game), 0,
    )  # fmt: skip
    cube["score"], cube["jacoby"] = match.score, int(match.rules.jacoby)
    position = gnubg.posinfo(
        match.decider(), int(match.resignation or 0), int(match.double_offered),
        int(match.state), match.dice or (0, 0),
    )  # fmt: skip
    text: str = gnubg.matchid(cube, position)
    return text


@pytest.mark.parametrize(("seed", "start"), list(matches()))
def test_every_state_of_a_random_match_both_ways(seed: int, start: MatchStarted) -> None:
    records = play_match(seed, start, games=3, double_rate=0.1)
    seen = set()
    for match in states(records):
        ours = match.id()
        if ours in seen:
            continue
        seen.add(ours)
        theirs = gnubg_id(match)
        assert ours == theirs, match
        dice = tuple(sorted(match.dice, reverse=True)) if match.dice else None
        assert Match.from_id(theirs, match.rules) == replace(match, dice=dice)
        assert Match.from_id(theirs).rules.jacoby == match.rules.jacoby


@pytest.mark.parametrize("jacoby", [True, False])
def test_gnubg_new_sessions_and_matches_read_with_the_jacoby_rule(jacoby: bool) -> None:
    gnubg.command(f"set jacoby {'on' if jacoby else 'off'}")
    gnubg.command("new session")
    session = Match.from_id(gnubg.matchid())
    assert session.rules.money and session.rules.jacoby is jacoby
    gnubg.command("new match 7")
    match = Match.from_id(gnubg.matchid())
    assert match.rules == MatchRules(7) and match.score == (0, 0)
