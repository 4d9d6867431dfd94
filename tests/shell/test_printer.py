"""The demos' printer: each line of the game log once it is final, and a resumed match said
where it stands before what follows."""

from __future__ import annotations

from bgpi.journal.records import GameEnded, MatchStarted, Record
from bgpi.present.printer import Printer
from bgpi.sim.demo import play_match
from bgpi.table import Table, TableConfig

MATCH = MatchStarted(3, names=("Ann", "Bob"))


def played() -> tuple[TableConfig, list[Record]]:
    sim = play_match(MATCH, seed=5, say=lambda _line: None)
    return sim.table.config, sim.driver.log


def printed(table: Table, records: list[Record], steps: list[list[Record]]) -> list[str]:
    lines: list[str] = []
    printer = Printer(table, records, lines.append)
    for step in steps:
        printer.flush(step)
    return lines


def test_a_match_printed_as_it_comes_is_the_same_as_printed_at_once() -> None:
    config, records = played()
    table = Table.replay(config, records[:1])
    at_once = printed(table, records[:1], [records])
    one_by_one = printed(table, records[:1], [records[:n] for n in range(1, len(records) + 1)])
    assert one_by_one == at_once
    assert at_once[0] == "  Ann (white) and Bob (black): a 3-point match"
    assert at_once[1].startswith("\nGame 1, score 0-0")


def test_a_resumed_match_says_where_it_stands_and_prints_only_what_follows() -> None:
    config, records = played()
    cut = next(n for n, r in enumerate(records, start=1) if isinstance(r, GameEnded))
    before = printed(Table.replay(config, records[:1]), records[:1], [records[:cut]])
    resumed = printed(Table.replay(config, records[:cut]), records[:cut], [records])
    assert resumed[0].startswith("resuming: 3-point match; score: ")
    whole = printed(Table.replay(config, records[:1]), records[:1], [records])
    assert before + resumed[1:] == whole


def test_a_resumed_printer_counts_only_the_games_it_saw_end() -> None:
    config, records = played()
    cut = next(n for n, r in enumerate(records, start=1) if isinstance(r, GameEnded))
    printer = Printer(Table.replay(config, records[:cut]), records[:cut], lambda _line: None)
    printer.flush(records)
    ended = sum(isinstance(r, GameEnded) for r in records)
    assert printer.games_ended == ended - 1
