"""gnubg's own answer, asked through its command line (``hint``), as an oracle for the
engine, which asks through gnubg's Python functions."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from bgpi.engine.levels import Level
from bgpi.engine.process import GNUBG

# gnubg's names for its levels, as it prints them after an evaluation.
LABELS = {
    Level.BEGINNER: "beginner",
    Level.CASUAL: "casual player",
    Level.INTERMEDIATE: "intermediate",
    Level.ADVANCED: "advanced",
    Level.EXPERT: "expert",
    Level.WORLDCLASS: "world class",
    Level.SUPREMO: "supremo",
    Level.GRANDMASTER: "grandmaster",
}


def hint(position_id: str, dice: tuple[int, int], level: Level) -> tuple[str, str]:
    """gnubg's best play in a money game at ``level`` and the name gnubg gives the settings."""
    s = level.settings
    commands = [
        "set player 0 human",
        "set player 1 human",
        "set jacoby off",  # as the engine's money game is played here
        "new session",
        f"set evaluation chequerplay evaluation plies {s.plies}",
        f"set evaluation chequerplay evaluation prune {'on' if s.prune else 'off'}",
        f"set evaluation chequerplay evaluation noise {s.noise}",
        *(f"set evaluation movefilter {p} {lv} {a} {e} {t}" for p, lv, a, e, t in s.movefilter),
        f"set board {position_id}",
        f"set dice {dice[0]} {dice[1]}",
        "hint 1",
    ]
    out = subprocess.run(
        [GNUBG, "-t", "-q", "-r"],
        input="\n".join(commands) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    best = re.search(r"^\s+1\. Cubeful \d-ply\s+(.+?)\s+Eq\.", out, re.MULTILINE)
    label = re.search(r"\[([a-z ]+)\]\s*$", out, re.MULTILINE)
    assert best and label, out[-2000:]
    return best.group(1), label.group(1)


def imported_score(mat: Path) -> str:
    """What gnubg's ``show score`` prints after importing the ``.mat`` file ``mat``."""
    return subprocess.run(
        [GNUBG, "-t", "-q", "-r"],
        input=f"import mat {mat}\nshow score\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
