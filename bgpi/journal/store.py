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
:data:`MIGRATIONS`, all in one transaction, so an additive table is one more step there. A
reader (``read_only``) never writes to the file, nor to its ``-wal`` or ``-shm``.

Each journal has its own identity and each record a hash chained to the one before it
(:mod:`bgpi.journal.chain`). Opening checks, cheaply, what a restart reads: the identity, the
write-ahead log against the file (when no bgpi writer holds it), the number of records, the
latest match's chain up to the last record, and every match's first record and game ends;
reading any match checks its whole chain, from the match before it to the match after it.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Final

from bgpi.base.i18n import _
from bgpi.base.words import Player
from bgpi.journal.chain import ID_SIZE, Row, broken, columns, link, new_id, seed
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
    check_integrity,
    connect,
    corrupt,
    create,
    foreign_wal,
    hold,
    main_file,
    named,
    newer,
    release,
    snapshot,
)
from bgpi.journal.records import Forfeit, GameEnded, MatchStarted, Record, from_json, to_json

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

Migration = Callable[[sqlite3.Connection], None]
Check = Callable[[list[Record]], object]
"""What a caller asks of the latest match's records before the journal is opened for writing
(that the table replays them, say); a ``ValueError`` refuses the journal as damaged."""


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
_CHAINED: Final = 3  # the schema version that brought them


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
            create(path, lambda db: _migrate(db, path, fresh=True))
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
            version, journal_id = _checked_file(
                view.db, path, wal=view.wal and not view.live_writer
            )
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
            _migrate(db, path, fresh=False)
            # (A schema older than the chain only where a test writes an old journal.)
            journal_id = _identity(db, path) if schema_version() >= _CHAINED else None
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
            return _insert_match(db, record, stamp, chained=self._chained)

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
            _insert_match(db, record, stamp, chained=self._chained)
            return 0
        match_id = self._latest(db)
        (last,) = db.execute(
            "SELECT MAX(seq) FROM records WHERE match_id = ?", (match_id,)
        ).fetchone()
        seq = int(last) + 1
        _insert_record(db, match_id, seq, record, stamp, chained=self._chained)
        return seq

    # -- reading -----------------------------------------------------------------------------

    def records(self, match_id: int | None = None) -> list[Record]:
        """The records of a match in order, by default of the latest; none if the journal
        has no match yet. Its chain is checked, from the match before to the one after."""
        found = at_one_moment(self._connection(), self.path, lambda db: self._match(db, match_id))
        if found is None:
            return []
        match_id, rows, around = found
        records = [self._read(match_id, index, row) for index, row in enumerate(rows)]
        if around is not None:
            self._check_chain(match_id, rows, *around)
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
        ends, starts = at_one_moment(self._connection(), self.path, self._listing)
        scores: dict[int, list[int]] = {}
        games: dict[int, int] = {}
        forfeits: dict[int, Player] = {}  # crossed claims: the last one settled it
        for values in ends:
            row = self._row(values[:-1])
            end = self._read(row.match_id, None, row)
            if not isinstance(end, GameEnded | Forfeit):
                raise corrupt(
                    f"{self.path}: record {row.seq} of match {row.match_id} is filed as a game "
                    f"end but holds {row.text[:60]!r}"
                )
            if self._chained and not row.follows(values[-1]):
                raise self._unchained(row)
            if isinstance(end, Forfeit):
                forfeits[row.match_id] = end.winner
                continue
            scores.setdefault(row.match_id, [0, 0])[end.winner] += end.points
            games[row.match_id] = games.get(row.match_id, 0) + 1
        return [
            MatchInfo(
                match_id,
                started_at,
                length,
                names,
                games.get(match_id, 0),
                _pair(scores.get(match_id, [0, 0])),
                forfeits.get(match_id),
            )
            for match_id, started_at, length, names in map(self._listed, starts)
        ]

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

    def _listing(self, db: sqlite3.Connection) -> tuple[list[Any], list[Any]]:
        """The rows of the match list: the game ends, each with the hash before it, and the
        matches, each with its first record."""
        chained = self._chained
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
        return [self._row(values) for values in db.execute(query, (match_id,))]

    def _row(self, values: Sequence[object]) -> Row:
        try:
            return Row.of(values)
        except ValueError as exc:
            raise corrupt(f"{self.path}: {exc}") from None

    def _read(self, match_id: int, index: int | None, row: Row) -> Record:
        """Parse one stored record; ``index`` is where it should stand in its match."""
        where = f"{self.path}: record {row.seq} of match {match_id}"
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

    def _check_chain(
        self, match_id: int, rows: list[Row], before: bytes | None, after: Row | None, tip: object
    ) -> None:
        """A match's records chain from the record before them to the one after them, or to
        the journal's tip: none changed, lost, moved or another journal's."""
        bad = broken(rows, before)
        if bad is not None:
            raise self._unchained(bad)
        last = rows[-1].hash if rows else before
        if after is not None and not after.follows(last):
            raise corrupt(
                f"{self.path}: match {after.match_id} does not begin where match {match_id} "
                "ends: records are missing or replaced between them"
            )
        if after is None and last != tip:
            raise corrupt(
                f"{self.path}: match {match_id} does not end with the journal's last record: "
                "records are missing or replaced at its end"
            )

    def _unchained(self, row: Row) -> CorruptJournalError:
        return corrupt(
            f"{self.path}: record {row.seq} of match {row.match_id} does not follow the record "
            "before it: it, or that one, was changed, lost or taken from another journal"
        )

    def _listed(self, values: Sequence[object]) -> tuple[int, float, int, tuple[str, str]]:
        """One match as the match list has it, checked against its first record (read as
        JSON only: reading the match itself checks the record in full)."""
        match_id, started_at, length, white, black = values[:5]
        assert isinstance(match_id, int)  # the table's INTEGER PRIMARY KEY
        if values[5] is None:
            raise corrupt(f"{self.path}: match {match_id} has no first record")
        row = self._row(values[5:])
        try:
            names = (_text(white), _text(black))
            first = json.loads(_text(row.text))
        except ValueError:
            raise corrupt(f"{self.path}: match {match_id} or its first record is damaged") from None
        listed = (MatchStarted.kind, length, [*names], started_at)
        said = (
            [first.get(key) for key in ("kind", "length", "names")]
            if isinstance(first, dict)
            else []
        )
        if not isinstance(length, int) or (*said, row.at) != listed:
            raise corrupt(
                f"{self.path}: match {match_id} is listed as {length} points, {names}, "
                "but its first record says otherwise"
            )
        return match_id, row.at, length, names


def _text(value: object) -> str:
    if not isinstance(value, bytes):
        raise ValueError(f"{value!r} is not text")
    return value.decode("utf-8")


def _insert_match(
    db: sqlite3.Connection, record: MatchStarted, stamp: float, *, chained: bool
) -> int:
    cursor = db.execute(
        "INSERT INTO matches (started_at, length, white, black) VALUES (?, ?, ?, ?)",
        (stamp, record.length, *record.names),
    )
    match_id = cursor.lastrowid
    assert match_id is not None
    _insert_record(db, match_id, 0, record, stamp, chained=chained)
    return match_id


def _insert_record(
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


def _pair(values: list[int]) -> tuple[int, int]:
    return values[0], values[1]


def _checked_file(db: sqlite3.Connection, path: Path, *, wal: bool) -> tuple[int, bytes | None]:
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
    if version < _CHAINED:
        return version, None
    journal_id = _identity(db, path)
    (kept,) = db.execute("SELECT records FROM journal").fetchone()
    (found,) = db.execute("SELECT COUNT(*) FROM records").fetchone()
    if kept != found:
        raise corrupt(f"{path} holds {found} records where it wrote {kept}")
    return version, journal_id


def _check_tables(db: sqlite3.Connection, path: Path, version: int) -> None:
    tables = {name for (name,) in db.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")}
    missing = {"matches", "records", *(["journal"] if version >= _CHAINED else [])} - tables
    if missing:
        raise corrupt(f"{path} has no table {', '.join(sorted(missing))}")


def _identity(db: sqlite3.Connection, path: Path) -> bytes:
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
    chained = version >= _CHAINED
    found = db.execute("SELECT id FROM journal").fetchone() if chained else None
    query = f"SELECT {columns(chained=chained)} FROM records "
    if at is None:
        row = db.execute(query + "ORDER BY match_id DESC, seq DESC LIMIT 1").fetchone()
    else:
        row = db.execute(query + "WHERE match_id = ? AND seq = ?", at[:2]).fetchone()
    return (found[0] if found else None), (tuple(row) if row else None)


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
