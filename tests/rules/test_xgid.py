"""The XGID beside gnubg's Position and Match IDs: every table of a seeded demo match, its
XGID read back by a decoder written here from XG's published format (not the encoder's
code), must say what gnubg's two IDs say."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from bgpi.base.geometry import Geometry
from bgpi.journal.records import MatchStarted
from bgpi.rules import Match, MatchRules, Position
from bgpi.rules.xgid import xgid
from bgpi.sensing.board import capacities
from bgpi.sim.demo import play_match
from bgpi.table import Table, TableConfig


@dataclass(frozen=True)
class Read:
    """What an XGID says, in gnubg's terms: checkers per point for each player in their own
    numbering (index 0 unused, 25 the bar), the cube, who owns it, who rolled, the dice."""

    white: tuple[int, ...]
    black: tuple[int, ...]
    cube: int
    owner: int | None
    turn: int
    dice: tuple[int, int] | None
    doubled: bool
    score: tuple[int, int]
    flags: int
    length: int
    cube_limit: int


def read_xgid(text: str) -> Read:
    """XG's format: 26 characters of board from the bottom player's side (top bar, points
    1-24, bottom bar; A-P bottom's checkers, a-p top's), then cube power, owner (1 bottom,
    -1 top), turn (who must act), dice (00, D, or two digits), both scores, Crawford or
    Jacoby/beaver flags, length and the cube limit's power."""
    assert text.startswith("XGID=")
    fields = text[5:].split(":")
    assert len(fields) == 10, text
    board = fields[0]
    assert len(board) == 26
    white = [0] * 26
    black = [0] * 26
    for index, char in enumerate(board):
        if char == "-":
            continue
        count = ord(char.lower()) - ord("a") + 1
        if char.isupper():
            white[index] = count  # bottom player: White, in White's numbering; 25 the bar
        else:
            black[25 - index] = count  # top: index 0 is their bar, point i is their 25 - i
    dice_text = fields[4]
    doubled = dice_text == "D"
    turn = 0 if fields[3] == "1" else 1
    if doubled:
        turn = 1 - turn  # the XGID names the player who must answer; gnubg, who rolled
    owner = {"0": None, "1": 0, "-1": 1}[fields[2]]
    return Read(
        tuple(white),
        tuple(black),
        2 ** int(fields[1]),
        owner,
        turn,
        None if dice_text in ("00", "D") else (int(dice_text[0]), int(dice_text[1])),
        doubled,
        (int(fields[5]), int(fields[6])),
        int(fields[7]),
        int(fields[8]),
        2 ** int(fields[9]),
    )


def gnubg_says(position_id: str, match_id: str, rules: MatchRules) -> Read:
    """The same facts from gnubg's IDs: the position as the player on roll sees it."""
    match = Match.from_id(match_id, rules)
    turn = match.turn or 0
    position = Position.from_id(position_id)
    mover, other = position.player, position.opponent
    white, black = (mover, other) if turn == 0 else (other, mover)
    dice = tuple(sorted(match.dice, reverse=True)) if match.dice else None
    flags = int(match.crawford_game) if rules.length else rules.jacoby + 2 * rules.beaver
    return Read(
        tuple(0 if i == 0 else white[i] for i in range(26)),
        tuple(0 if i == 0 else black[i] for i in range(26)),
        match.cube,
        match.cube_owner,
        turn,
        (dice[0], dice[1]) if dice else None,
        match.double_offered,
        match.score,
        flags,
        rules.length,
        rules.cube_limit,
    )


@pytest.mark.parametrize(
    "start",
    [MatchStarted(5, names=("Ann", "Bo")), MatchStarted(0, jacoby=True, beaver=True)],
    ids=["match", "money"],
)
def test_every_xgid_of_a_seeded_demo_says_what_gnubgs_ids_say(start: MatchStarted) -> None:
    sim = play_match(start, seed=28, say=lambda _: None, games=None if start.length else 3)
    records = sim.driver.log
    table = Table.start(TableConfig(capacities(Geometry.default())), records[0])
    doubled = 0
    for record in records[1:]:
        table = table.apply(record)
        view = table.mover_view if table.match.turn is not None else table.position
        said = read_xgid(xgid(table.position, table.match))
        assert said == gnubg_says(view.id(), table.match.id(), table.match.rules), record
        doubled += said.doubled
    assert len(records) > 100 and doubled  # the cube's states were among them


def test_the_opening_position_reads_as_xg_writes_it() -> None:
    match = Match.new(MatchRules(7))
    assert xgid(Position.initial(), match) == "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:7:6"
