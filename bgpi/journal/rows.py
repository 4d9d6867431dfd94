"""The records table's rows: a record written with its hash chained to the journal's tip, and
a stored row read back, checked where it stands and against the chain (:mod:`bgpi.journal.chain`).

A row that is not what the journal wrote raises a
:class:`~bgpi.journal.file.CorruptJournalError` naming the file, the match and the record.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

from bgpi.journal.chain import Row, broken, link
from bgpi.journal.file import CorruptJournalError, corrupt
from bgpi.journal.records import MatchStarted, Record, from_json, to_json


def insert_match(
    db: sqlite3.Connection, record: MatchStarted, stamp: float, *, chained: bool
) -> int:
    cursor = db.execute(
        "INSERT INTO matches (started_at, length, white, black) VALUES (?, ?, ?, ?)",
        (stamp, record.length, *record.names),
    )
    match_id = cursor.lastrowid
    assert match_id is not None
    insert_record(db, match_id, 0, record, stamp, chained=chained)
    return match_id


def insert_record(
    db: sqlite3.Connection, match_id: int, seq: int, record: Record, stamp: float, *, chained: bool
) -> None:
    """One record, its hash chained to the journal's tip, which it then is (in a journal
    with a chain)."""
    at, kind, text = float(stamp), record.kind, to_json(record)
    if not chained:
        db.execute(
            "INSERT INTO records (match_id, seq, kind, at, record) VALUES (?, ?, ?, ?, ?)",
            (match_id, seq, kind, at, text),
        )
        return
    (tip,) = db.execute("SELECT tip FROM journal").fetchone()
    digest = link(tip, match_id, seq, kind.encode(), at, text.encode())
    db.execute(
        "INSERT INTO records (match_id, seq, kind, at, record, hash) VALUES (?, ?, ?, ?, ?, ?)",
        (match_id, seq, kind, at, text, digest),
    )
    db.execute("UPDATE journal SET tip = ?, records = records + 1", (digest,))


def stored_row(path: Path, values: Sequence[object]) -> Row:
    """A row from its columns (:func:`bgpi.journal.chain.columns`) in the journal at ``path``."""
    try:
        return Row.of(values)
    except ValueError as exc:
        raise corrupt(f"{path}: {exc}") from None


def read_record(path: Path, match_id: int, index: int | None, row: Row) -> Record:
    """Parse one stored record; ``index`` is where it should stand in its match."""
    where = f"{path}: record {row.seq} of match {match_id}"
    if index is not None and row.seq != index:
        raise corrupt(f"{where} stands where record {index} should be")
    try:
        record = from_json(row.text.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise corrupt(f"{where} cannot be read: byte {exc.start} is not UTF-8") from None
    except ValueError as exc:
        raise corrupt(f"{where} cannot be read: {exc}") from None
    if index is not None and (index == 0) != isinstance(record, MatchStarted):
        expected = "is not" if index == 0 else "is"
        raise corrupt(f"{where} {expected} a MatchStarted")
    if row.kind != record.kind.encode():
        filed = row.kind.decode(errors="replace")
        raise corrupt(f"{where} is filed as a {filed!r} record but holds a {record.kind!r}")
    return record


def check_chain(
    path: Path,
    match_id: int,
    rows: list[Row],
    before: bytes | None,
    after: Row | None,
    tip: object,
) -> None:
    """A match's records chain from the record before them to the one after them, or to
    the journal's tip: none changed, lost, moved or another journal's."""
    bad = broken(rows, before)
    if bad is not None:
        raise unchained(path, bad)
    last = rows[-1].hash if rows else before
    if after is not None and not after.follows(last):
        raise corrupt(
            f"{path}: match {after.match_id} does not begin where match {match_id} "
            "ends: records are missing or replaced between them"
        )
    if after is None and last != tip:
        raise corrupt(
            f"{path}: match {match_id} does not end with the journal's last record: "
            "records are missing or replaced at its end"
        )


def unchained(path: Path, row: Row) -> CorruptJournalError:
    return corrupt(
        f"{path}: record {row.seq} of match {row.match_id} does not follow the record "
        "before it: it, or that one, was changed, lost or taken from another journal"
    )
