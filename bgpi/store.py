"""The journal: every record of every match, in a SQLite database, appended before it is shown.

The journal is the one source of truth for the game. :meth:`Journal.append` returns only once
its record is committed (WAL, ``synchronous=FULL``), so whatever the table has shown survives
a power cut; on start the shell replays :meth:`Journal.records`.

The file is guarded: it must carry bgpi's application id, and its schema version must be one
this code knows. Anything else (not SQLite, another program's database, a journal written by
a newer bgpi) is refused before anything is written to it. An older schema is brought up to
date by :data:`MIGRATIONS`, all in one transaction.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Final

from bgpi.records import GameEnded, MatchStarted, Record, from_json, to_json

APPLICATION_ID: Final = int.from_bytes(b"bgpi", "big")
"""SQLite's ``application_id`` of a bgpi journal: the four bytes ``bgpi``."""

_SQLITE_MAGIC: Final = b"SQLite format 3\x00"
_HEADER: Final = 100
_USER_VERSION_AT: Final = 60  # offsets in the database header
_APPLICATION_ID_AT: Final = 68

Migration = Callable[[sqlite3.Connection], None]


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
        f"""CREATE TRIGGER {table}_append_only_{action} BEFORE {action.upper()} ON {table}
            BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END"""
        for table in ("matches", "records")
        for action in ("update", "delete")
    ),
)


def _create_v1(db: sqlite3.Connection) -> None:
    """Version 0 (an empty database) to 1: the matches and their records, append-only."""
    for statement in _SCHEMA_V1:
        db.execute(statement)


MIGRATIONS: Sequence[Migration] = (_create_v1,)
"""``MIGRATIONS[n]`` brings a journal from schema version ``n`` to ``n + 1``; the schema this
code writes is the version after the last one. They all run in the one transaction of
:meth:`Journal.open`, so a step must not commit: no ``executescript``, which commits first."""


def schema_version() -> int:
    """The schema version this code reads and writes."""
    return len(MIGRATIONS)


class JournalError(Exception):
    """Base of the journal's errors."""


class ForeignJournalError(JournalError):
    """The file is not a bgpi journal: not SQLite, or another program's database."""


class JournalVersionError(JournalError):
    """The journal was written by a newer bgpi, with a schema this code does not know."""


class CorruptJournalError(JournalError):
    """A bgpi journal whose content cannot be read back."""


class NoMatchError(JournalError, LookupError):
    """No match with that id, or no match at all yet."""


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """One match in the journal: ``score`` is the points won so far; ``finished`` once a
    player has reached the length (a money session, length 0, never finishes)."""

    id: int
    started_at: float
    length: int
    names: tuple[str, str]
    games: int
    score: tuple[int, int]

    @property
    def finished(self) -> bool:
        return bool(self.length) and max(self.score) >= self.length


class Journal:
    """The journal of matches in one SQLite file. Open with :meth:`open`; close (or leave the
    ``with`` block) when done; closing twice is harmless."""

    def __init__(self, path: Path, db: sqlite3.Connection, clock: Callable[[], float]) -> None:
        self.path = path
        self._db: sqlite3.Connection | None = db
        self._clock = clock

    @classmethod
    def open(cls, path: str | Path, *, clock: Callable[[], float] = time.time) -> Journal:
        """Open the journal at ``path``, creating it if there is no file (or an empty one),
        and migrating an older schema. ``clock`` stamps each record."""
        path = Path(path)
        fresh = not path.exists() or path.stat().st_size == 0
        if not fresh:
            _check_header(path)
        try:
            db = sqlite3.connect(path, isolation_level=None)
        except sqlite3.Error as exc:
            raise JournalError(f"cannot open the journal {path}: {exc}") from None
        try:
            db.execute("PRAGMA synchronous = FULL")
            db.execute("PRAGMA foreign_keys = ON")
            _migrate(db, path, fresh=fresh)
            # WAL only after the first commit, so that the application id is in the main
            # file from the start and _check_header can always read it there.
            db.execute("PRAGMA journal_mode = WAL")
            _check_tables(db, path)
        except sqlite3.OperationalError as exc:  # locked, read-only, out of space...
            db.close()
            raise JournalError(f"cannot open the journal {path}: {exc}") from None
        except sqlite3.DatabaseError as exc:  # malformed
            db.close()
            raise CorruptJournalError(f"{path} cannot be read as SQLite: {exc}") from None
        except BaseException:
            db.close()
            raise
        return cls(path, db, clock)

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._db is None else "open"
        return f"<Journal {str(self.path)!r} {state}>"

    # -- writing -----------------------------------------------------------------------------

    def new_match(self, record: MatchStarted, *, at: float | None = None) -> int:
        """Start a new match with its first record; return the match's id."""
        if not isinstance(record, MatchStarted):
            raise TypeError(f"a match starts with MatchStarted, not {record!r}")
        stamp = self._clock() if at is None else at
        with self._transaction() as db:
            return _insert_match(db, record, stamp)

    def append(self, record: Record, *, at: float | None = None) -> int:
        """Append ``record`` to the latest match, committed before this returns; return its
        sequence number in the match. A ``MatchStarted`` starts a new match (number 0)."""
        stamp = self._clock() if at is None else at
        with self._transaction() as db:
            return self._insert(db, record, stamp)

    def append_all(self, records: Sequence[Record], *, at: float | None = None) -> None:
        """Append every record of one table step in one transaction: a power cut leaves all
        of them or none. (A step deciding two records, say the winning play and the game's
        end, must never be half journaled: the table would replay to a state no press moves
        on from.) A ``MatchStarted`` among them starts a new match for those after it."""
        if not records:
            return
        stamp = self._clock() if at is None else at
        with self._transaction() as db:
            for record in records:
                self._insert(db, record, stamp)

    def _insert(self, db: sqlite3.Connection, record: Record, stamp: float) -> int:
        if isinstance(record, MatchStarted):
            _insert_match(db, record, stamp)
            return 0
        match_id = self._latest(db)
        (seq,) = db.execute(
            "INSERT INTO records (match_id, seq, kind, at, record) "
            "SELECT ?, MAX(seq) + 1, ?, ?, ? FROM records WHERE match_id = ? "
            "RETURNING seq",
            (match_id, record.kind, stamp, to_json(record), match_id),
        ).fetchone()
        return int(seq)

    # -- reading -----------------------------------------------------------------------------

    def records(self, match_id: int | None = None) -> list[Record]:
        """The records of a match in order, by default of the latest; none if the journal
        has no match yet."""
        with self._reading() as db:
            if match_id is None:
                if not self._has_matches(db):
                    return []
                match_id = self._latest(db)
            elif db.execute("SELECT 1 FROM matches WHERE id = ?", (match_id,)).fetchone() is None:
                raise NoMatchError(f"{self.path}: no match {match_id}")
            rows = db.execute(
                "SELECT seq, record FROM records WHERE match_id = ? ORDER BY seq", (match_id,)
            ).fetchall()
        return [self._read(match_id, index, seq, text) for index, (seq, text) in enumerate(rows)]

    def matches(self) -> list[MatchInfo]:
        """Every match in the journal, oldest first."""
        with self._reading() as db:
            ends = db.execute(
                "SELECT match_id, seq, record FROM records WHERE kind = ?", (GameEnded.kind,)
            ).fetchall()
            rows = db.execute(
                "SELECT id, started_at, length, white, black FROM matches ORDER BY id"
            ).fetchall()
        scores: dict[int, list[int]] = {}
        games: dict[int, int] = {}
        for match_id, seq, text in ends:
            end = self._read(match_id, None, seq, text)
            if not isinstance(end, GameEnded):
                raise CorruptJournalError(
                    f"{self.path}: record {seq} of match {match_id} is filed as a game end "
                    f"but holds {text[:60]!r}"
                )
            scores.setdefault(match_id, [0, 0])[end.winner] += end.points
            games[match_id] = games.get(match_id, 0) + 1
        return [
            MatchInfo(
                match_id,
                started_at,
                length,
                (white, black),
                games.get(match_id, 0),
                _pair(scores.get(match_id, [0, 0])),
            )
            for match_id, started_at, length, white, black in rows
        ]

    # -- internals ---------------------------------------------------------------------------

    def _connection(self) -> sqlite3.Connection:
        if self._db is None:
            raise JournalError(f"{self.path}: the journal is closed")
        return self._db

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """The connection to read with; what SQLite cannot read is a corrupt journal."""
        db = self._connection()
        try:
            yield db
        except sqlite3.Error as exc:
            raise CorruptJournalError(f"{self.path} cannot be read: {exc}") from None

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One committed transaction, or none at all."""
        db = self._connection()
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                if db.in_transaction:  # SQLite rolls back by itself after some errors
                    db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise JournalError(f"{self.path}: cannot write to the journal: {exc}") from None

    def _has_matches(self, db: sqlite3.Connection) -> bool:
        return db.execute("SELECT 1 FROM matches LIMIT 1").fetchone() is not None

    def _latest(self, db: sqlite3.Connection) -> int:
        (match_id,) = db.execute("SELECT MAX(id) FROM matches").fetchone()
        if match_id is None:
            raise NoMatchError(f"{self.path}: no match yet; start one with new_match")
        return int(match_id)

    def _read(self, match_id: int, index: int | None, seq: int, text: str) -> Record:
        """Parse one stored record; ``index`` is where it should stand in its match."""
        where = f"{self.path}: record {seq} of match {match_id}"
        if index is not None and seq != index:
            raise CorruptJournalError(f"{where} stands where record {index} should be")
        try:
            record = from_json(text)
        except ValueError as exc:
            raise CorruptJournalError(f"{where} cannot be read: {exc}") from None
        if index is not None and (index == 0) != isinstance(record, MatchStarted):
            expected = "is not" if index == 0 else "is"
            raise CorruptJournalError(f"{where} {expected} a MatchStarted")
        return record


def _insert_match(db: sqlite3.Connection, record: MatchStarted, stamp: float) -> int:
    cursor = db.execute(
        "INSERT INTO matches (started_at, length, white, black) VALUES (?, ?, ?, ?)",
        (stamp, record.length, *record.names),
    )
    match_id = cursor.lastrowid
    assert match_id is not None
    db.execute(
        "INSERT INTO records (match_id, seq, kind, at, record) VALUES (?, 0, ?, ?, ?)",
        (match_id, record.kind, stamp, to_json(record)),
    )
    return match_id


def _pair(values: list[int]) -> tuple[int, int]:
    return values[0], values[1]


def _check_header(path: Path) -> None:
    """Refuse a file that is not a bgpi journal of a known version, from its header."""
    with path.open("rb") as file:
        header = file.read(_HEADER)
    if len(header) < _HEADER or not header.startswith(_SQLITE_MAGIC):
        raise ForeignJournalError(f"{path} is not a SQLite database; it is left as it is")
    found = int.from_bytes(header[_APPLICATION_ID_AT : _APPLICATION_ID_AT + 4], "big")
    if found != APPLICATION_ID:
        raise ForeignJournalError(
            f"{path} is a SQLite database of another application (application id "
            f"{found:#x}, bgpi's is {APPLICATION_ID:#x}); it is left as it is"
        )
    # Reading the header opens no connection, so not even a -wal or -shm file appears. The
    # version can lag behind a write still in the WAL (a newer bgpi that lost power):
    # _migrate checks again inside its transaction, and only SQLite's own checkpoint of
    # that WAL then touches the file.
    version = int.from_bytes(header[_USER_VERSION_AT : _USER_VERSION_AT + 4], "big")
    if version > schema_version():
        raise JournalVersionError(_newer(path, version))


def _newer(path: Path, version: int) -> str:
    return (
        f"{path} has journal schema version {version}; this bgpi knows up to "
        f"{schema_version()}. Use a newer bgpi; the file is left as it is"
    )


def _check_tables(db: sqlite3.Connection, path: Path) -> None:
    tables = {name for (name,) in db.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")}
    missing = {"matches", "records"} - tables
    if missing:
        raise CorruptJournalError(f"{path} has no table {', '.join(sorted(missing))}")


def _migrate(db: sqlite3.Connection, path: Path, *, fresh: bool) -> None:
    """Bring the schema up to :func:`schema_version` in one transaction (a new database gets
    its application id in the same one): a step that fails leaves the file as it was."""
    db.execute("BEGIN IMMEDIATE")
    try:
        (version,) = db.execute("PRAGMA user_version").fetchone()
        if version > schema_version():  # written by a newer bgpi since it was checked
            raise JournalVersionError(_newer(path, version))
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
