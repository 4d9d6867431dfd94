"""Exit statuses and the two errors a command raises: 0 done, 1 failed, 2 a usage error."""

from __future__ import annotations

from bgpi.base.errors import BgpiError

OK, FAILED, USAGE = 0, 1, 2


class CommandError(BgpiError, RuntimeError):
    """A command that cannot do its work: the message says why; exit status 1."""


class UsageError(BgpiError, ValueError):
    """An argument that cannot be meant (bad dice, a bad Position ID): exit status 2."""
