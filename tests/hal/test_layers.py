"""The house's import rule: the pure core (rules, sensing, lights, the table and the words at
the bottom) imports nothing of the hardware layer, directly or through another module."""

from __future__ import annotations

import ast
from pathlib import Path

import bgpi

ROOT = Path(bgpi.__file__).parent
CORE = ("rules", "sensing", "lights", "table", "base")


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _path(module: str) -> Path | None:
    base = ROOT.parent.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.exists():
            return candidate
    return None


def _imports(path: Path) -> set[str]:
    """The bgpi modules ``path`` imports (a ``from pkg import name`` counts pkg.name when that
    is a module, else pkg)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(
                f"{node.module}.{alias.name}"
                for alias in node.names
                if _path(f"{node.module}.{alias.name}")
            )
    return {name for name in found if name == "bgpi" or name.startswith("bgpi.")}


def _core_files() -> list[Path]:
    files: list[Path] = []
    for name in CORE:
        path = ROOT / name
        assert path.exists(), f"{path} moved: name the core's new place in CORE"
        files.extend(sorted(path.rglob("*.py")) if path.is_dir() else [path])
    return files


def _reaches(start: Path) -> dict[str, str]:
    """Every bgpi module ``start`` imports, directly or not: module -> the module importing it."""
    seen: dict[str, str] = {}
    todo = [(start, start.stem)]
    while todo:
        path, name = todo.pop()
        for imported in _imports(path):
            if imported in seen:
                continue
            seen[imported] = name
            target = _path(imported)
            if target is not None:
                todo.append((target, imported))
    return seen


def test_the_core_imports_nothing_of_hal_even_indirectly() -> None:
    files = _core_files()
    assert len(files) > 10  # the rule is checked on the real tree, not on nothing
    broken = []
    for path in files:
        for module, importer in _reaches(path).items():
            if module == "bgpi.hal" or module.startswith("bgpi.hal."):
                broken.append(f"{_module(path)} reaches {module} through {importer}")
    assert not broken, "\n".join(broken)


def test_the_rule_check_sees_an_import_of_hal(tmp_path: Path) -> None:
    # The checker itself must catch a violation, or the test above could never fail.
    sample = tmp_path / "sample.py"
    sample.write_text("from bgpi.base.geometry import Geometry\nimport bgpi.base.words\n")
    assert _imports(sample) == {"bgpi.base.geometry", "bgpi.base.words"}
    reached = _reaches(sample)
    assert reached["bgpi.base.geometry"] == "sample"
    assert reached["bgpi.base.frame"] == "bgpi.base.geometry"  # followed through the re-export
