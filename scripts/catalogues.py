"""The translation catalogues: find every sentence the code marks, keep the ``.po`` files in
step with them, and compile the ``.mo`` files bgpi reads at run time.

    python scripts/catalogues.py           # update bgpi/locale/*/LC_MESSAGES/bgpi.po, compile
    python scripts/catalogues.py --check   # list what is missing, untranslated or stale

A sentence is marked by a call with literal arguments: ``_("...")``, ``N_("...")`` or
``ngettext("...", "...", n)`` (:mod:`bgpi.base.i18n`). Updating adds the new sentences to every
catalogue untranslated, keeps the translations of the others and drops those the code no
longer has; a translator then fills in the empty ``msgstr`` lines and runs it again.
Babel (the dev extra) reads and writes the files; bgpi itself needs only ``gettext``.
"""

from __future__ import annotations

import ast
import gettext
import string
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from bgpi.base.i18n import TRANSLATED

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "bgpi"
LOCALE_DIR = PACKAGE / "locale"
MARKERS = {"_": 1, "N_": 1, "ngettext": 2}

Message = str | tuple[str, str]  # a sentence, or a singular and its plural
HEADER = (
    "# The players' language for bgpi: kept by scripts/catalogues.py (README.md, \"The\n"
    "# players' language\"); the translations follow the rule sheets' game words."
)


@dataclass(frozen=True, slots=True)
class Marked:
    message: Message
    where: str  # the module that marks it, relative to the repository


def marked(package: Path = PACKAGE) -> dict[Message, list[str]]:
    """Every message the package marks, in the order first met, with the modules marking it."""
    found: dict[Message, list[str]] = {}
    for path in sorted(package.rglob("*.py")):
        where = str(path.relative_to(REPO))
        for mark in _calls(ast.parse(path.read_text(encoding="utf-8"), str(path)), where):
            found.setdefault(mark.message, [])
            if where not in found[mark.message]:
                found[mark.message].append(where)
    return found


def _calls(tree: ast.AST, where: str) -> Iterator[Marked]:
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
    for node in sorted(calls, key=lambda call: (call.lineno, call.col_offset)):
        if not isinstance(node.func, ast.Name):
            continue
        count = MARKERS.get(node.func.id)
        if count is None or len(node.args) < count:
            continue
        texts = [arg.value for arg in node.args[:count] if isinstance(arg, ast.Constant)]
        if len(texts) != count or not all(isinstance(text, str) for text in texts):
            continue  # _(variable): a message marked elsewhere with N_
        yield Marked(texts[0] if count == 1 else (texts[0], texts[1]), where)


def placeholders(text: str) -> set[str]:
    """The named fields of a ``str.format`` pattern."""
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


def po_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / "bgpi.po"


def mo_path(language: str) -> Path:
    return po_path(language).with_suffix(".mo")


def read(language: str) -> Catalog:
    with po_path(language).open("rb") as file:
        return read_po(file, locale=language, domain="bgpi")


def updated(language: str, messages: dict[Message, list[str]]) -> Catalog:
    """The language's catalogue with exactly ``messages``, the translations kept."""
    old = read(language) if po_path(language).exists() else None
    created = old.creation_date if old else None
    catalog = Catalog(
        locale=language,
        domain="bgpi",
        header_comment=HEADER,
        project="bgpi",
        msgid_bugs_address="",
        creation_date=created,
        revision_date=created,
        language_team=f"bgpi {language}",
        last_translator="the bgpi authors",
        copyright_holder="the bgpi authors",
        version="0.1",
        fuzzy=False,
    )
    for message, modules in messages.items():
        previous = old.get(message) if old else None
        empty: str | tuple[str, str] = "" if isinstance(message, str) else ("", "")
        translation = previous.string if previous is not None else empty
        catalog.add(message, translation, locations=[(module, None) for module in modules])
    return catalog


def compiled(catalog: Catalog) -> bytes:
    buffer = BytesIO()
    write_mo(buffer, catalog)
    return buffer.getvalue()


def problems(language: str, messages: dict[Message, list[str]]) -> list[str]:
    """What is wrong with a language's catalogue: a marked message missing or untranslated,
    a translation whose placeholders differ from the source's, an entry the code no longer
    has, or a ``.mo`` that does not hold the ``.po``."""
    catalog = read(language)
    found = [_problem(language, catalog, message) for message in messages]
    wrong = [problem for problem in found if problem]
    extra = [m.id for m in catalog if m.id and m.id not in messages]
    wrong += [f"{language}: not in the code any more: {message!r}" for message in extra]
    return wrong + _stale(language, catalog)


def _problem(language: str, catalog: Catalog, message: Message) -> str | None:
    entry = catalog.get(message)
    if entry is None:
        return f"{language}: missing: {message!r}"
    sources = (message,) if isinstance(message, str) else message
    forms = (entry.string,) if isinstance(entry.string, str) else entry.string
    if not forms or not all(forms):
        return f"{language}: untranslated: {message!r}"
    for index, form in enumerate(forms):
        source = sources[min(index, len(sources) - 1)]
        if placeholders(form) != placeholders(source):
            return f"{language}: placeholders of {form!r} differ from {source!r}"
    return None


def _stale(language: str, catalog: Catalog) -> list[str]:
    """Every translation of the ``.po`` must read back from the ``.mo``, and nothing else."""
    if not mo_path(language).exists():
        return [f"{language}: {mo_path(language).name} missing: run scripts/catalogues.py"]
    with mo_path(language).open("rb") as file:
        mo = gettext.GNUTranslations(file)
    held = {key for key in mo._catalog if key}  # type: ignore[attr-defined]
    wanted: set[object] = set()
    for entry in catalog:
        if not entry.id or not entry.string:
            continue
        if isinstance(entry.id, str):
            wanted.add(entry.id)
            if mo.gettext(entry.id) != entry.string:
                return [f"{language}: {mo_path(language).name} is stale: run scripts/catalogues.py"]
        else:
            wanted.update((entry.id[0], n) for n in range(len(entry.string)))
            for n, form in enumerate(entry.string):
                if mo._catalog.get((entry.id[0], n)) != form:  # type: ignore[attr-defined]
                    return [f"{language}: {mo_path(language).name} is stale"]
    if held != wanted:
        return [f"{language}: {mo_path(language).name} is stale: run scripts/catalogues.py"]
    return []


def main(argv: list[str]) -> int:
    messages = marked()
    if "--check" in argv:
        wrong = [line for language in TRANSLATED for line in problems(language, messages)]
        print("\n".join(wrong) or f"{len(messages)} messages, every catalogue complete")
        return 1 if wrong else 0
    for language in TRANSLATED:
        catalog = updated(language, messages)
        po_path(language).parent.mkdir(parents=True, exist_ok=True)
        with po_path(language).open("wb") as file:
            write_po(file, catalog, width=100, include_lineno=False)
        mo_path(language).write_bytes(compiled(catalog))
        untranslated = sum(1 for m in catalog if m.id and not all(_forms(m.string)))
        print(f"{language}: {len(messages)} messages, {untranslated} untranslated")
    return 0


def _forms(text: str | tuple[str, ...]) -> tuple[str, ...]:
    return (text,) if isinstance(text, str) else text


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
