"""The journal's schema and its versions: the tables, the append-only triggers, and the
migrations that bring an older journal up to date.

The schema version is SQLite's ``user_version``. :data:`MIGRATIONS` brings a journal from each
version to the next, all in one transaction (:func:`migrate`), so an additive table is one
more step there and a step that fails leaves the file as it was.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Final

from bgpi.journal.chain import ID_SIZE, Row, columns, new_id, seed
from bgpi.journal.file import APPLICATION_ID, JournalError, JournalVersionError, newer

Migration = Callable[[sqlite3.Connection], None]


def _append_only(table: str, action: str) -> str:
    return f"""CREATE TRIGGER {table}_append_only_{action} BEFORE {action.upper()} ON {table}
        BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END"""


_SCHEMA_V1: Final = (
    """CREATE TABLE matches (
        id INTEGER PRIMARY KEY,
        started_at REAL NOT NULL,
        length INTEGER NOT NULL,
        white TEXT NOT NULL,
        black TEXT NOT NULL
    )""",
    """CREATE TABLE records (
        match_id INTEGER NOT NULL REFERENCES matches (id),
        seq INTEGER NOT NULL,
        kind TEXT NOT NULL,
        at REAL NOT NULL,
        record TEXT NOT NULL,
        PRIMARY KEY (match_id, seq)
    )""",
    # The match list reads only the game ends, not every record of every match.
    "CREATE INDEX records_by_kind ON records (kind, match_id)",
    *(
        _append_only(table, action)
        for table in ("matches", "records")
        for action in ("update", "delete")
    ),
)


def _create_v1(db: sqlite3.Connection) -> None:
    """Version 0 (an empty database) to 1: the matches and their records, append-only."""
    for statement in _SCHEMA_V1:
        db.execute(statement)


# gnubg's analyses of a match (bgpi.engine.analysis), keyed by the match, how many of its records
# were analysed and the engine. Not append-only: a match analysed after its first game is
# analysed again once more is played, and the row for the same records may be replaced.
_ANALYSES: Final = """CREATE TABLE IF NOT EXISTS analyses (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    records INTEGER NOT NULL,
    engine TEXT NOT NULL,
    at REAL NOT NULL,
    analysis TEXT NOT NULL,
    PRIMARY KEY (match_id, records, engine)
)"""


def _add_analyses_v2(db: sqlite3.Connection) -> None:
    """Version 1 to 2: the analyses. bgpi before version 2 made the same table itself, on
    its first analysis, in a version 1 file: that table and its rows are kept as they are."""
    db.execute(_ANALYSES)


# The journal's identity and the tip of its records' chain (bgpi.journal.chain): one row,
# whose id never changes.
_IDENTITY: Final = (
    f"""CREATE TABLE journal (
        id BLOB NOT NULL CHECK (length(id) = {ID_SIZE}),
        records INTEGER NOT NULL,
        tip BLOB NOT NULL
    )""",
    """CREATE TRIGGER journal_has_one_identity BEFORE INSERT ON journal
        WHEN EXISTS (SELECT 1 FROM journal)
        BEGIN SELECT RAISE(ABORT, 'a journal has one identity'); END""",
    """CREATE TRIGGER journal_keeps_its_identity BEFORE UPDATE OF id ON journal
        BEGIN SELECT RAISE(ABORT, 'a journal keeps its identity'); END""",
    """CREATE TRIGGER journal_is_not_deleted BEFORE DELETE ON journal
        BEGIN SELECT RAISE(ABORT, 'a journal keeps its identity'); END""",
)
CHAINED: Final = 3  # the schema version that brought them


def _chain_v3(db: sqlite3.Connection) -> None:
    """Version 2 to 3: the journal's identity and its records' hash chain, computed over the
    records already there. The append-only rule steps aside for that, in the same
    transaction, and is back before it commits."""
    for statement in _IDENTITY:
        db.execute(statement)
    db.execute("ALTER TABLE records ADD COLUMN hash BLOB")
    db.execute("DROP TRIGGER records_append_only_update")
    journal_id = new_id()
    tip = seed(journal_id)
    hashes = []
    query = f"SELECT {columns(chained=False)} FROM records ORDER BY match_id, seq"
    for values in db.execute(query).fetchall():
        row = Row.of(values)
        tip = row.after(tip)
        hashes.append((tip, row.match_id, row.seq))
    db.executemany("UPDATE records SET hash = ? WHERE match_id = ? AND seq = ?", hashes)
    db.execute(_append_only("records", "update"))
    db.execute(
        "INSERT INTO journal (id, records, tip) VALUES (?, ?, ?)", (journal_id, len(hashes), tip)
    )


MIGRATIONS: Sequence[Migration] = (_create_v1, _add_analyses_v2, _chain_v3)
"""``MIGRATIONS[n]`` brings a journal from schema version ``n`` to ``n + 1``; the schema this
code writes is the version after the last one. They all run in the one transaction of
:func:`migrate` (:meth:`bgpi.journal.store.Journal.open` calls it), so a step must not
commit: no ``executescript``, which commits first."""


def schema_version() -> int:
    """The schema version this code reads and writes."""
    return len(MIGRATIONS)


def migrate(db: sqlite3.Connection, path: Path, *, fresh: bool) -> None:
    """Bring the schema up to :func:`schema_version` in one transaction (a new database gets
    its application id in the same one): a step that fails leaves the file as it was."""
    db.execute("BEGIN IMMEDIATE")
    try:
        (version,) = db.execute("PRAGMA user_version").fetchone()
        if version > schema_version():  # written by a newer bgpi since it was checked
            raise JournalVersionError(newer(path, version, schema_version()))
        if fresh:
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        for step in range(version, schema_version()):
            try:
                MIGRATIONS[step](db)
            except Exception as exc:
                raise JournalError(
                    f"{path}: bringing the journal from schema version {step} to {step + 1} "
                    f"failed, so it is left at version {version}: {exc}"
                ) from exc
            db.execute(f"PRAGMA user_version = {step + 1}")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
