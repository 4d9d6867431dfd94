"""``bgpi status`` shows the board as a player sees it: the match's names and colours, the
board's printed numbers, the cube, the score and whose turn; the IDs stay gnubg's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bgpi.base.geometry import Geometry
from bgpi.cli import main
from bgpi.journal.records import MatchStarted, Played
from bgpi.journal.store import JOURNAL_NAME, Journal
from bgpi.present.diagram import BOTTOM, HEIGHT, TOP, stacks
from bgpi.sensing.board import capacities
from bgpi.service.driver import MemoryJournal
from bgpi.sim.demo import play_match
from bgpi.table import Table, TableConfig

NAMES = ("Ann", "Bob")


def status_of(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], *, plays: int | None
) -> tuple[str, Table]:
    """``bgpi status`` of a demo match's journal cut after its ``plays``-th play (None: at
    the end of its first game), and the table the records lead to."""
    memory = MemoryJournal()
    play_match(MatchStarted(7, names=NAMES), seed=3, say=lambda _: None, journal=memory, games=1)
    records = memory.records
    if plays is not None:
        ends = [i for i, record in enumerate(records) if isinstance(record, Played)]
        records = records[: ends[plays - 1] + 1]
    tmp_path.mkdir(exist_ok=True)
    with Journal.open(tmp_path / JOURNAL_NAME) as journal:
        journal.new_match(records[0])
        journal.append_all(records[1:])
    assert main(["status", "--state-dir", str(tmp_path)]) == 0
    table = Table.replay(TableConfig(capacities(Geometry.default())), records)
    return capsys.readouterr().out, table


def columns(numbers: str) -> dict[int, int]:
    """Printed point -> the column its number ends at in the diagram's numbers row."""
    return {int(m.group()): m.end() for m in re.finditer(r"\d+", numbers)}


def read_half(rows: list[str], numbers: str) -> dict[int, tuple[str, int]]:
    """Printed point -> (mark, checkers) as a reader of the rows (edge first) counts them."""
    found = {}
    for point, end in columns(numbers).items():
        cells = [row[end - 2 : end].strip() if len(row) >= end else "" for row in rows]
        marks = [cell for cell in cells if cell and not cell.isdigit()]
        if not marks:
            continue
        count = int(cells[HEIGHT - 1]) if cells[HEIGHT - 1].isdigit() else len(marks)
        found[point] = (marks[0], count)
    return found


def test_status_draws_the_printed_board_in_the_players_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, table = status_of(tmp_path, capsys, plays=23)
    lines = out.splitlines()
    assert not re.search(r"\bplayer [01]\b|\bX\b|\bO\b", out)
    white, black = table.match.score
    assert lines[0] == f"7-point match; score: Ann {white}, Bob {black}"
    view = table.mover_view if table.match.turn is not None else table.position
    assert f"Position ID: {view.id()}" in lines
    assert f"Match ID: {table.match.id()}" in lines
    start = lines.index(" | ".join(" ".join(f"{p:>2}" for p in half) for half in TOP))
    top_rows = lines[start + 1 : start + 1 + HEIGHT]
    bar_line = lines[start + 1 + HEIGHT]
    bottom_rows = lines[start + 2 + HEIGHT : start + 2 + 2 * HEIGHT]
    bottom_numbers = lines[start + 2 + 2 * HEIGHT]
    seen = {
        **read_half(top_rows, lines[start]),
        **read_half(list(reversed(bottom_rows)), bottom_numbers),
    }
    expected = {
        point: ("WB"[colour], count) for point, (colour, count) in stacks(table.position).items()
    }
    assert seen == expected
    # The bottom row is printed 12 down to 1: White's home at the bottom right.
    assert [int(n) for n in re.findall(r"\d+", bottom_numbers)] == [*BOTTOM[0], *BOTTOM[1]]
    position = table.position
    assert bar_line.startswith(f"bar: W {position.player[25]}, B {position.opponent[25]}")
    pips = position.pip_count
    assert lines[-1] == f"W Ann (white), pips {pips[0]}; B Bob (black), pips {pips[1]}"


def test_status_says_whose_turn_and_the_cube_in_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, table = status_of(tmp_path / "playing", capsys, plays=24)
    match = table.match
    assert match.turn is not None and match.game_winner is None
    lines = out.splitlines()
    if match.cube_owner is None:
        assert lines[1] == f"cube: {match.cube}, in the middle"
    else:
        assert lines[1] == f"cube: {match.cube}, {NAMES[match.cube_owner]}'s"
    assert lines[2] == f"turn: {NAMES[match.turn]}, to roll"
    out, table = status_of(tmp_path / "over", capsys, plays=None)
    winner = table.match.game_winner
    assert winner is not None
    assert out.splitlines()[2] == f"the game is over: {NAMES[winner]} won it"


def test_status_names_the_matchs_winner_once_it_is_over(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    memory = MemoryJournal()
    play_match(MatchStarted(1, names=NAMES), seed=3, say=lambda _: None, journal=memory)
    with Journal.open(tmp_path / JOURNAL_NAME) as journal:
        journal.new_match(memory.records[0])
        journal.append_all(memory.records[1:])
    assert main(["status", "--state-dir", str(tmp_path)]) == 0
    table = Table.replay(TableConfig(capacities(Geometry.default())), memory.records)
    winner = table.match.winner
    assert winner is not None
    assert capsys.readouterr().out.splitlines()[2] == f"the match is over: {NAMES[winner]} won it"


def test_a_resumed_demo_says_where_it_stands_in_the_players_names() -> None:
    memory = MemoryJournal()
    play_match(MatchStarted(11, names=NAMES), seed=3, say=lambda _: None, journal=memory, games=1)
    lines: list[str] = []
    play_match(list(memory.records), seed=3, say=lines.append, journal=memory, games=1)
    resumed = next(line for line in lines if line.startswith("resuming: "))
    assert resumed.startswith("resuming: 11-point match; score: Ann ")
    assert not re.search(r"\bplayer [01]\b", resumed)
