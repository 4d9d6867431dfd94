"""The codec and the firmware's modules under MicroPython itself, where one is at hand: its
WebAssembly port from npm (``npm install @micropython/micropython-webassembly-pyscript``), named
by ``BGPI_MICROPYTHON_MJS`` (the package's ``micropython.mjs``) and run by ``node``. CI has
neither and skips this; there the mpy-cross test and the CPython runs stand in."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from emulator import SOURCES

from tests.serial.conftest import VECTORS

HERE = Path(__file__).resolve().parent
MJS = os.environ.get("BGPI_MICROPYTHON_MJS", "")


@pytest.mark.skipif(
    not (MJS and Path(MJS).is_file() and shutil.which("node")),
    reason="no MicroPython here: set BGPI_MICROPYTHON_MJS and install node",
)
def test_the_firmware_runs_on_micropython() -> None:
    files = [[f"{name}.py", str(path)] for name, path in SOURCES.items() if name != "main"]
    files.append(["vectors.json", str(VECTORS)])
    result = subprocess.run(
        [
            "node",
            str(HERE / "micropython.mjs"),
            Path(MJS).resolve().as_uri(),
            json.dumps(files),
            str(HERE / "on_micropython.py"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "micropython ok" in result.stdout
