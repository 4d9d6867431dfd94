"""The journal's file: made whole, guarded, held by one writer, and its damage named.

Whatever is wrong with the file, the journal says it in one line naming the file, the problem
and what to do, as a :class:`JournalError` (the CLI prints it, exit status 1), and leaves
the file as it is: bgpi never deletes a journal, and a command that only reads it
(``status``, ``export``) opens it read-only.

- A journal is checked through a :class:`Snapshot` before anything may write to it: a
  connection that reads it as SQLite would, its write-ahead log applied, and changes nothing
  on disk. (A writable connection cannot be trusted with a journal about to be refused: the
  last connection to close folds the ``-wal`` into the file and deletes it. Nor can SQLite's
  ``mode=ro`` alone: the first connection to open a journal rebuilds its ``-shm``, and one
  with no ``-wal`` beside it makes an empty one.) So a refused journal, its ``-wal`` and its
  ``-shm`` are left byte for byte as they were, and no file is added.

- A new journal is made under another name and renamed into place once it holds its schema,
  so a power cut never leaves an empty or half-made ``journal.sqlite``; an empty one is
  therefore not bgpi's, and is refused like any other foreign file.
- A writer (``run``, ``demo``, ``sim``) holds an exclusive ``flock`` on the file for as long
  as it has it open, so two of them never interleave their records in one match.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import sqlite3
import struct
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, TypeVar
from urllib.parse import quote

from bgpi.base.errors import BgpiError
from bgpi.base.i18n import N_, _

APPLICATION_ID: Final = int.from_bytes(b"bgpi", "big")
"""SQLite's ``application_id`` of a bgpi journal: the four bytes ``bgpi``."""

_SQLITE_MAGIC: Final = b"SQLite format 3\x00"
_HEADER: Final = 100
_USER_VERSION_AT: Final = 60  # offsets in the database header
_APPLICATION_ID_AT: Final = 68
_BUSY_TIMEOUT: Final = 2.0  # seconds to wait for another process's lock before saying so
_WRITER_WAIT: Final = 0.25  # seconds a writer waits for a reader's glance at its lock to pass
_ATTEMPTS: Final = 10  # reads tried while a writer's commit is under way
_PASSING: Final = frozenset(
    {"SQLITE_READONLY_RECOVERY", "SQLITE_READONLY_CANTINIT", "SQLITE_BUSY_RECOVERY"}
)

# SQLite's locks on a database file (os_unix.c): the pending byte, the reserved byte and the
# shared range after them. A write lock on any of them keeps a reader out.
_PENDING_BYTE: Final = 0x40000000
_LOCK_BYTES: Final = 2 + 510
_FLOCK: Final = struct.Struct("@hhqqi")  # struct flock, with the 64-bit offsets Python uses

T = TypeVar("T")

MOVE_ASIDE: Final = N_("move it aside to start a new journal (bgpi never deletes one)")


class JournalError(BgpiError, OSError):
    """Base of the journal's errors: each is trouble with a file on disk (missing, not a
    journal, damaged, locked, not writable), which is what ``OSError`` stands for, so a
    caller that handles a failing file handles a failing journal too."""


class NoJournalError(JournalError):
    """There is no journal file to read."""


class ForeignJournalError(JournalError):
    """The file is not a bgpi journal: not SQLite, or another program's database."""


class EmptyJournalError(ForeignJournalError):
    """The file is empty: bgpi never leaves a journal so, so it is not one of bgpi's."""


class JournalVersionError(JournalError):
    """The journal was written by a newer bgpi, with a schema this code does not know."""


class CorruptJournalError(JournalError):
    """A bgpi journal whose content cannot be read back."""


class LockedJournalError(JournalError):
    """Another process holds the journal: another bgpi writing it, or a lock SQLite waited
    for in vain."""


class WalJournalError(JournalError):
    """The journal's write-ahead log (``-wal``, with its ``-shm`` index) cannot be applied."""


class ForeignWalError(CorruptJournalError):
    """The write-ahead log beside the journal is not its own: another journal's, or one that
    no longer holds what the journal file does."""


def corrupt(message: str) -> CorruptJournalError:
    """A corrupt journal's error, with what to do about it, in one line."""
    damaged = _("{problem}; the journal is damaged: {what_to_do}")
    problem = " ".join(message.splitlines())  # what SQLite said may hold a line break
    return CorruptJournalError(damaged.format(problem=problem, what_to_do=_(MOVE_ASIDE)))


def check_file(path: Path, known_version: int) -> None:
    """Refuse a file that is not a bgpi journal of a known version, from its header alone:
    reading it opens no connection, so not even a ``-wal`` or ``-shm`` file appears. Wait,
    as SQLite would, while another program holds it locked for writing (a sqlite3 shell's
    exclusive transaction), and refuse it if that lasts."""
    try:
        file = path.open("rb")
    except FileNotFoundError:
        no_journal = _("no journal at {path}: nothing has been played there")
        raise NoJournalError(no_journal.format(path=path)) from None
    except OSError as exc:
        raise _unreadable(path, exc) from None
    with file:
        try:
            header = file.read(_HEADER)
        except OSError as exc:
            raise _unreadable(path, exc) from None
        _wait_for_locks(file.fileno(), path)  # before closing any descriptor of the file
    if not header:
        empty = _("{path} is empty (0 bytes), which a bgpi journal never is: {what_to_do}")
        raise EmptyJournalError(empty.format(path=path, what_to_do=_(MOVE_ASIDE)))
    if len(header) < _HEADER or not header.startswith(_SQLITE_MAGIC):
        foreign = _("{path} is not a SQLite database: {what_to_do}")
        raise ForeignJournalError(foreign.format(path=path, what_to_do=_(MOVE_ASIDE)))
    found = int.from_bytes(header[_APPLICATION_ID_AT : _APPLICATION_ID_AT + 4], "big")
    if found != APPLICATION_ID:
        other = _(
            "{path} is a SQLite database of another application (application id {found}, "
            "bgpi's is {ours}): {what_to_do}"
        )
        raise ForeignJournalError(
            other.format(
                path=path,
                found=f"{found:#x}",
                ours=f"{APPLICATION_ID:#x}",
                what_to_do=_(MOVE_ASIDE),
            )
        )
    # The version can lag behind a write still in the WAL (a newer bgpi that lost power):
    # the caller checks again once connected.
    version = int.from_bytes(header[_USER_VERSION_AT : _USER_VERSION_AT + 4], "big")
    if version > known_version:
        raise JournalVersionError(newer(path, version, known_version))


def newer(path: Path, version: int, known_version: int) -> str:
    return _(
        "{path} has journal schema version {version}; this bgpi knows up to {known}: use a "
        "newer bgpi (the file is left as it is)"
    ).format(path=path, version=version, known=known_version)


def create(path: Path, schema: Callable[[sqlite3.Connection], None]) -> None:
    """Make a new journal at ``path``: built with ``schema`` under a temporary name, put on
    disk, then renamed into place, so ``path`` is never a half-made journal."""
    building = path.with_name(path.name + ".new")
    try:
        # A leftover from a power cut during an earlier creation: it never held a record,
        # since records go only to a journal renamed into place.
        building.unlink(missing_ok=True)
        db = sqlite3.connect(building, isolation_level=None)
    except (OSError, sqlite3.Error) as exc:
        raise JournalError(_cannot_create(path, _why(exc))) from None
    try:
        schema(db)
        db.execute("PRAGMA journal_mode = WAL")  # kept in the file: every later open is WAL
    except sqlite3.Error as exc:
        raise JournalError(_cannot_create(path, str(exc))) from None
    finally:
        db.close()  # the last connection: SQLite folds the WAL back and removes it
    try:
        _sync(building)
        building.replace(path)
        _sync(path.parent)
    except OSError as exc:
        raise JournalError(_cannot_create(path, str(exc.strerror))) from None


def _cannot_create(path: Path, reason: str) -> str:
    return _("cannot create the journal {path}: {reason}").format(path=path, reason=reason)


def _sync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def hold(path: Path) -> int:
    """Take the writer's lock on ``path``; return the descriptor that holds it, to be closed
    only after SQLite's connection (closing any descriptor of the file drops SQLite's own
    POSIX locks on it)."""
    try:
        fd = os.open(path, os.O_RDWR)
    except OSError as exc:
        refused = _("cannot open the journal {path} to write: {reason}; check who owns it")
        raise JournalError(refused.format(path=path, reason=exc.strerror)) from None
    if not _flock(fd, fcntl.LOCK_EX, patience=_WRITER_WAIT):
        os.close(fd)
        in_use = _(
            "{path} is in use by another bgpi (run, demo or sim): stop it first, or give "
            "this one another --state-dir"
        )
        raise LockedJournalError(in_use.format(path=path)) from None
    return fd


def _flock(fd: int, operation: int, *, patience: float = 0.0) -> bool:
    """Take ``flock`` ``operation`` without blocking, trying again for ``patience`` seconds (a
    reader glances at the writer's lock, and lets it go at once); whether it was taken."""
    deadline = time.monotonic() + patience
    while True:
        try:
            fcntl.flock(fd, operation | fcntl.LOCK_NB)
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.01)
        else:
            return True


def release(fd: int | None) -> None:
    if fd is not None:
        with contextlib.suppress(OSError):
            os.close(fd)


def connect(path: Path) -> sqlite3.Connection:
    """A writer's connection to an existing journal, once a :class:`Snapshot` has passed it."""
    try:
        return sqlite3.connect(
            _uri(path, "mode=rw"), uri=True, isolation_level=None, timeout=_BUSY_TIMEOUT
        )
    except sqlite3.Error as exc:
        raise named(exc, path) from None


def _uri(path: Path, query: str) -> str:
    return f"file:{quote(str(path.resolve()))}?{query}"


def sidecar(path: Path, suffix: str) -> Path:
    """The journal's ``-wal`` or ``-shm``."""
    return path.with_name(path.name + suffix)


def _present(path: Path) -> bool:
    return path.exists() or path.is_symlink()


@dataclass
class Snapshot:
    """A connection that reads the journal as SQLite would, its write-ahead log applied, and
    changes nothing on disk (see the module's notes). ``wal``: a write-ahead log stands beside
    the file; ``live_writer``: another bgpi writer holds the journal now, so that log is its
    own (else the journal checks it is, against :func:`main_file`)."""

    db: sqlite3.Connection
    wal: bool
    live_writer: bool
    _copy: tempfile.TemporaryDirectory[str] | None = field(default=None, repr=False)

    def close(self) -> None:
        self.db.close()
        if self._copy is not None:
            self._copy.cleanup()
            self._copy = None


def snapshot(path: Path, *, writer: bool = False) -> Snapshot:
    """A :class:`Snapshot` of the journal at ``path``; ``writer``: this process holds the
    writer's lock on it."""
    attempt = 1
    while True:
        live_writer = not writer and _held_by_writer(path)
        beside = _beside(path)
        try:
            return _snapshot(path, *beside, live_writer=live_writer)
        except sqlite3.Error as exc:
            # Again if a writer came or went meanwhile, or was in the middle of a commit.
            again = _beside(path) != beside or passing(exc)
            if attempt == _ATTEMPTS or not again:
                raise named(exc, path) from None
        time.sleep(0.01 * attempt)
        attempt += 1


def _beside(path: Path) -> tuple[bool, bool]:
    """Whether a ``-wal`` and a ``-shm`` stand beside the journal."""
    return _present(sidecar(path, "-wal")), _present(sidecar(path, "-shm"))


def _snapshot(path: Path, wal: bool, shm: bool, *, live_writer: bool) -> Snapshot:
    if not wal:  # the file alone is the whole journal: read as it stands, nothing made beside
        return Snapshot(_reader(_uri(path, "immutable=1")), wal, live_writer)
    if shm:  # the log's index is read, never rebuilt: SQLite builds a private one if it must
        return Snapshot(_reader(_uri(path, "mode=ro&readonly_shm=1")), wal, live_writer)
    # A log without its index (copied without it?) cannot be read without making one: a
    # private copy of both is read instead.
    copy = tempfile.TemporaryDirectory(prefix="bgpi-journal-")
    try:
        copied = Path(copy.name) / path.name
        _copy(path, copied)
        return Snapshot(_reader(_uri(copied, "mode=ro")), wal, live_writer, copy)
    except BaseException:
        copy.cleanup()
        raise


def _reader(uri: str) -> sqlite3.Connection:
    """A connection to ``uri``, having read the file's header (and so opened its log)."""
    db = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=_BUSY_TIMEOUT)
    try:
        db.execute("PRAGMA user_version").fetchone()
    except BaseException:
        db.close()
        raise
    return db


def _copy(path: Path, to: Path) -> None:
    try:
        shutil.copyfile(path, to)
    except OSError as exc:
        raise _unreadable(path, exc) from None
    try:
        shutil.copyfile(sidecar(path, "-wal"), sidecar(to, "-wal"))
    except OSError as exc:
        raise _stuck_wal(path, _why(exc)) from None


def main_file(path: Path) -> sqlite3.Connection:
    """The journal file alone, its write-ahead log left out: what was last folded into it."""
    return sqlite3.connect(_uri(path, "immutable=1"), uri=True, isolation_level=None)


def _wait_for_locks(fd: int, path: Path) -> None:
    """Wait, as SQLite would, while another program holds the journal locked for writing: a
    :class:`Snapshot` reading the file alone does not see its lock."""
    deadline = time.monotonic() + _BUSY_TIMEOUT
    while (holder := _lock_holder(fd)) is not None:
        if time.monotonic() >= deadline:
            reason = f"process {holder} holds it" if holder > 0 else "database is locked"
            raise LockedJournalError(_locked(path, reason))
        time.sleep(0.05)


def _held_by_writer(path: Path) -> bool:
    """Whether another bgpi writer holds the journal now (so its write-ahead log is live, and
    its own): a glance at the writer's lock, let go at once."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError as exc:
        raise _unreadable(path, exc) from None
    try:
        if not _flock(fd, fcntl.LOCK_SH):
            return True
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    finally:
        os.close(fd)


def _lock_holder(fd: int) -> int | None:
    """The process holding a write lock on SQLite's lock bytes of the file (-1 if unknown),
    None if none does. Asked as an open file description's lock, which sees this process's
    own POSIX locks too (Linux; elsewhere SQLite's own locking is all there is)."""
    command = getattr(fcntl, "F_OFD_GETLK", None)
    if command is None:
        return None
    wanted = _FLOCK.pack(fcntl.F_RDLCK, os.SEEK_SET, _PENDING_BYTE, _LOCK_BYTES, 0)
    found = fcntl.fcntl(fd, command, wanted + bytes(16))
    kind, _whence, _start, _length, pid = _FLOCK.unpack(found[: _FLOCK.size])
    return None if kind == fcntl.F_UNLCK else int(pid)


def at_one_moment(db: sqlite3.Connection, path: Path, read: Callable[[sqlite3.Connection], T]) -> T:
    """``read`` in one read transaction, so that what it reads together is of one moment
    while a writer goes on; SQLite's errors named. Tried again when a writer was half-way
    through updating the log's index as it began: a reader that may not write the index
    cannot wait that out as SQLite's readers do."""
    attempt = 1
    while True:
        try:
            db.execute("BEGIN")
            try:
                return read(db)
            finally:
                if db.in_transaction:
                    db.execute("ROLLBACK")
        except sqlite3.Error as exc:
            if attempt == _ATTEMPTS or not passing(exc):
                raise named(exc, path) from None
        time.sleep(0.01 * attempt)
        attempt += 1


def passing(exc: sqlite3.Error) -> bool:
    """Whether SQLite's error is one a moment later may not give (a writer's commit under way)."""
    return getattr(exc, "sqlite_errorname", "") in _PASSING


def check_integrity(db: sqlite3.Connection, path: Path) -> None:
    """SQLite's quick check of every page: a journal damaged on disk is named at open,
    before a match is resumed over it."""
    problems = [row[0] for row in db.execute("PRAGMA quick_check(3)")]
    if problems != ["ok"]:
        # SQLite heads some of its reports with a line of its own ("*** in database main ***").
        lines = (line for problem in problems for line in str(problem).splitlines())
        reason = "; ".join(line for line in lines if line and not line.startswith("***"))
        raise corrupt(_("{path} is corrupt: {reason}").format(path=path, reason=reason))


def named(exc: sqlite3.Error, path: Path) -> JournalError:
    """The journal error an SQLite error means for the file at ``path``."""
    code = getattr(exc, "sqlite_errorname", "")
    if code.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return LockedJournalError(_locked(path, str(exc)))
    if code.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
        return corrupt(_("{path} is corrupt: {reason}").format(path=path, reason=exc))
    if code.startswith(("SQLITE_CANTOPEN", "SQLITE_IOERR", "SQLITE_READONLY")) and _present(
        sidecar(path, "-wal")
    ):
        return _stuck_wal(path, str(exc))
    if code.startswith("SQLITE_READONLY"):
        read_only = _("cannot write to the journal {path}: {reason}; check who owns it")
        return JournalError(read_only.format(path=path, reason=exc))
    return JournalError(_("cannot open the journal {path}: {reason}").format(path=path, reason=exc))


def _locked(path: Path, reason: str) -> str:
    return _(
        "{path} is locked by another process ({reason}): close whatever holds it (a "
        "sqlite3 shell?) and try again"
    ).format(path=path, reason=reason)


def _stuck_wal(path: Path, reason: str) -> WalJournalError:
    stuck = _(
        "{wal} (the journal's write-ahead log, with its -shm) cannot be applied: {reason}; "
        "let this user read and write both, or move the journal and both of them aside "
        "together (bgpi never deletes one)"
    )
    return WalJournalError(stuck.format(wal=sidecar(path, "-wal"), reason=reason))


def foreign_wal(path: Path) -> ForeignWalError:
    """The error of a write-ahead log that is not the journal's own."""
    foreign = _(
        "{wal} does not belong to {path}: it holds another journal's records, or not the "
        "ones the journal already had; move the journal, its -wal and -shm aside together "
        "(bgpi never deletes one)"
    )
    return ForeignWalError(foreign.format(wal=sidecar(path, "-wal"), path=path))


def _unreadable(path: Path, exc: OSError) -> JournalError:
    unreadable = _("cannot read the journal {path}: {reason}")
    return JournalError(unreadable.format(path=path, reason=_why(exc)))


def _why(exc: BaseException) -> str:
    return exc.strerror or str(exc) if isinstance(exc, OSError) else str(exc)
