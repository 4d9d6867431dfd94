"""scripts/pi_emulated.sh's own arguments (CI runs the whole of it: .ci/run)."""

from __future__ import annotations

import subprocess

import pytest

from tests.deploy.fakesystem import REPO

SCRIPT = REPO / "scripts" / "pi_emulated.sh"


@pytest.mark.parametrize("args", [[], ["sparc"], ["arm64", "armhf"]])
def test_anything_but_one_pi_architecture_is_refused_before_anything_is_done(
    args: list[str],
) -> None:
    result = subprocess.run(
        ["bash", str(SCRIPT), *args], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 2
    assert result.stderr == "usage: scripts/pi_emulated.sh arm64|armhf\n"
    assert result.stdout == ""
