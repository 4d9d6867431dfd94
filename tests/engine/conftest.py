"""The engine tests run Debian's real gnubg where it is installed (CI installs it)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from bgpi.engine import GnubgEngine, Level
from bgpi.engine.process import GNUBG

needs_gnubg = pytest.mark.skipif(
    shutil.which(GNUBG) is None, reason="Debian's gnubg is not installed: apt-get install gnubg"
)


@pytest.fixture(autouse=True)
def _gnubg_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """gnubg started by a test keeps its files out of the user's home."""
    monkeypatch.setenv("HOME", str(tmp_path))


@pytest.fixture
def expert() -> Iterator[GnubgEngine]:
    engine = GnubgEngine(Level.EXPERT, timeout=60)
    yield engine
    engine.close()
