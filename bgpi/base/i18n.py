"""The players' language: every sentence a player reads goes through here.

Sentences are marked where they are written and translated where they are shown, so the
language chosen in the config takes effect without re-importing anything: ``_("...")`` at
the point of display, ``N_("...")`` for a sentence defined at import time (a table row, a
constant) that is passed to ``_`` when shown. Placeholders are named
(``_("put {colour}'s checker on the bar").format(colour=...)``) because a translation may
need to put them in another order.

The catalogues are the standard library's gettext ``.mo`` files in ``bgpi/locale``, compiled
from the ``.po`` files beside them (``python scripts/catalogues.py``). :func:`use` chooses the
language: English (the source strings themselves), Finnish, Swedish or Norwegian Bokmål, or
``auto``, the first of those the locale names.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from gettext import GNUTranslations, NullTranslations
from pathlib import Path
from typing import Final

DOMAIN: Final = "bgpi"
LOCALE_DIR: Final = Path(__file__).parents[1] / "locale"
ENGLISH: Final = "en"
LANGUAGES: Final = (ENGLISH, "fi", "sv", "nb")
"""The languages bgpi speaks: English is the source, the others have catalogues."""
AUTO: Final = "auto"
CHOICES: Final = (AUTO, *LANGUAGES)
"""What the config's ``[display] language`` and ``--language`` accept."""

# The environment variables gettext reads, in its order: the first one set decides.
_LOCALE_VARIABLES: Final = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
# Locale names that mean a language bgpi speaks under another code: "no" is the older code
# for Norwegian, and a Nynorsk reader reads Bokmal more easily than English.
_ALIASES: Final = {"no": "nb", "nn": "nb", "c": ENGLISH, "posix": ENGLISH}


@dataclass(slots=True)
class _Current:
    """The catalogue in use: one for the whole process, chosen at start."""

    language: str = ENGLISH
    translations: NullTranslations = NullTranslations()  # noqa: RUF009 (never mutated)


_current = _Current()


def _(message: str) -> str:
    """``message`` in the players' language."""
    return _current.translations.gettext(message)


def N_(message: str) -> str:  # noqa: N802 - the name gettext's tools look for
    """Mark ``message`` for translation without translating it yet."""
    return message


def ngettext(singular: str, plural: str, count: int) -> str:
    """The singular or plural of a sentence about ``count`` things, in the players' language."""
    return _current.translations.ngettext(singular, plural, count)


def language() -> str:
    """The language in use (``en``, ``fi``, ``sv`` or ``nb``)."""
    return _current.language


def from_locale(environ: Mapping[str, str] | None = None) -> str:
    """The language the locale asks for, as gettext reads it: the first of ``LANGUAGE`` (a
    colon-separated list of preferences), ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is
    set; its first entry bgpi speaks (``fi_FI.UTF-8`` is ``fi``), else English."""
    environ = os.environ if environ is None else environ
    value = next((environ[name] for name in _LOCALE_VARIABLES if environ.get(name)), "")
    for entry in value.split(":"):
        code = entry.split(".")[0].split("@")[0].split("_")[0].lower()
        code = _ALIASES.get(code, code)
        if code in LANGUAGES:
            return code
    return ENGLISH


def use(choice: str, environ: Mapping[str, str] | None = None) -> str:
    """Speak ``choice`` from now on (one of :data:`CHOICES`; ``auto``: :func:`from_locale`)
    and return the language chosen. A :class:`ValueError` names the choices otherwise; a
    catalogue missing from the installation is a :class:`FileNotFoundError`."""
    if choice not in CHOICES:
        raise ValueError(f"language {choice!r} is not one of {', '.join(CHOICES)}")
    chosen = from_locale(environ) if choice == AUTO else choice
    translations = NullTranslations()
    if chosen != ENGLISH:
        with open(LOCALE_DIR / chosen / "LC_MESSAGES" / f"{DOMAIN}.mo", "rb") as file:
            translations = GNUTranslations(file)
    _current.language, _current.translations = chosen, translations
    return chosen
