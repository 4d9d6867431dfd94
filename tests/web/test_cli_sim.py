"""`bgpi sim` from the command line: it prints the address, serves the page until Ctrl-C,
and keeps the match in a journal, in the state directory it is given or the default one."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
from websockets.sync.client import ClientConnection

from bgpi.cli import build_parser
from bgpi.journal.records import MatchStarted
from bgpi.journal.store import JOURNAL_NAME, Journal
from tests.web.webclient import get, receive_until, send, socket

HELD = 1.2  # seconds: past the default long press (0.8 s)


def start(*args: str, home: Path) -> tuple[subprocess.Popen[str], int]:
    """``bgpi sim`` with ``home`` as the XDG state home, so the default state directory is
    the test's own."""
    process = subprocess.Popen(
        [sys.executable, "-m", "bgpi", "sim", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "XDG_STATE_HOME": str(home), "STATE_DIRECTORY": ""},
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    found = re.fullmatch(r"bgpi sim: http://127\.0\.0\.1:(\d+)/\n", line)
    assert found, line + (
        process.stderr.read() if process.poll() is not None and process.stderr else ""
    )
    return process, int(found[1])


def stop(process: subprocess.Popen[str]) -> str:
    process.send_signal(signal.SIGINT)
    process.wait(timeout=20)
    assert process.stdout is not None and process.stderr is not None
    out, err = process.stdout.read(), process.stderr.read()  # what the first readline left
    process.stdout.close()
    process.stderr.close()
    assert process.returncode == 0, err
    return out


def start_the_match(ws: ClientConnection) -> None:
    """The fresh board chooses the match: ROLL held (past the long press) starts the one
    shown, and the board, set up meanwhile, opens the game."""
    receive_until(ws, lambda m: m["type"] == "state" and m["phase"] == "choosing the match")
    send(ws, type="press", player=1, button="roll")
    time.sleep(HELD)  # the simulated clock follows the wall's: a held button is held
    send(ws, type="release", player=1, button="roll")
    receive_until(ws, lambda m: m["type"] == "state" and m["phase"] == "opening")


def test_the_command_line_options() -> None:
    args = build_parser().parse_args(["sim"])
    assert (args.host, args.port, args.seed) == ("127.0.0.1", 8421, None)
    args = build_parser().parse_args(["sim", "--port", "9000", "--host", "0.0.0.0", "--seed", "5"])
    assert (args.host, args.port, args.seed) == ("0.0.0.0", 9000, 5)


def test_bgpi_sim_serves_the_page_until_interrupted(tmp_path: Path) -> None:
    process, port = start("--seed", "23", home=tmp_path)
    try:
        status, _, body = get(port, "/")
        assert status == 200 and b'<svg id="board"' in body
    finally:
        out = stop(process)
    assert "seed 23; Ctrl-C stops" in out


def test_bgpi_sim_keeps_the_match_in_the_state_directory(tmp_path: Path) -> None:
    process, port = start("--seed", "23", "--state-dir", str(tmp_path), home=tmp_path / "x")
    try:
        with socket(port) as ws:
            start_the_match(ws)
            send(ws, type="press", player=0, button="roll")
            receive_until(ws, lambda m: m["type"] == "state" and m["opening"][0] == 3)
    finally:
        stop(process)
    with Journal.open(tmp_path / JOURNAL_NAME) as journal:
        records = journal.records()
    assert isinstance(records[0], MatchStarted) and len(records) == 3  # match, game, die
    process, port = start("--seed", "23", "--state-dir", str(tmp_path), home=tmp_path / "x")
    try:
        with socket(port) as ws:
            state = receive_until(ws, lambda m: m["type"] == "state")
            assert state["opening"] == [3, None] and state["phase"] == "opening"
    finally:
        stop(process)


def test_bgpi_sim_keeps_the_match_in_the_default_state_directory(tmp_path: Path) -> None:
    process, port = start("--seed", "23", "--money", home=tmp_path)
    try:
        with socket(port) as ws:
            start_the_match(ws)
            send(ws, type="press", player=0, button="roll")
            receive_until(ws, lambda m: m["type"] == "state" and m["opening"][0] == 3)
    finally:
        stop(process)
    with Journal.open(tmp_path / "bgpi" / JOURNAL_NAME) as journal:
        records = journal.records()
    assert records[0] == replace(records[0], length=0)  # --money: a money session
    assert len(records) == 3  # match, game, White's opening die


def test_the_match_options_exclude_each_other() -> None:
    assert build_parser().parse_args(["sim", "--length", "7"]).length == 7
    with pytest.raises(SystemExit):
        build_parser().parse_args(["sim", "--length", "7", "--money"])


@pytest.mark.parametrize(("option", "hints"), [("white", {0}), ("black", {1}), ("both", {0, 1})])
def test_hints_are_given_on_the_command_line(option: str, hints: set[int]) -> None:
    from bgpi.cli.simulated import with_hints  # noqa: PLC0415
    from bgpi.service.config import parse  # noqa: PLC0415

    args = build_parser().parse_args(["sim", "--hints", option, "--hint-level", "World Class"])
    config = with_hints(parse({}), args)
    assert config.seats.hints == hints and config.seats.hint_level == "worldclass"


def test_a_wrong_hint_side_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        build_parser().parse_args(["sim", "--hints", "grey"])
    assert stopped.value.code == 2
    assert "--hints: invalid choice: 'grey'" in capsys.readouterr().err
