"""gnubg's own SGF of a match: the ``.mat`` text imported into gnubg and saved again, so the
file is exactly what gnubg writes (its ``GM[6]`` dialect, which gnubg and other programs
read back), not a second writer of the format here."""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path
from typing import Final

from bgpi.engine.api import EngineError
from bgpi.engine.process import find_gnubg

_TIMEOUT: Final = 120.0  # seconds: gnubg's start and a long match's import


def sgf_of(mat: str, program: str | None = None, *, timeout: float = _TIMEOUT) -> str:
    """The SGF gnubg saves after importing the ``.mat`` text ``mat``; :class:`EngineError`
    when gnubg is missing, fails or writes nothing."""
    gnubg = find_gnubg(program)
    with tempfile.TemporaryDirectory(prefix="bgpi-sgf-") as folder:
        source, target = Path(folder) / "match.mat", Path(folder) / "match.sgf"
        source.write_text(mat, encoding="utf-8")
        # gnubg's command line quotes a file name with spaces in double quotes.
        commands = f'import mat "{source}"\nsave match "{target}"\n'
        try:
            done = subprocess.run(
                [gnubg, "-t", "-q", "-r"],
                input=commands,
                capture_output=True,
                text=True,
                timeout=timeout,
                cwd=folder,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise EngineError(f"gnubg did not save the SGF within {timeout:g} s") from None
        if not target.exists():
            last = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
            raise EngineError(f"gnubg saved no SGF (exit {done.returncode}): {last[0]}")
        return target.read_text(encoding="utf-8")
