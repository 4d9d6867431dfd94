"""Players chosen at the board from the config's roster are the match's: journaled with its
start, written in the ``.mat`` header by ``bgpi export``, which gnubg imports with those
names and the same score, and named by ``bgpi status``."""

from __future__ import annotations

import subprocess
from pathlib import Path

from bgpi.base.words import BLACK, ROLL, WHITE
from bgpi.engine.process import GNUBG
from bgpi.journal.records import MatchStarted
from bgpi.journal.store import Journal
from bgpi.service.app import table_config
from bgpi.service.config import parse
from bgpi.service.resume import unfinished
from bgpi.sim.demo import play_match
from bgpi.sim.simtable import Fresh, SimOptions, SimTable
from bgpi.table.options import Option
from tests.engine.conftest import needs_gnubg
from tests.engine.gnubg_cli import imported_score
from tests.engine.test_director_files import bgpi

pytestmark = needs_gnubg

CONFIG = parse({"players": {"roster": ["Anna", "Ben", "Cleo"], "site": "Club night"}})


def choose_players(sim: SimTable) -> None:
    """At the board: White's player Cleo (three presses of CUBE), Black's Ben (two: Anna,
    then Ben), then ROLL held to start the match."""
    while sim.table.at.option is not Option.WHITE_PLAYER:  # type: ignore[union-attr]
        sim.roll(WHITE)
    for _ in range(3):
        sim.cube(WHITE)
    sim.roll(BLACK)
    for _ in range(2):
        sim.cube(BLACK)
    sim.press(BLACK, ROLL, hold=1.0)


def test_names_chosen_at_the_board_are_the_mat_files_players_in_gnubg(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "journal.sqlite") as journal:
        defaults = MatchStarted(3)
        options = SimOptions(seed=28, roster=CONFIG.players.roster)
        choose_players(SimTable(Fresh(defaults), options=options, journal=journal))
        records = unfinished(table_config(CONFIG), journal)
        assert records and records[0] == MatchStarted(3, names=("Cleo", "Ben"))
        sim = play_match(records, seed=28, journal=journal, say=lambda _: None)
    assert sim.match.match_over
    mat = tmp_path / "match.mat"
    bgpi("export", "--state-dir", tmp_path, "--site", "Club night", "-o", mat)
    header = mat.read_text(encoding="utf-8").splitlines()
    assert header[:4] == [
        '; [Site "Club night"]',
        '; [Match ID "1"]',
        '; [Player 1 "Cleo"]',
        '; [Player 2 "Ben"]',
    ]
    white, black = sim.match.score
    out = imported_score(mat).replace("\n", " ")
    assert f"is: Cleo {white}, Ben {black} (match to 3 points" in out
    info = subprocess.run(
        [GNUBG, "-t", "-q", "-r"],
        input=f"import mat {mat}\nshow matchinfo\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    assert "Cleo (unknown rating) vs. Ben (unknown rating)" in info
    status = bgpi("status", "--state-dir", tmp_path)
    assert "Cleo" in status and "Ben" in status
