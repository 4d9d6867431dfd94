"""The journal: every record of every match, in a SQLite database, appended before it is shown.

The journal is the one source of truth for the game. :meth:`Journal.append` returns only once
its record is committed (WAL, ``synchronous=FULL``), so whatever the table has shown survives
a power cut; on start the shell replays :meth:`Journal.records`.

The file is guarded (:mod:`bgpi.journal.file`): it must carry bgpi's application id, and its
schema version must be one this code knows. Anything else (not SQLite, empty, another
program's database, a journal written by a newer bgpi, corrupt, locked, a write-ahead log that
cannot be applied, records that are not the journal's own) is refused with one line saying
what to do, before anything is written to it: it is checked through a snapshot that changes
nothing on disk, and only then opened for writing. An older schema is brought up to date by
:data:`MIGRATIONS` (:mod:`bgpi.journal.schema`), all in one transaction, so an additive table
is one more step there. A reader (``read_only``) never writes to the file, nor to its
``-wal`` or ``-shm``.

Each journal has its own identity and each record a hash chained to the one before it
(:mod:`bgpi.journal.chain`, written and read back by :mod:`bgpi.journal.rows`). Opening
checks, cheaply, what a restart reads: the identity, the write-ahead log against the file
(when no bgpi writer holds it), the number of records (:mod:`bgpi.journal.checks`), the
latest match's chain up to the last record, and every match's first record and game ends
(:mod:`bgpi.journal.matches`); reading any match checks its whole chain, from the match
before it to the match after it.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import Final

from bgpi.base.i18n import _
from bgpi.journal.chain import Row, columns, seed
from bgpi.journal.checks import checked_file, identity
from bgpi.journal.file import (
    APPLICATION_ID,
    CorruptJournalError,
    EmptyJournalError,
    ForeignJournalError,
    ForeignWalError,
    JournalError,
    JournalVersionError,
    LockedJournalError,
    NoJournalError,
    WalJournalError,
    at_one_moment,
    check_file,
    connect,
    corrupt,
    create,
    hold,
    named,
    release,
    snapshot,
)
from bgpi.journal.matches import MatchInfo, listing, match_list
from bgpi.journal.records import MatchStarted, Record
from bgpi.journal.rows import check_chain, insert_match, insert_record, read_record, stored_row
from bgpi.journal.schema import CHAINED, MIGRATIONS, migrate, schema_version

# The journal's file name in a state directory: the service, the simulator, the demo and the
# commands that read it all find it by this name.
JOURNAL_NAME: Final = "journal.sqlite"

__all__ = [
    "APPLICATION_ID",
    "JOURNAL_NAME",
    "MIGRATIONS",
    "Check",
    "CorruptJournalError",
    "EmptyJournalError",
    "ForeignJournalError",
    "ForeignWalError",
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

Check = Callable[[list[Record]], object]
"""What a caller asks of the latest match's records before the journal is opened for writing
(that the table replays them, say); a ``ValueError`` refuses the journal as damaged."""


class NoMatchError(JournalError, LookupError):
    """No match with that id, or no match at all yet."""


class Journal:
    """The journal of matches in one SQLite file. Open with :meth:`open`; close (or leave the
    ``with`` block) when done; closing twice is harmless."""

    def __init__(
        self,
        path: Path,
        db: sqlite3.Connection,
        clock: Callable[[], float],
        *,
        journal_id: bytes | None,
        lock: int | None = None,
        closing: Callable[[], None] | None = None,
    ) -> None:
        self.path = path
        self.read_only = lock is None
        self._db: sqlite3.Connection | None = db
        self._clock = clock
        self._lock = lock
        self._closing = closing or db.close
        self._id = journal_id
        self._chained = journal_id is not None  # schema version 3 on

    @classmethod
    def open(
        cls,
        path: str | Path,
        *,
        clock: Callable[[], float] = time.time,
        read_only: bool = False,
        check: Check | None = None,
    ) -> Journal:
        """Open the journal at ``path``, creating it if there is no file, and migrating an
        older schema; ``clock`` stamps each record. A reader (``read_only``) needs the file
        to exist and never writes to it; a writer holds it against other writers until
        closed. A file that is not a sound bgpi journal raises a :class:`JournalError`
        saying what is wrong and what to do, and is left as it was. ``check`` is asked of
        the latest match's records before anything is opened for writing."""
        path = Path(path)
        if not read_only and not path.exists():
            create(path, lambda db: migrate(db, path, fresh=True))
        check_file(path, schema_version())
        lock = None if read_only else hold(path)
        try:
            journal = cls._checked(path, clock, writer=not read_only, check=check)
            if read_only:
                return journal
            journal.close()
            return cls._writer(path, clock, lock)
        except BaseException:
            release(lock)
            raise

    @classmethod
    def _checked(
        cls, path: Path, clock: Callable[[], float], *, writer: bool, check: Check | None
    ) -> Journal:
        """The journal as a reader, through a snapshot (bgpi.journal.file): checked, and
        what a restart reads from it read once, so that any damage is named before a writer
        touches it."""
        view = snapshot(path, writer=writer)
        try:
            version, journal_id = checked_file(view.db, path, wal=view.wal and not view.live_writer)
        except BaseException:
            view.close()
            raise
        journal = cls(path, view.db, clock, journal_id=journal_id, closing=view.close)
        try:
            if version:
                journal.matches()
                records = journal.records()
                if check is not None and records:
                    try:
                        check(records)
                    except ValueError as exc:
                        raise corrupt(f"{path}: {exc}") from None
        except BaseException:
            journal.close()
            raise
        return journal

    @classmethod
    def _writer(cls, path: Path, clock: Callable[[], float], lock: int | None) -> Journal:
        """The writer's connection, once the journal has passed its checks."""
        db = connect(path)
        try:
            db.execute("PRAGMA synchronous = FULL")
            db.execute("PRAGMA foreign_keys = ON")
            migrate(db, path, fresh=False)
            # (A schema older than the chain only where a test writes an old journal.)
            journal_id = identity(db, path) if schema_version() >= CHAINED else None
        except BaseException as exc:
            db.close()
            if isinstance(exc, sqlite3.Error):
                raise named(exc, path) from None
            raise
        return cls(path, db, clock, journal_id=journal_id, lock=lock)

    def close(self) -> None:
        if self._db is not None:
            self._closing()
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
            return insert_match(db, record, stamp, chained=self._chained)

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
            insert_match(db, record, stamp, chained=self._chained)
            return 0
        match_id = self._latest(db)
        (last,) = db.execute(
            "SELECT MAX(seq) FROM records WHERE match_id = ?", (match_id,)
        ).fetchone()
        seq = int(last) + 1
        insert_record(db, match_id, seq, record, stamp, chained=self._chained)
        return seq

    # -- reading -----------------------------------------------------------------------------

    def records(self, match_id: int | None = None) -> list[Record]:
        """The records of a match in order, by default of the latest; none if the journal
        has no match yet. Its chain is checked, from the match before to the one after."""
        found = at_one_moment(self._connection(), self.path, lambda db: self._match(db, match_id))
        if found is None:
            return []
        match_id, rows, around = found
        records = [read_record(self.path, match_id, index, row) for index, row in enumerate(rows)]
        if around is not None:
            check_chain(self.path, match_id, rows, *around)
        return records

    def stamps(self, match_id: int) -> list[float]:
        """When each record of a match was journaled (seconds since the epoch), in order."""
        query = "SELECT at FROM records WHERE match_id = ? ORDER BY seq"
        rows = at_one_moment(
            self._connection(),
            self.path,
            lambda db: db.execute(query, (match_id,)).fetchall(),
        )
        return [float(at) for (at,) in rows]

    def matches(self) -> list[MatchInfo]:
        """Every match in the journal, oldest first; each checked against its first record,
        and each game end against the record before it."""
        chained = self._chained
        ends, starts = at_one_moment(
            self._connection(), self.path, lambda db: listing(db, chained=chained)
        )
        return match_list(self.path, ends, starts, chained=chained)

    # -- internals ---------------------------------------------------------------------------

    def _connection(self) -> sqlite3.Connection:
        if self._db is None:
            raise JournalError(_("{path}: the journal is closed").format(path=self.path))
        return self._db

    def _match(
        self, db: sqlite3.Connection, match_id: int | None
    ) -> tuple[int, list[Row], tuple[bytes | None, Row | None, object] | None] | None:
        """A match's rows (the latest's by default; None if there is no match yet), and what
        its chain runs between."""
        if match_id is None:
            if not self._has_matches(db):
                return None
            match_id = self._latest(db)
        elif db.execute("SELECT 1 FROM matches WHERE id = ?", (match_id,)).fetchone() is None:
            raise NoMatchError(_("{path}: no match {id}").format(path=self.path, id=match_id))
        rows = self._rows(db, "WHERE match_id = ? ORDER BY seq", match_id)
        return match_id, rows, self._around(db, match_id) if self._chained else None

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

    def _rows(self, db: sqlite3.Connection, where: str, match_id: int) -> list[Row]:
        query = f"SELECT {columns(chained=self._chained)} FROM records {where}"
        return [stored_row(self.path, values) for values in db.execute(query, (match_id,))]

    def _around(
        self, db: sqlite3.Connection, match_id: int
    ) -> tuple[bytes | None, Row | None, object]:
        """What a match's chain runs between: the hash of the record before its first (the
        journal's seed before the first match), the record after its last (None after the
        latest match), and the journal's tip."""
        found = db.execute(
            "SELECT hash FROM records WHERE match_id < ? ORDER BY match_id DESC, seq DESC LIMIT 1",
            (match_id,),
        ).fetchone()
        before = found[0] if found is not None else seed(self._id) if self._id else None
        after = self._rows(db, "WHERE match_id > ? ORDER BY match_id, seq LIMIT 1", match_id)
        (tip,) = db.execute("SELECT tip FROM journal").fetchone() or (None,)
        return before, after[0] if after else None, tip
