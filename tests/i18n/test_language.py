"""Choosing the players' language: from the config, the command line or the locale."""

from __future__ import annotations

import pytest

from bgpi.base import i18n
from bgpi.base.i18n import CHOICES, Language, _
from bgpi.service.config import ConfigError, parse


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({"LANG": "fi_FI.UTF-8"}, Language.FINNISH),
        ({"LANG": "sv_SE.UTF-8", "LC_ALL": "nb_NO.UTF-8"}, Language.NORWEGIAN),  # LC_ALL first
        ({"LANGUAGE": "de:sv", "LANG": "fi_FI.UTF-8"}, Language.SWEDISH),  # the first spoken
        ({"LC_MESSAGES": "no_NO"}, Language.NORWEGIAN),
        ({"LC_MESSAGES": "nn_NO"}, Language.NORWEGIAN),
        ({"LANG": "C.UTF-8"}, Language.ENGLISH),
        ({"LANG": "de_DE.UTF-8"}, Language.ENGLISH),
        ({}, Language.ENGLISH),
    ],
)
def test_the_locale_names_the_language(environ: dict[str, str], language: Language) -> None:
    assert i18n.from_locale(environ) is language


def test_auto_from_lang_speaks_finnish(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LANGUAGE")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "fi_FI.UTF-8")
    assert i18n.use("auto") is Language.FINNISH
    assert _("internal error: {error}") == "sisäinen virhe: {error}"
    assert i18n.use("en") is Language.ENGLISH
    assert _("internal error: {error}") == "internal error: {error}"


def test_an_unknown_language_names_the_choices() -> None:
    with pytest.raises(ValueError, match=f"'de' is not one of {', '.join(CHOICES)}$"):
        i18n.use("de")


def test_the_config_chooses_the_language() -> None:
    assert parse({"display": {"language": "sv"}}).display.language == "sv"
    assert parse({}).display.language == "auto"
    with pytest.raises(ConfigError) as caught:
        parse({"display": {"language": "de"}}, "bgpi.toml")
    assert str(caught.value).startswith("bgpi.toml: display.language: is 'de', expected one of")
    assert "\n" not in str(caught.value)
