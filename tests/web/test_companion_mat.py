"""The companion page's download is the file ``bgpi export`` writes: XG's header lines (the
config's site, the journal's match number and start, the players), which gnubg imports with
the journal's score."""

from __future__ import annotations

import dataclasses
import threading
import time
from pathlib import Path

import pytest

from bgpi.cli import main
from bgpi.journal.store import Journal
from bgpi.service.app import App
from bgpi.service.config import Config
from bgpi.web.companion import Companion
from tests.engine.conftest import needs_gnubg
from tests.engine.gnubg_cli import imported_score
from tests.web.test_companion import Board
from tests.web.webclient import get

pytestmark = needs_gnubg


def test_the_pages_mat_has_the_export_header_and_gnubg_imports_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "--state-dir", str(tmp_path), "--seed", "5", "--length", "3"]) == 0
    capsys.readouterr()
    with Journal.open(tmp_path / "journal.sqlite", read_only=True) as journal:
        (info,) = journal.matches()
    config = Config()
    config = dataclasses.replace(
        config,
        players=dataclasses.replace(config.players, site="Club night"),
        seats=dataclasses.replace(config.seats, analyse=False),
    )
    board = Board()
    companion = Companion(config, port=0)
    app = App(config, tmp_path, hardware=board.hardware)
    app.observer = companion
    port = companion.start().port
    runner = threading.Thread(target=app.run, name="bgpi-app")
    runner.start()
    try:
        status, body = 404, b""
        end = time.monotonic() + 30  # the app's first step publishes the journal's match
        while status != 200 and time.monotonic() < end:
            status, _, body = get(port, "/match.mat")
            time.sleep(0.05)
    finally:
        app.stop.set()
        runner.join(10)
        companion.close()
    assert status == 200, body
    text = body.decode()
    when = time.localtime(info.started_at)
    assert text.splitlines()[:10] == [
        '; [Site "Club night"]',
        f'; [Match ID "{info.id}"]',
        '; [Player 1 "White"]',
        '; [Player 2 "Black"]',
        f'; [EventDate "{time.strftime("%Y.%m.%d", when)}"]',
        f'; [EventTime "{time.strftime("%H.%M", when)}"]',
        '; [Variation "Backgammon"]',
        '; [Unrated "Off"]',
        '; [Crawford "On"]',
        '; [CubeLimit "64"]',
    ]
    exported = tmp_path / "exported.mat"
    assert (
        main(["export", "--state-dir", str(tmp_path), "--site", "Club night", "-o", str(exported)])
        == 0
    )
    assert exported.read_text(encoding="utf-8") == text  # one header, the same function
    path = tmp_path / "page.mat"
    path.write_bytes(body)
    out = imported_score(path).replace("\n", " ")
    assert f"is: White {info.score[0]}, Black {info.score[1]} (match to 3 points" in out
