"""The codec and the firmware's modules under MicroPython itself: its WebAssembly port from npm,
run by ``node``. ``.ci/run`` installs it into ``.node/`` (``npm install --prefix .node
@micropython/micropython-webassembly-pyscript``), where this test finds it; elsewhere
``BGPI_MICROPYTHON_MJS`` names the package's ``micropython.mjs``. On a laptop without either the
test skips with that reason; in CI a skip fails the run (``tests/conftest.py``)."""

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
ROOT = HERE.parents[1]
MJS = os.environ.get(
    "BGPI_MICROPYTHON_MJS",
    str(ROOT / ".node/node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs"),
)


@pytest.mark.skipif(
    not (MJS and Path(MJS).is_file() and shutil.which("node")),
    reason="no MicroPython here: npm install --prefix .node "
    "@micropython/micropython-webassembly-pyscript (or set BGPI_MICROPYTHON_MJS), and node",
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
