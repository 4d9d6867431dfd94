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
from enum import StrEnum
from gettext import GNUTranslations, NullTranslations
from pathlib import Path
from typing import Final

DOMAIN: Final = "bgpi"
LOCALE_DIR: Final = Path(__file__).parents[1] / "locale"


class Language(StrEnum):
    """The languages bgpi speaks, by their locale code: English is the source, the others
    have catalogues. The one list of them: the config, the command line, the catalogues'
    script and the tests read it here."""

    ENGLISH = "en"
    FINNISH = "fi"
    SWEDISH = "sv"
    NORWEGIAN = "nb"  # Bokmål


TRANSLATED: Final = tuple(language for language in Language if language is not Language.ENGLISH)
"""The languages with a catalogue in ``bgpi/locale``."""
AUTO: Final = "auto"
CHOICES: Final = (AUTO, *Language)
"""What the config's ``[display] language`` and ``--language`` accept."""

# The environment variables gettext reads, in its order: the first one set decides.
_LOCALE_VARIABLES: Final = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
# Locale codes -> the language bgpi speaks for them: each its own, and a few under another
# code: "no" is the older code for Norwegian, and a Nynorsk reader reads Bokmal more easily
# than English.
_SPOKEN: Final = {
    **{language.value: language for language in Language},
    "no": Language.NORWEGIAN,
    "nn": Language.NORWEGIAN,
    "c": Language.ENGLISH,
    "posix": Language.ENGLISH,
}


@dataclass(slots=True)
class _Current:
    """The catalogue in use: one for the whole process, chosen at start."""

    language: Language = Language.ENGLISH
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


def language() -> Language:
    """The language in use."""
    return _current.language


def from_locale(environ: Mapping[str, str] | None = None) -> Language:
    """The language the locale asks for, as gettext reads it: the first of ``LANGUAGE`` (a
    colon-separated list of preferences), ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is
    set; its first entry bgpi speaks (``fi_FI.UTF-8`` is ``fi``), else English."""
    environ = os.environ if environ is None else environ
    value = next((environ[name] for name in _LOCALE_VARIABLES if environ.get(name)), "")
    for entry in value.split(":"):
        code = entry.split(".")[0].split("@")[0].split("_")[0].lower()
        if code in _SPOKEN:
            return _SPOKEN[code]
    return Language.ENGLISH


def use(choice: str, environ: Mapping[str, str] | None = None) -> Language:
    """Speak ``choice`` from now on (one of :data:`CHOICES`; ``auto``: :func:`from_locale`)
    and return the language chosen. A :class:`ValueError` names the choices otherwise; a
    catalogue missing from the installation is a :class:`FileNotFoundError`."""
    if choice not in CHOICES:
        raise ValueError(f"language {choice!r} is not one of {', '.join(CHOICES)}")
    chosen = from_locale(environ) if choice == AUTO else Language(choice)
    translations = NullTranslations()
    if chosen is not Language.ENGLISH:
        with open(LOCALE_DIR / chosen / "LC_MESSAGES" / f"{DOMAIN}.mo", "rb") as file:
            translations = GNUTranslations(file)
    _current.language, _current.translations = chosen, translations
    return chosen
