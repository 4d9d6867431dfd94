"""Every sentence the code marks has a translation in every catalogue, with the same
placeholders, and the compiled ``.mo`` files hold exactly the ``.po`` files."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from bgpi.base.i18n import TRANSLATED
from tests.i18n.catalogues import load

catalogues = load()


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_marked_message_is_translated(language: str) -> None:
    messages = catalogues.marked()
    assert len(messages) > 1
    assert catalogues.problems(language, messages) == []


def test_the_marks_are_found_in_the_source(tmp_path: Path) -> None:
    package = tmp_path / "bgpi"
    package.mkdir()
    (package / "m.py").write_text(
        'A = N_("a row")\n'
        "def f(n, x):\n"
        '    print(_("{n} checkers").format(n=n), _(x), ngettext("one", "{n} many", n))\n'
        '    return _("a row")\n'
    )
    catalogues.REPO = tmp_path
    try:
        found = catalogues.marked(package)
    finally:
        catalogues.REPO = Path(catalogues.__file__).resolve().parents[1]
    assert list(found) == ["a row", "{n} checkers", ("one", "{n} many")]


def test_a_missing_untranslated_or_misplaced_translation_is_named() -> None:
    catalog = Catalog(locale="fi")
    catalog.add("put {colour}'s checker on the bar", "laita {väri} palkille")
    catalog.add("roll", "")
    catalog.add(("one move", "{n} moves"), ("yksi siirto", "{n} siirtoa"))
    problem = catalogues._problem
    assert "placeholders" in problem("fi", catalog, "put {colour}'s checker on the bar")
    assert "untranslated" in problem("fi", catalog, "roll")
    assert "missing" in problem("fi", catalog, "double")
    assert problem("fi", catalog, ("one move", "{n} moves")) is None


def test_a_po_changed_without_compiling_is_stale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    locale = tmp_path / "locale"
    shutil.copytree(catalogues.LOCALE_DIR, locale)
    monkeypatch.setattr(catalogues, "LOCALE_DIR", locale)
    messages = catalogues.marked()
    assert catalogues.problems("sv", messages) == []
    po = catalogues.po_path("sv")
    text = po.read_text(encoding="utf-8")
    po.write_text(text.replace('msgstr "internt fel: {error}"', 'msgstr "fel: {error}"'))
    assert any("stale" in line for line in catalogues.problems("sv", messages))


def test_no_translating_module_uses_the_underscore_as_a_throwaway_name() -> None:
    """``_, x = f()`` in a module that translates makes ``_("...")`` fail at run time, in
    whichever function shadows it; the tests may never reach that line."""
    shadowing = []
    for path in sorted(catalogues.PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imports = any(
            isinstance(node, ast.ImportFrom)
            and node.module == "bgpi.base.i18n"
            and any(alias.name == "_" for alias in node.names)
            for node in ast.walk(tree)
        )
        bound = [
            node.lineno
            for node in ast.walk(tree)
            if (isinstance(node, ast.Name) and node.id == "_" and isinstance(node.ctx, ast.Store))
            or (isinstance(node, ast.arg) and node.arg == "_")
        ]
        if imports and bound:
            shadowing.append(f"{path.relative_to(catalogues.REPO)}: lines {bound}")
    assert shadowing == []
