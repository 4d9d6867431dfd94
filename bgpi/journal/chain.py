"""The journal's identity and its records' hash chain: damage is named, never shown as a match.

SQLite's ``application_id`` says a file is a bgpi journal, the same for every journal; so each
journal is also given a random id when it is made, kept in its one-row ``journal`` table. Each
record carries a hash of the hash before it and of its own bytes (its match, number, kind,
time and text), in the order the records were journaled: by match, then by number. The first
record's "before" is the journal's seed, a hash of its id. The ``journal`` row keeps the last
hash (the tip) and the number of records.

So a record changed, moved, lost or taken from another journal breaks the chain where it
stands, and the last records cannot go missing without the tip saying so. The hash guards
against damage, not against a forger: it has no key, so anyone may compute it.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from hashlib import blake2b
from typing import Final

ID_SIZE: Final = 16
DIGEST_SIZE: Final = 16  # for damage, not for an adversary: 128 bits is plenty
_PLACE: Final = struct.Struct(">qqd")  # match, number, time


def columns(*, chained: bool, of: str = "") -> str:
    """A record's columns as :meth:`Row.of` reads them, of the table aliased ``of`` if given:
    the text columns as the bytes on disk (text that is not UTF-8 is then named by the
    journal, not by the database driver); no hash from a journal older than the chain."""
    if of:
        of += "."
    digest = f"{of}hash" if chained else "NULL"
    return (
        f"{of}match_id, {of}seq, CAST({of}kind AS BLOB), {of}at, CAST({of}record AS BLOB), {digest}"
    )


def new_id() -> bytes:
    return os.urandom(ID_SIZE)


def seed(journal_id: bytes) -> bytes:
    """What the journal's first record follows."""
    return blake2b(b"bgpi journal " + journal_id, digest_size=DIGEST_SIZE).digest()


@dataclass(frozen=True, slots=True)
class Row:
    """One record as stored: where it stands, its bytes, and the hash it carries."""

    match_id: int
    seq: int
    kind: bytes
    at: float
    text: bytes
    hash: bytes | None

    @classmethod
    def of(cls, values: Sequence[object]) -> Row:
        """A row from its :func:`columns`; ``ValueError`` if one holds what a journal never
        writes there."""
        match_id, seq, kind, at, text, digest = values
        if not isinstance(match_id, int) or not isinstance(seq, int):
            raise ValueError(f"a record is filed under match {match_id!r}, number {seq!r}")
        if not isinstance(at, int | float) or not isinstance(kind, bytes):
            raise ValueError(f"record {seq} of match {match_id} has a damaged kind or time")
        if not isinstance(text, bytes) or not (digest is None or isinstance(digest, bytes)):
            raise ValueError(f"record {seq} of match {match_id} has a damaged text or hash")
        return cls(match_id, seq, kind, float(at), text, digest)

    def follows(self, previous: bytes | None) -> bool:
        """Whether this row carries the hash it should after the hash ``previous`` (None: the
        record before it has none)."""
        return previous is not None and self.hash == self.after(previous)

    def after(self, previous: bytes) -> bytes:
        """The hash this row should carry after the hash ``previous``."""
        return link(previous, self.match_id, self.seq, self.kind, self.at, self.text)


def link(previous: bytes, match_id: int, seq: int, kind: bytes, at: float, text: bytes) -> bytes:
    """The hash a record carries after the hash ``previous``."""
    digest = blake2b(previous, digest_size=DIGEST_SIZE)
    digest.update(_PLACE.pack(match_id, seq, at))
    digest.update(len(kind).to_bytes(4, "big"))
    digest.update(kind)
    digest.update(text)
    return digest.digest()


def broken(rows: Sequence[Row], before: bytes | None) -> Row | None:
    """The first of ``rows`` (consecutive in the journal) whose hash does not follow the one
    before it, ``before`` being the hash of the record before the first; None if all do."""
    previous: bytes | None = before
    for row in rows:
        if not row.follows(previous):
            return row
        previous = row.hash
    return None
