"""A board's remote messages on disk: every message it sent or took, and its secrets.

Next to the match's journal in the state directory, one SQLite file per pairing and side.
A message is written here before it is published (and a secret before its commitment), so
after a power cut the board says nothing different from what it already said: it rebuilds
its session from this file and the other board resends what it missed.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from types import TracebackType

from bgpi.base.words import Player
from bgpi.remote.pairing import Pairing, side_name
from bgpi.remote.session import Session

_SCHEMA = """
CREATE TABLE IF NOT EXISTS message (
    direction TEXT NOT NULL CHECK (direction IN ('sent', 'received')),
    seq INTEGER NOT NULL,
    raw BLOB NOT NULL,
    PRIMARY KEY (direction, seq)
);
CREATE TABLE IF NOT EXISTS secret (draw INTEGER PRIMARY KEY, secret BLOB NOT NULL);
"""


def log_path(state_dir: Path, pairing: Pairing, side: Player) -> Path:
    return state_dir / f"remote-{pairing.room[:12]}-{side_name(side)}.sqlite"


class MessageLog:
    """The messages and secrets of one board in one pairing."""

    def __init__(self, path: Path | str) -> None:
        self.path = str(path)
        self._db = sqlite3.connect(path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")  # a power cut keeps what was written
        self._db.executescript(_SCHEMA)
        self._written = {"sent": self._count("sent"), "received": self._count("received")}

    def __enter__(self) -> MessageLog:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()

    def _count(self, direction: str) -> int:
        row = self._db.execute("SELECT COUNT(*) FROM message WHERE direction = ?", (direction,))
        return int(row.fetchone()[0])

    def messages(self, direction: str) -> list[bytes]:
        rows = self._db.execute(
            "SELECT raw FROM message WHERE direction = ? ORDER BY seq", (direction,)
        )
        return [bytes(raw) for (raw,) in rows]

    def secrets(self) -> dict[int, bytes]:
        return {int(d): bytes(s) for d, s in self._db.execute("SELECT draw, secret FROM secret")}

    def keep_secret(self, draw: int, secret: bytes) -> None:
        self._db.execute("INSERT OR IGNORE INTO secret VALUES (?, ?)", (draw, secret))

    def sync(self, session: Session) -> None:
        """Write the messages the session sent or took since the last sync."""
        self._db.execute("BEGIN IMMEDIATE")
        for direction, raws in (("sent", session.sent), ("received", session.received)):
            start = self._written[direction]
            self._db.executemany(
                "INSERT INTO message VALUES (?, ?, ?)",
                [(direction, seq, raw) for seq, raw in enumerate(raws[start:], start + 1)],
            )
        self._db.execute("COMMIT")
        self._written = {"sent": len(session.sent), "received": len(session.received)}

    @property
    def empty(self) -> bool:
        return not (self._written["sent"] or self._written["received"])
