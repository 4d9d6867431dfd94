"""The house's import rules, checked on the real tree, directly or through another module:

- ``base/`` (the game's words, the frame, the geometry, the language, the error root) is the
  bottom of the house: it imports nothing of bgpi outside itself;
- the pure core (``base``, ``rules``, ``sensing``, ``lights``, ``table``) imports nothing of
  the shell: not the hardware (``hal``), the service, the page, the command line, the engine's
  process or the remote link.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

import bgpi

ROOT = Path(bgpi.__file__).parent
CORE = ("rules", "sensing", "lights", "table", "base")
SHELL = ("hal", "service", "web", "cli", "engine", "remote", "sim", "builder")


def _module(path: Path) -> str:
    if not path.is_relative_to(ROOT.parent):
        return path.stem  # a sample written by a test
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


def _files(*names: str) -> list[Path]:
    files: list[Path] = []
    for name in names:
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


def _broken(files: list[Path], forbidden: Callable[[str], bool]) -> list[str]:
    return [
        f"{_module(path)} reaches {module} through {importer}"
        for path in files
        for module, importer in _reaches(path).items()
        if forbidden(module)
    ]


def _in(module: str, packages: tuple[str, ...]) -> bool:
    return any(module == f"bgpi.{p}" or module.startswith(f"bgpi.{p}.") for p in packages)


def test_the_core_imports_nothing_of_the_shell_even_indirectly() -> None:
    files = _files(*CORE)
    assert len(files) > 10  # the rule is checked on the real tree, not on nothing
    broken = _broken(files, lambda module: _in(module, SHELL))
    assert not broken, "\n".join(broken)


def test_the_bottom_of_the_house_imports_nothing_above_it() -> None:
    files = _files("base")
    assert len(files) >= 6
    broken = _broken(files, lambda module: module != "bgpi" and not _in(module, ("base",)))
    assert not broken, "\n".join(broken)


def test_the_rule_check_sees_an_import_of_hal(tmp_path: Path) -> None:
    # The checker itself must catch a violation, or the test above could never fail.
    sample = tmp_path / "sample.py"
    sample.write_text("from bgpi.base.geometry import Geometry\nimport bgpi.base.words\n")
    assert _imports(sample) == {"bgpi.base.geometry", "bgpi.base.words"}
    reached = _reaches(sample)
    assert reached["bgpi.base.geometry"] == "sample"
    assert reached["bgpi.base.frame"] == "bgpi.base.geometry"  # followed through the re-export


def test_the_rule_check_sees_a_core_module_reach_the_shell(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("from bgpi.service.driver import Driver\n")
    broken = _broken([sample], lambda module: _in(module, SHELL))
    assert "sample reaches bgpi.service.driver through sample" in broken
    assert any("bgpi.hal" in line for line in broken)  # the driver reaches hal in turn
