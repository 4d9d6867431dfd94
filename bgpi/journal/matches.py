"""The journal's match list: each match with its score and games, read from the game ends
alone (not every record of every match), and checked against its first record and each game
end against the record before it.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bgpi.base.words import Player
from bgpi.journal.chain import columns
from bgpi.journal.file import corrupt
from bgpi.journal.records import Forfeit, GameEnded, MatchStarted
from bgpi.journal.rows import read_record, stored_row, unchained


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """One match in the journal: ``score`` is the points won so far; ``finished`` once a
    player has reached the length (a money session, length 0, never finishes) or won it by
    forfeit (``forfeit``, the winner)."""

    id: int
    started_at: float
    length: int
    names: tuple[str, str]
    games: int
    score: tuple[int, int]
    forfeit: Player | None = None

    @property
    def finished(self) -> bool:
        return self.forfeit is not None or (bool(self.length) and max(self.score) >= self.length)


def listing(db: sqlite3.Connection, *, chained: bool) -> tuple[list[Any], list[Any]]:
    """The rows of the match list: the game ends, each with the hash before it, and the
    matches, each with its first record."""
    ends = db.execute(
        f"SELECT {columns(chained=chained, of='e')}, {'p.hash' if chained else 'NULL'} "
        "FROM records AS e "
        "LEFT JOIN records AS p ON p.match_id = e.match_id AND p.seq = e.seq - 1 "
        "WHERE e.kind IN (?, ?) ORDER BY e.match_id, e.seq",
        (GameEnded.kind, Forfeit.kind),
    ).fetchall()
    starts = db.execute(
        "SELECT m.id, m.started_at, m.length, CAST(m.white AS BLOB), "
        f"CAST(m.black AS BLOB), {columns(chained=chained, of='r')} FROM matches AS m "
        "LEFT JOIN records AS r ON r.match_id = m.id AND r.seq = 0 ORDER BY m.id"
    ).fetchall()
    return ends, starts


def match_list(path: Path, ends: list[Any], starts: list[Any], *, chained: bool) -> list[MatchInfo]:
    """Every match of a :func:`listing` of the journal at ``path``, oldest first."""
    ended: dict[int, list[tuple[int, GameEnded]]] = {}  # each match's game ends, by seq
    forfeits: dict[int, Player] = {}  # crossed claims: the last one settled it
    for values in ends:
        row = stored_row(path, values[:-1])
        end = read_record(path, row.match_id, None, row)
        if not isinstance(end, GameEnded | Forfeit):
            raise corrupt(
                f"{path}: record {row.seq} of match {row.match_id} is filed as a game "
                f"end but holds {row.text[:60]!r}"
            )
        if chained and not row.follows(values[-1]):
            raise unchained(path, row)
        games = ended.setdefault(row.match_id, [])
        if isinstance(end, Forfeit):
            forfeits[row.match_id] = end.winner
            # A game this board ended as the claim crossed it: the claimant never had it.
            games[:] = [(seq, game) for seq, game in games if seq < row.seq - end.late]
        else:
            games.append((row.seq, end))
    scores = {
        m: [sum(g.points for _, g in kept if g.winner == p) for p in (0, 1)]
        for m, kept in ended.items()
    }
    counts = {m: len(kept) for m, kept in ended.items()}
    return [
        MatchInfo(
            match_id,
            started_at,
            length,
            names,
            counts.get(match_id, 0),
            _pair(scores.get(match_id, [0, 0])),
            forfeits.get(match_id),
        )
        for match_id, started_at, length, names in (_match_row(path, values) for values in starts)
    ]


def _match_row(path: Path, values: Sequence[object]) -> tuple[int, float, int, tuple[str, str]]:
    """One match as the match list has it, checked against its first record (read as
    JSON only: reading the match itself checks the record in full)."""
    match_id, started_at, length, white, black = values[:5]
    assert isinstance(match_id, int)  # the table's INTEGER PRIMARY KEY
    if values[5] is None:
        raise corrupt(f"{path}: match {match_id} has no first record")
    row = stored_row(path, values[5:])
    try:
        names = (_text(white), _text(black))
        first = json.loads(_text(row.text))
    except ValueError:
        raise corrupt(f"{path}: match {match_id} or its first record is damaged") from None
    listed = (MatchStarted.kind, length, [*names], started_at)
    said = (
        [first.get(key) for key in ("kind", "length", "names")] if isinstance(first, dict) else []
    )
    if not isinstance(length, int) or (*said, row.at) != listed:
        raise corrupt(
            f"{path}: match {match_id} is listed as {length} points, {names}, "
            "but its first record says otherwise"
        )
    return match_id, row.at, length, names


def _text(value: object) -> str:
    if not isinstance(value, bytes):
        raise ValueError(f"{value!r} is not text")
    return value.decode("utf-8")


def _pair(values: list[int]) -> tuple[int, int]:
    return values[0], values[1]
