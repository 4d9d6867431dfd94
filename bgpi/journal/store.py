"""The journal: every record of every match, in a SQLite database, appended before it is shown.

The journal is the one source of truth for the game. :meth:`Journal.append` returns only once
its record is committed (WAL, ``synchronous=FULL``), so whatever the table has shown survives
a power cut; on start the shell replays :meth:`Journal.records`.

The file is guarded (:mod:`bgpi.journal.file`): it must carry bgpi's application id, and its
schema version must be one this code knows. Anything else (not SQLite, empty, another
program's database, a journal written by a newer bgpi, corrupt, locked, a write-ahead log that
cannot be applied) is refused with one line saying what to do, before anything is written to
it. An older schema is brought up to date by :data:`MIGRATIONS`, all in one transaction, so an
additive table is one more step there. A reader (``read_only``) never writes to the file.
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

from bgpi.base.i18n import _
from bgpi.base.words import Player
from bgpi.journal.file import (
    APPLICATION_ID,
    CorruptJournalError,
    EmptyJournalError,
    ForeignJournalError,
    JournalError,
    JournalVersionError,
    LockedJournalError,
    NoJournalError,
    WalJournalError,
    check_file,
    check_integrity,
    connect,
    corrupt,
    create,
    hold,
    named,
    newer,
    release,
)
from bgpi.journal.records import Forfeit, GameEnded, MatchStarted, Record, from_json, to_json

# The journal's file name in a state directory: the service, the simulator, the demo and the
# commands that read it all find it by this name.
JOURNAL_NAME: Final = "journal.sqlite"

__all__ = [
    "APPLICATION_ID",
    "JOURNAL_NAME",
    "MIGRATIONS",
    "CorruptJournalError",
    "EmptyJournalError",
    "ForeignJournalError",
    "Journal",
    "JournalError",
    "JournalVersionError",
    "LockedJournalError",
    "MatchInfo",
    "NoJournalError",
    "NoMatchError",
    "WalJournalError",
    "corrupt",
    "schema_version",
]

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


MIGRATIONS: Sequence[Migration] = (_create_v1, _add_analyses_v2)
"""``MIGRATIONS[n]`` brings a journal from schema version ``n`` to ``n + 1``; the schema this
code writes is the version after the last one. They all run in the one transaction of
:meth:`Journal.open`, so a step must not commit: no ``executescript``, which commits first."""


def schema_version() -> int:
    """The schema version this code reads and writes."""
    return len(MIGRATIONS)


class NoMatchError(JournalError, LookupError):
    """No match with that id, or no match at all yet."""


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


class Journal:
    """The journal of matches in one SQLite file. Open with :meth:`open`; close (or leave the
    ``with`` block) when done; closing twice is harmless."""

    def __init__(
        self,
        path: Path,
        db: sqlite3.Connection,
        clock: Callable[[], float],
        *,
        lock: int | None = None,
    ) -> None:
        self.path = path
        self.read_only = lock is None
        self._db: sqlite3.Connection | None = db
        self._clock = clock
        self._lock = lock

    @classmethod
    def open(
        cls,
        path: str | Path,
        *,
        clock: Callable[[], float] = time.time,
        read_only: bool = False,
    ) -> Journal:
        """Open the journal at ``path``, creating it if there is no file, and migrating an
        older schema; ``clock`` stamps each record. A reader (``read_only``) needs the file
        to exist and never writes to it; a writer holds it against other writers until
        closed. A file that is not a sound bgpi journal raises a :class:`JournalError`
        saying what is wrong and what to do."""
        path = Path(path)
        if not read_only and not path.exists():
            create(path, lambda db: _migrate(db, path, fresh=True))
        check_file(path, schema_version())
        lock = None if read_only else hold(path)
        try:
            db = connect(path, read_only=read_only)
        except BaseException:
            release(lock)
            raise
        try:
            _prepare(db, path, read_only=read_only)
        except BaseException as exc:
            db.close()
            release(lock)
            if isinstance(exc, sqlite3.Error):
                raise named(exc, path) from None
            raise
        return cls(path, db, clock, lock=lock)

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
            release(self._lock)  # after the connection: see journalfile.hold
            self._lock = None

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
        state = "closed" if self._db is None else "read-only" if self.read_only else "open"
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
                raise NoMatchError(_("{path}: no match {id}").format(path=self.path, id=match_id))
            rows = db.execute(
                "SELECT seq, record FROM records WHERE match_id = ? ORDER BY seq", (match_id,)
            ).fetchall()
        return [self._read(match_id, index, seq, text) for index, (seq, text) in enumerate(rows)]

    def matches(self) -> list[MatchInfo]:
        """Every match in the journal, oldest first."""
        with self._reading() as db:
            ends = db.execute(
                "SELECT match_id, seq, record FROM records WHERE kind IN (?, ?) ORDER BY seq",
                (GameEnded.kind, Forfeit.kind),
            ).fetchall()
            rows = db.execute(
                "SELECT id, started_at, length, white, black FROM matches ORDER BY id"
            ).fetchall()
        scores: dict[int, list[int]] = {}
        games: dict[int, int] = {}
        forfeits: dict[int, Player] = {}  # crossed claims: the last one settled it
        for match_id, seq, text in ends:
            end = self._read(match_id, None, seq, text)
            if isinstance(end, Forfeit):
                forfeits[match_id] = end.winner
                continue
            if not isinstance(end, GameEnded):
                raise corrupt(
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
                forfeits.get(match_id),
            )
            for match_id, started_at, length, white, black in rows
        ]

    # -- internals ---------------------------------------------------------------------------

    def _connection(self) -> sqlite3.Connection:
        if self._db is None:
            raise JournalError(_("{path}: the journal is closed").format(path=self.path))
        return self._db

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """The connection to read with; what SQLite cannot read is a corrupt journal."""
        db = self._connection()
        try:
            yield db
        except sqlite3.Error as exc:
            raise named(exc, self.path) from None

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One committed transaction, or none at all."""
        db = self._connection()
        if self.read_only:
            read_only = _("{path} is open read-only here: cannot write to it")
            raise JournalError(read_only.format(path=self.path))
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
            error = named(exc, self.path)
            if type(error) is JournalError:  # not a kind of damage: the disk full, say
                why = _("{path}: cannot write to the journal: {reason}")
                error = JournalError(why.format(path=self.path, reason=exc))
            raise error from None

    def _has_matches(self, db: sqlite3.Connection) -> bool:
        return db.execute("SELECT 1 FROM matches LIMIT 1").fetchone() is not None

    def _latest(self, db: sqlite3.Connection) -> int:
        (match_id,) = db.execute("SELECT MAX(id) FROM matches").fetchone()
        if match_id is None:
            no_match = _("{path}: no match yet; start one with new_match")
            raise NoMatchError(no_match.format(path=self.path))
        return int(match_id)

    def _read(self, match_id: int, index: int | None, seq: int, text: str) -> Record:
        """Parse one stored record; ``index`` is where it should stand in its match."""
        where = f"{self.path}: record {seq} of match {match_id}"
        if index is not None and seq != index:
            raise corrupt(f"{where} stands where record {index} should be")
        try:
            record = from_json(text)
        except ValueError as exc:
            raise corrupt(f"{where} cannot be read: {exc}") from None
        if index is not None and (index == 0) != isinstance(record, MatchStarted):
            expected = "is not" if index == 0 else "is"
            raise corrupt(f"{where} {expected} a MatchStarted")
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


def _prepare(db: sqlite3.Connection, path: Path, *, read_only: bool) -> None:
    """Settings, schema and a check of every page, before the journal is used."""
    if read_only:
        (version,) = db.execute("PRAGMA user_version").fetchone()
        if version > schema_version():  # written by a newer bgpi, still in the WAL
            raise JournalVersionError(newer(path, version, schema_version()))
    else:
        db.execute("PRAGMA synchronous = FULL")
        db.execute("PRAGMA foreign_keys = ON")
        _migrate(db, path, fresh=False)
    _check_tables(db, path)
    check_integrity(db, path)


def _check_tables(db: sqlite3.Connection, path: Path) -> None:
    tables = {name for (name,) in db.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")}
    missing = {"matches", "records"} - tables
    if missing:
        raise corrupt(f"{path} has no table {', '.join(sorted(missing))}")


def _migrate(db: sqlite3.Connection, path: Path, *, fresh: bool) -> None:
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
