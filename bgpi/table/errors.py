"""The table's errors: what it refuses, each also a ``ValueError`` (as the rules' errors are),
so a caller that checks a journal or a shell's event catches bad input either way."""

from __future__ import annotations

from bgpi.base.errors import BgpiError


class TableError(BgpiError, ValueError):
    """A record or an action the table refuses."""


class RecordMismatchError(TableError):
    """A journal's record that does not fit the table its records before it lead to."""
