"""The companion page shows gnubg's analysis of the match, as stored beside it."""

from __future__ import annotations

import threading
from pathlib import Path

from bgpi.engine.analysis import AnalysisStore, report
from bgpi.journal.store import JOURNAL_NAME, Journal
from bgpi.service.app import App
from bgpi.service.config import Config
from bgpi.web.companion import Companion
from tests.engine.samples import SAMPLE
from tests.web.test_companion import Board
from tests.web.webclient import receive_until, socket


def test_the_page_shows_the_stored_analysis_of_the_match(tmp_path: Path) -> None:
    config = Config()
    with Journal.open(tmp_path / JOURNAL_NAME) as journal:
        match_id = journal.new_match(config.match_record())
    AnalysisStore(tmp_path / JOURNAL_NAME).put(match_id, 1, "gnubg expert", SAMPLE)
    board = Board()
    companion = Companion(config, port=0)
    app = App(config, tmp_path, hardware=board.hardware)
    app.observer = companion
    address = companion.start()
    runner = threading.Thread(target=app.run, name="bgpi-app")
    runner.start()
    try:
        with socket(address.port) as ws:
            state = receive_until(ws, lambda m: m["type"] == "state")
    finally:
        app.stop.set()
        runner.join(10)
        companion.close()
    assert state["analysis"] == report(SAMPLE)
    assert state["analysis"][0] == "analysed by gnubg expert"
