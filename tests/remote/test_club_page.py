"""``bgpi sim --club`` on the network publishes the match its journal holds finished, with
the link to its page's ``.mat``: a director's browser that opened the page with its token
gets the same match there; without the token the link is refused (the token is never
published: whoever holds it may use the page)."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bgpi.cli import main
from bgpi.journal.store import Journal
from bgpi.remote.broker import Broker
from bgpi.remote.club import ClubResult, fetch_results, match_key
from tests.remote.conftest import Mosquitto
from tests.web.webclient import get


def test_a_board_serving_its_page_publishes_the_link_to_its_mat(
    mosquitto: Mosquitto, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "bgpi.toml"
    config.write_text(f'[remote]\nbroker = "{mosquitto.url}"\n[players]\nsite = "Club night"\n')
    board = tmp_path / "board"
    assert main(["demo", "--state-dir", str(board), "--seed", "3", "--length", "1"]) == 0
    capsys.readouterr()
    with Journal.open(board / "journal.sqlite", read_only=True) as journal:
        (info,) = journal.matches()
    sim = subprocess.Popen(
        [sys.executable, "-m", "bgpi", "sim", "--config", str(config), "--state-dir", str(board),
         "--host", "0.0.0.0", "--port", "0", "--club", "Evening"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert sim.stdout is not None
        first = sim.stdout.readline()
        address = re.fullmatch(r"bgpi sim: http://(\S+):(\d+)/\?token=(\S+)\n", first)
        assert address, first
        host, port, token = address[1], int(address[2]), address[3]
        results: list[ClubResult] = []
        end = time.monotonic() + 60  # published on a thread of its own once the page is up
        while not results and time.monotonic() < end:
            results = fetch_results(Broker.parse(mosquitto.url), "Evening", quiet=0.3)
        (result,) = results
        assert result.link == f"http://{host}:{port}/match.mat"
        assert result.score == info.score and result.started_at == info.started_at
        assert get(port, "/match.mat")[0] == 403  # the token is not in the link
        status, _, body = get(port, f"/match.mat?token={token}")
        assert status == 200 and match_key(body.decode()) == result.id
        assert body.decode().startswith('; [Site "Club night"]')  # the page: the config's site
        assert result.mat.startswith(f'; [Site "{result.board}"]')  # the club: the board's name
    finally:
        sim.send_signal(signal.SIGINT)
        sim.communicate(timeout=30)
    assert sim.returncode == 0
