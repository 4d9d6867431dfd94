"""The rules' error tree. Every error is also a ``ValueError``, so callers that only care
that the input was bad can catch that, and callers that care why can catch the subclass."""

from bgpi.base.errors import BgpiError


class RulesError(BgpiError, ValueError):
    """Base of every error raised by :mod:`bgpi.rules`."""


class InvalidPositionError(RulesError):
    """A position that cannot exist: wrong checker count, both colours on a point, bad ID."""


class InvalidDiceError(RulesError):
    """A roll that is not two dice of 1 to 6."""


class InvalidNotationError(RulesError):
    """Move notation that cannot be read."""


class IllegalPlayError(RulesError):
    """A play that the rules do not allow for this position and roll."""


class AmbiguousPlayError(RulesError):
    """Move notation that fits more than one legal play."""


class InvalidMatchError(RulesError):
    """A match state that cannot exist, or a malformed Match ID."""


class IllegalCubeActionError(RulesError):
    """A cube action (double, take, drop, beaver) that the rules do not allow now."""
