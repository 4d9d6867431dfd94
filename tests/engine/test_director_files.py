"""The files a director uses: a seeded demo's journal exported by ``bgpi export`` as a
``.mat`` with XG's header lines, which gnubg imports with the same score, the site, the
players and the date; and as gnubg's own SGF, saved by gnubg. ``bgpi status`` prints the
XGID beside gnubg's IDs."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from bgpi.journal.export import MatHeader, export_mat
from bgpi.journal.records import MatchStarted
from bgpi.journal.store import Journal
from bgpi.sim.demo import play_match
from tests.engine.conftest import needs_gnubg
from tests.engine.gnubg_cli import imported_score

pytestmark = needs_gnubg


def bgpi(*args: str | Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "bgpi", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_gnubg_imports_the_headed_mat_with_the_same_score_site_and_date(tmp_path: Path) -> None:
    start = MatchStarted(5, names=("Ann Lee", "Bo"))
    sim = play_match(start, seed=28, say=lambda _: None)
    when = time.mktime((2026, 3, 14, 19, 30, 0, 0, 0, -1))
    text = export_mat(sim.driver.log, MatHeader("Helsinki BG Club", 12, when))
    assert text.splitlines()[:11] == [
        '; [Site "Helsinki BG Club"]',
        '; [Match ID "12"]',
        '; [Player 1 "Ann_Lee"]',
        '; [Player 2 "Bo"]',
        '; [EventDate "2026.03.14"]',
        '; [EventTime "19.30"]',
        '; [Variation "Backgammon"]',
        '; [Unrated "Off"]',
        '; [Crawford "On"]',
        '; [CubeLimit "64"]',
        "",
    ]
    path = tmp_path / "match.mat"
    path.write_text(text, encoding="utf-8")
    out = imported_score(path).replace("\n", " ")
    white, black = sim.match.score
    assert f"is: Ann_Lee {white}, Bo {black} (match to 5 points)" in out
    info = subprocess.run(
        ["/usr/games/gnubg", "-t", "-q", "-r"],
        input=f"import mat {path}\nshow matchinfo\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    assert "Ann_Lee (unknown rating) vs. Bo (unknown rating), 2026-03-14" in info
    assert "Place: Helsinki BG Club" in info


def test_bgpi_export_writes_gnubgs_sgf_and_status_prints_the_xgid(tmp_path: Path) -> None:
    bgpi("demo", "--state-dir", tmp_path, "--seed", "5", "--length", "3")
    with Journal.open(tmp_path / "journal.sqlite", read_only=True) as journal:
        (info,) = journal.matches()
    sgf = bgpi("export", "--state-dir", tmp_path, "--format", "sgf", "--site", "Club night")
    assert sgf.startswith("(;FF[4]GM[6]")
    assert "PC[Club night]" in sgf
    assert "MI[length:3]" in sgf
    day = time.strftime("%Y-%m-%d", time.localtime(info.started_at))
    assert f"DT[{day}]" in sgf
    winner = "W" if info.score[0] > info.score[1] else "B"
    assert f"RE[{winner}+" in sgf  # gnubg replayed the match to the same winner
    mat = bgpi("export", "--state-dir", tmp_path)
    assert mat.startswith('; [Site "bgpi"]\n; [Match ID "1"]\n')
    status = bgpi("status", "--state-dir", tmp_path).splitlines()
    ids = [line.split(":")[0] for line in status if line.startswith(("Position ID", "Match ID"))]
    after = status.index(next(line for line in status if line.startswith("Match ID"))) + 1
    assert ids == ["Position ID", "Match ID"] and status[after].startswith("XGID=")


def test_gnubg_imports_a_timed_export_as_the_same_match(tmp_path: Path) -> None:
    ticks = iter(range(1_780_000_000, 1_780_100_000, 7))  # the journal stamps a step 7 s on
    with Journal.open(tmp_path / "journal.sqlite", clock=lambda: float(next(ticks))) as journal:
        sim = play_match(
            MatchStarted(3, names=("Ann", "Bo")), seed=9, journal=journal, say=lambda _: None
        )
    timed = tmp_path / "timed.mat"
    bgpi("export", "--state-dir", tmp_path, "--times", "-o", timed)
    comments = [line for line in timed.read_text().splitlines() if line.startswith("; Game ")]
    assert comments and all(" 7.0s" in line or " 14.0s" in line for line in comments)
    white, black = sim.match.score
    out = imported_score(timed).replace("\n", " ")
    assert f"is: Ann {white}, Bo {black} (match to 3 points" in out
