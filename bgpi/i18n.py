"""The players' language: every sentence a player reads goes through here.

Sentences are marked where they are written and translated where they are shown, so the
language chosen in the config takes effect without re-importing anything: ``_("...")`` at
the point of display, ``N_("...")`` for a sentence defined at import time (a table row, a
constant) that is passed to ``_`` when shown. Placeholders are named
(``_("put {colour}'s checker on the bar").format(colour=...)``) because a translation may
need to put them in another order.
"""

from __future__ import annotations

from gettext import NullTranslations

_active: NullTranslations = NullTranslations()


def _(message: str) -> str:
    """``message`` in the players' language."""
    return _active.gettext(message)


def N_(message: str) -> str:  # noqa: N802 - the name gettext's tools look for
    """Mark ``message`` for translation without translating it yet."""
    return message


def ngettext(singular: str, plural: str, count: int) -> str:
    """The singular or plural of a sentence about ``count`` things, in the players' language."""
    return _active.ngettext(singular, plural, count)
