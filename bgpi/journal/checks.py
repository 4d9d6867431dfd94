"""What opening a journal checks of what it holds, before a writer touches it: its schema
version, its tables, its pages, its identity, its number of records, and a write-ahead log
that no bgpi writer holds against the file alone (:mod:`bgpi.journal.file` guards the file
itself). Damage is refused with a :class:`~bgpi.journal.file.CorruptJournalError` naming it.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bgpi.journal.chain import columns
from bgpi.journal.file import (
    JournalVersionError,
    at_one_moment,
    check_integrity,
    corrupt,
    foreign_wal,
    main_file,
    newer,
)
from bgpi.journal.schema import CHAINED, schema_version


def checked_file(db: sqlite3.Connection, path: Path, *, wal: bool) -> tuple[int, bytes | None]:
    """The schema version and identity of the journal a snapshot reads, once its pages,
    tables and number of records are checked, and ``wal``, its write-ahead log against the
    file alone."""
    return at_one_moment(db, path, lambda db: _file_checks(db, path, wal=wal))


def _file_checks(db: sqlite3.Connection, path: Path, *, wal: bool) -> tuple[int, bytes | None]:
    (version,) = db.execute("PRAGMA user_version").fetchone()
    if version > schema_version():  # written by a newer bgpi, still in the WAL
        raise JournalVersionError(newer(path, version, schema_version()))
    if version:
        _check_tables(db, path, version)
    check_integrity(db, path)
    if wal:
        _same_journal(db, path)
    if version < CHAINED:
        return version, None
    journal_id = identity(db, path)
    (kept,) = db.execute("SELECT records FROM journal").fetchone()
    (found,) = db.execute("SELECT COUNT(*) FROM records").fetchone()
    if kept != found:
        raise corrupt(f"{path} holds {found} records where it wrote {kept}")
    return version, journal_id


def _check_tables(db: sqlite3.Connection, path: Path, version: int) -> None:
    tables = {name for (name,) in db.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")}
    missing = {"matches", "records", *(["journal"] if version >= CHAINED else [])} - tables
    if missing:
        raise corrupt(f"{path} has no table {', '.join(sorted(missing))}")


def identity(db: sqlite3.Connection, path: Path) -> bytes:
    """The journal's id (schema version 3 on)."""
    rows = db.execute("SELECT id FROM journal").fetchall()
    if len(rows) != 1 or not isinstance(rows[0][0], bytes):
        raise corrupt(f"{path} has lost its identity ({len(rows)} rows in its journal table)")
    journal_id: bytes = rows[0][0]
    return journal_id


def _same_journal(db: sqlite3.Connection, path: Path) -> None:
    """A write-ahead log that no bgpi writer holds, beside the file: the file alone must be an
    earlier state of the same journal. It is append-only, so the last record the file alone
    holds must be there, the same, with the log applied, and its identity the same."""
    main = main_file(path)
    try:
        mine = _last_word(main)
    except sqlite3.Error:
        return  # the file alone is not whole (a power cut in a checkpoint): the log makes it so
    finally:
        main.close()
    theirs = _last_word(db, at=mine[1])
    if mine[0] is not None and theirs[0] != mine[0]:
        raise foreign_wal(path)
    if mine[1] is not None and not _same_row(mine[1], theirs[1]):
        raise foreign_wal(path)


def _same_row(mine: tuple[object, ...], theirs: tuple[object, ...] | None) -> bool:
    """The same record in two views, by its columns and its hash where both have one."""
    if theirs is None or theirs[:5] != mine[:5]:
        return False
    return None in (mine[5], theirs[5]) or mine[5] == theirs[5]


def _last_word(
    db: sqlite3.Connection, at: tuple[object, ...] | None = None
) -> tuple[bytes | None, tuple[object, ...] | None]:
    """The journal's identity and its last record's row, or the row where ``at`` stands (a
    row of another view of it)."""
    (version,) = db.execute("PRAGMA user_version").fetchone()
    if not version:
        return None, None
    chained = version >= CHAINED
    found = db.execute("SELECT id FROM journal").fetchone() if chained else None
    query = f"SELECT {columns(chained=chained)} FROM records "
    if at is None:
        row = db.execute(query + "ORDER BY match_id DESC, seq DESC LIMIT 1").fetchone()
    else:
        row = db.execute(query + "WHERE match_id = ? AND seq = ?", at[:2]).fetchone()
    return (found[0] if found else None), (tuple(row) if row else None)
