"""The catalogues speak the players' own backgammon words: wherever an English sentence uses a
game term, its translation uses the word the glossary (``bgpi/locale/glossary.toml``) takes
from the rule sheets, and no translation uses a rendering the glossary knows to be wrong."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog

from tests.i18n.catalogues import load

catalogues = load()
GLOSSARY = catalogues.LOCALE_DIR / "glossary.toml"
LANGUAGES = catalogues.TRANSLATED
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
BUTTONS = re.compile(r"\b(ROLL|CUBE)\b")  # the buttons' printed names, not game terms


@dataclass(frozen=True, slots=True)
class Avoid:
    pattern: re.Pattern[str]
    why: str


@dataclass(frozen=True, slots=True)
class Word:
    word: str
    stems: tuple[str, ...]
    source: str
    avoid: tuple[Avoid, ...]


@dataclass(frozen=True, slots=True)
class Term:
    english: str
    trigger: re.Pattern[str]
    words: dict[str, Word]


def read_glossary(path: Path = GLOSSARY) -> list[Term]:
    with path.open("rb") as file:
        data = tomllib.load(file)
    return [_term(entry) for entry in data["term"]]


def _term(entry: dict[str, Any]) -> Term:
    words = {
        language: Word(
            word=entry[language]["word"],
            stems=tuple(entry[language]["stems"]),
            source=entry[language]["source"],
            avoid=tuple(
                Avoid(re.compile(avoid["pattern"], re.IGNORECASE), avoid["why"])
                for avoid in entry[language].get("avoid", ())
            ),
        )
        for language in LANGUAGES
        if language in entry
    }
    return Term(entry["english"], re.compile(entry["trigger"], re.IGNORECASE), words)


def pairs(catalog: Catalog) -> Iterator[tuple[str, str]]:
    """Each English sentence with its translation, a plural's forms each with its own English
    form; untranslated sentences are test_catalogues.py's to name."""
    for entry in catalog:
        if not entry.id:
            continue
        sources = (entry.id,) if isinstance(entry.id, str) else entry.id
        forms = (entry.string,) if isinstance(entry.string, str) else entry.string
        for index, form in enumerate(forms):
            if form:
                yield sources[min(index, len(sources) - 1)], form


def unused(terms: list[Term], language: str, catalog: Catalog) -> list[str]:
    """Every translation of a sentence using a term that lacks the glossary's word for it."""
    found = []
    for english, translation in pairs(catalog):
        said = BUTTONS.sub("", PLACEHOLDER.sub("#", english))
        plain = PLACEHOLDER.sub("", translation).casefold()
        for term in terms:
            word = term.words[language]
            if term.trigger.search(said) and not any(s.casefold() in plain for s in word.stems):
                found.append(f"{term.english} is {word.word!r}: {english!r} -> {translation!r}")
    return found


def wrong(terms: list[Term], language: str, catalog: Catalog) -> list[str]:
    """Every translation using a rendering the glossary knows to be wrong, and why."""
    avoids = [avoid for term in terms for avoid in term.words[language].avoid]
    return [
        f"{translation!r} ({english!r}): {avoid.why}"
        for english, translation in pairs(catalog)
        for avoid in avoids
        if avoid.pattern.search(translation)
    ]


terms = read_glossary()


def test_every_term_has_a_word_its_stems_and_a_source_in_every_language() -> None:
    def complete(word: Word | None) -> bool:
        return bool(word and word.word and word.source and word.stems and all(word.stems))

    missing = [
        f"{term.english}: {language}"
        for term in terms
        for language in LANGUAGES
        if not complete(term.words.get(language))
    ]
    assert len(terms) > 20
    assert missing == []


def test_no_glossary_word_is_one_of_its_own_wrong_renderings() -> None:
    clashes = [
        f"{term.english}: {language} {word.word!r} matches {avoid.pattern.pattern!r}"
        for term in terms
        for language, word in term.words.items()
        for other in terms
        for avoid in other.words[language].avoid
        if avoid.pattern.search(word.word)
    ]
    assert clashes == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_where_the_english_says_a_game_term_the_translation_says_the_players_word(
    language: str,
) -> None:
    assert unused(terms, language, catalogues.read(language)) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_translation_uses_a_known_wrong_rendering(language: str) -> None:
    assert wrong(terms, language, catalogues.read(language)) == []


def test_a_translation_with_the_wrong_word_is_named_and_the_right_one_passes() -> None:
    catalog = Catalog(locale="fi")
    catalog.add("point {number}", "piste {number}")
    catalog.add(("a checker one pip too far", "{n} pips"), ("nappula liian pitkälle", "{n} kiilaa"))
    catalog.add("{length}-point match", "{length} pisteen ottelu")  # a point of the score
    catalog.add("{count} legal play of {roll}:", "")  # untranslated: not this test's to name
    assert unused(terms, "fi", catalog) == [
        "point is 'kiila': 'point {number}' -> 'piste {number}'",
        "pip is 'pipsi (a count), kiila (a distance)': "
        "'a checker one pip too far' -> 'nappula liian pitkälle'",
    ]
    assert wrong(terms, "fi", catalog) == [
        "'piste {number}' ('point {number}'): piste is a point of the score; the triangle is kiila"
    ]
    mended = Catalog(locale="fi")
    mended.add("point {number}", "kiila {number}")
    mended.add(
        ("a checker one pip too far", "{n} pips"), ("nappula kiilan liian pitkälle", "{n} kiilaa")
    )
    assert unused(terms, "fi", mended) == []
    assert wrong(terms, "fi", mended) == []


def test_neither_a_placeholder_nor_a_button_name_is_a_term_or_its_word() -> None:
    catalog = Catalog(locale="sv")
    catalog.add("{count} legal play of {roll}:", "{count} tillåtet drag med {roll}:")
    catalog.add("CUBE changes it", "CUBE ändrar den")  # the button, not the doubling cube
    catalog.add("bar: {white_bar}", "mur: {white_bar}")
    catalog.add("bar {white_bar}", "{white_bar}")  # the placeholder's name is not the word
    assert unused(terms, "sv", catalog) == ["bar is 'bar': 'bar {white_bar}' -> '{white_bar}'"]
