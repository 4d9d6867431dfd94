"""One numbering: the log speaks the board's printed point numbers for both colours, and a
play read in them is the move the board saw; gnubg's numbering stays in the export."""

from __future__ import annotations

import itertools
import re

import pytest

from bgpi.base.geometry import Geometry
from bgpi.base.words import (
    BAR_BLACK,
    BAR_WHITE,
    BLACK,
    ROLL,
    TRAY_BLACK,
    TRAY_WHITE,
    WHITE,
    ZONES,
    Player,
)
from bgpi.engine.hints import advise
from bgpi.journal.export import export_mat
from bgpi.journal.records import MatchStarted, Played
from bgpi.present.numbering import printed_moves, printed_name, printed_point
from bgpi.rules import BAR, OFF, Move, Play, Position, parse_play
from bgpi.rules.notation import format_moves
from bgpi.sensing.board import capacities
from bgpi.service.driver import MemoryJournal
from bgpi.sim.demo import play_match
from bgpi.table import Table, TableConfig
from tests.table.test_buttons import HELD
from tests.table.test_hints import moving as hinted_moving
from tests.table.test_hints import press as hold_roll

SEED = 3  # Black starts, hits and is hit: entering, hitting and ordinary moves of both


def test_black_writes_its_moves_as_the_board_prints_them() -> None:
    moves = (Move(8, 2, 6, False), Move(6, 2, 4, False))
    assert printed_moves(BLACK, moves) == "17/23 19/23"
    assert printed_moves(WHITE, moves) == format_moves(moves) == "8/2 6/2"
    entering = (Move(BAR, 21, 4, True), Move(21, 15, 6, False))
    assert printed_moves(BLACK, entering) == "bar/4*/10"
    assert printed_moves(BLACK, (Move(3, OFF, 3, False),)) == "22/off"
    assert printed_point(BLACK, 1) == 24 and printed_point(WHITE, 1) == 1
    assert printed_name(BLACK, BAR) == "bar" and printed_name(BLACK, OFF) == "off"
    with pytest.raises(ValueError, match="point 0 is not 1-24"):
        printed_point(WHITE, 0)


_TOKEN = re.compile(r"^(?P<path>[^()]+?)(?:\((?P<count>\d)\))?$")


def board(position: Position) -> dict[tuple[int, int], int]:
    """(zone, colour) -> checkers, the board as printed; ``position`` with White on roll."""
    counts = {}
    for colour, side in ((WHITE, position.player), (BLACK, position.opponent)):
        for index, count in enumerate(side):
            if count:
                counts[_zone(colour, index), colour] = count
    return counts


def _zone(colour: int, index: int) -> int:
    if index == BAR:
        return (BAR_WHITE, BAR_BLACK)[colour]
    if index == OFF:
        return (TRAY_WHITE, TRAY_BLACK)[colour]
    return index if colour == WHITE else 25 - index


def _place(name: str, colour: int) -> int:
    """A point of the log, read as the board prints it."""
    if name == "bar":
        return (BAR_WHITE, BAR_BLACK)[colour]
    if name == "off":
        return (TRAY_WHITE, TRAY_BLACK)[colour]
    return int(name)


def make(before: dict[tuple[int, int], int], colour: int, text: str) -> dict[tuple[int, int], int]:
    """The board after ``colour`` makes the play ``text`` in printed numbers: each path's
    checker leaves its first point and lands on its last; one landing on a lone checker of
    the other colour, or passing it where the path marks ``*``, sends it to its bar."""
    after = dict(before)
    other = Player(colour).other
    for token in text.split():
        match = _TOKEN.match(token)
        assert match, token
        steps = match["path"].split("/")
        for _ in range(int(match["count"] or 1)):
            points = [_place(step.rstrip("*"), colour) for step in steps]
            for a, b in itertools.pairwise(points):
                if a in ZONES[:24] and b in ZONES[:24]:  # towards the mover's home
                    assert (b > a) if colour == BLACK else (b < a), f"{token}: {a} to {b}"
            after[points[0], colour] -= 1
            after[points[-1], colour] = after.get((points[-1], colour), 0) + 1
            for step, point in zip(steps[1:], points[1:], strict=True):
                hit = step.endswith("*") or point == points[-1]
                if hit and after.get((point, other)) == 1:
                    after[point, other] = 0
                    bar = (BAR_WHITE, BAR_BLACK)[other]
                    after[bar, other] = after.get((bar, other), 0) + 1
    return {key: count for key, count in after.items() if count}


def test_each_logged_play_of_a_demo_match_is_the_move_made_on_the_board() -> None:
    lines: list[str] = []
    journal = MemoryJournal()
    play_match(MatchStarted(3), seed=SEED, say=lines.append, journal=journal)
    records = journal.records
    played = [line.strip() for line in lines if re.match(r"^\s+(White|Black) \d\d: ", line)]
    table = Table.replay(TableConfig(capacities(Geometry.default())), records[:1])
    checked = {WHITE: 0, BLACK: 0}
    plays = iter(played)
    for record in records[1:]:
        before = table.position
        table = table.apply(record)
        if not isinstance(record, Played):
            continue
        line = next(plays)
        name, _, text = line.partition(": ")
        assert name.startswith(("White", "Black")[record.player])
        if text == "no move":
            assert not record.moves
            continue
        assert make(board(before), record.player, text) == board(table.position), line
        checked[record.player] += 1
    assert checked[BLACK] >= 10 and checked[WHITE] >= 10
    assert any("bar/" in line for line in played if line.startswith("Black"))
    assert any("*" in line for line in played if line.startswith("Black"))


def test_the_export_keeps_gnubgs_numbering() -> None:
    journal = MemoryJournal()
    play_match(MatchStarted(1), seed=SEED, say=lambda _: None, journal=journal)
    mat = export_mat(journal.records)
    first_black = next(r for r in journal.records if isinstance(r, Played) and r.player == BLACK)
    own = " ".join(f"{m.src}/{m.dst}" for m in first_black.move_values())
    printed = printed_moves(BLACK, first_black.move_values())
    assert f": {own}\n" in mat  # Black's own numbering, as gnubg reads it
    assert printed not in mat


class OnePlay:
    """An engine that always answers with Black's run 24/13 (printed 1/12)."""

    name = "stub"

    def choose_play(self, view: Position, dice: tuple[int, int], match: object) -> Play:
        return parse_play(view, dice, "24/13")


def test_a_hint_for_black_is_written_in_the_boards_numbers() -> None:
    table = hinted_moving()
    request = hold_roll(table, BLACK, ROLL, HELD).hint
    assert request is not None
    answer = advise(request, table, OnePlay(), 1.0)  # type: ignore[arg-type]
    assert answer.detail == "1/12" and answer.words().endswith("would play 1/12")
