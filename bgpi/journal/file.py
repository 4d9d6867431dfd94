"""The journal's file: made whole, guarded, held by one writer, and its damage named.

Whatever is wrong with the file, the journal says it in one line naming the file, the problem
and what to do, as a :class:`JournalError` (the CLI prints it, exit status 1), and leaves
the file as it is: bgpi never deletes a journal, and a command that only reads it
(``status``, ``export``) opens it read-only.

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
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Final
from urllib.parse import quote

from bgpi.base.i18n import N_, _

APPLICATION_ID: Final = int.from_bytes(b"bgpi", "big")
"""SQLite's ``application_id`` of a bgpi journal: the four bytes ``bgpi``."""

_SQLITE_MAGIC: Final = b"SQLite format 3\x00"
_HEADER: Final = 100
_USER_VERSION_AT: Final = 60  # offsets in the database header
_APPLICATION_ID_AT: Final = 68
_BUSY_TIMEOUT: Final = 2.0  # seconds to wait for another process's lock before saying so

MOVE_ASIDE: Final = N_("move it aside to start a new journal (bgpi never deletes one)")


class JournalError(Exception):
    """Base of the journal's errors."""


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


def corrupt(message: str) -> CorruptJournalError:
    """A corrupt journal's error, with what to do about it."""
    damaged = _("{problem}; the journal is damaged: {what_to_do}")
    return CorruptJournalError(damaged.format(problem=message, what_to_do=_(MOVE_ASIDE)))


def check_file(path: Path, known_version: int) -> None:
    """Refuse a file that is not a bgpi journal of a known version, from its header alone:
    reading it opens no connection, so not even a ``-wal`` or ``-shm`` file appears."""
    try:
        with path.open("rb") as file:
            header = file.read(_HEADER)
    except FileNotFoundError:
        no_journal = _("no journal at {path}: nothing has been played there")
        raise NoJournalError(no_journal.format(path=path)) from None
    except OSError as exc:
        unreadable = _("cannot read the journal {path}: {reason}")
        raise JournalError(unreadable.format(path=path, reason=exc.strerror)) from None
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
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        in_use = _(
            "{path} is in use by another bgpi (run, demo or sim): stop it first, or give "
            "this one another --state-dir"
        )
        raise LockedJournalError(in_use.format(path=path)) from None
    return fd


def release(fd: int | None) -> None:
    if fd is not None:
        with contextlib.suppress(OSError):
            os.close(fd)


def connect(path: Path, *, read_only: bool) -> sqlite3.Connection:
    """A connection to an existing journal; a reader's cannot write (``mode=ro``)."""
    uri = f"file:{quote(str(path.resolve()))}?mode={'ro' if read_only else 'rw'}"
    try:
        return sqlite3.connect(uri, uri=True, isolation_level=None, timeout=_BUSY_TIMEOUT)
    except sqlite3.Error as exc:
        raise named(exc, path) from None


def check_integrity(db: sqlite3.Connection, path: Path) -> None:
    """SQLite's quick check of every page: a journal damaged on disk is named at open,
    before a match is resumed over it."""
    problems = [row[0] for row in db.execute("PRAGMA quick_check(3)")]
    if problems != ["ok"]:
        raise corrupt(
            _("{path} is corrupt: {reason}").format(path=path, reason="; ".join(problems))
        )


def named(exc: sqlite3.Error, path: Path) -> JournalError:
    """The journal error an SQLite error means for the file at ``path``."""
    code = getattr(exc, "sqlite_errorname", "")
    wal = path.with_name(path.name + "-wal")
    if code.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        locked = _(
            "{path} is locked by another process ({reason}): close whatever holds it (a "
            "sqlite3 shell?) and try again"
        )
        return LockedJournalError(locked.format(path=path, reason=exc))
    if code.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
        return corrupt(_("{path} is corrupt: {reason}").format(path=path, reason=exc))
    if code.startswith(("SQLITE_CANTOPEN", "SQLITE_IOERR", "SQLITE_READONLY")) and (
        wal.exists() or wal.is_symlink()
    ):
        stuck = _(
            "{wal} (the journal's write-ahead log, with its -shm) cannot be applied: {reason}; "
            "let this user read and write both, or move the journal and both of them aside "
            "together (bgpi never deletes one)"
        )
        return WalJournalError(stuck.format(wal=wal, reason=exc))
    if code.startswith("SQLITE_READONLY"):
        read_only = _("cannot write to the journal {path}: {reason}; check who owns it")
        return JournalError(read_only.format(path=path, reason=exc))
    return JournalError(_("cannot open the journal {path}: {reason}").format(path=path, reason=exc))


def _why(exc: BaseException) -> str:
    return exc.strerror or str(exc) if isinstance(exc, OSError) else str(exc)
