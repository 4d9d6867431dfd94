"""A journal that names its damage: every command, given a journal that is not SQLite, empty,
corrupt, from a newer bgpi, locked, or with a write-ahead log that cannot be applied, says
so in one line naming the file, exits with status 1, leaves the file as it was, and never
starts a new match over it; ``bgpi run`` shows the fault on the LEDs until stopped."""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bgpi.journal.records import GameStarted, MatchStarted, OpeningRolled, Rolled
from bgpi.journal.store import JOURNAL_NAME, Journal
from bgpi.lights.render import render
from bgpi.lights.scene import Alert, Scene
from bgpi.service.app import App
from bgpi.service.config import Config
from tests.shell.matches import play_match
from tests.shell.test_app import SimHardware

ENV = {**os.environ, "PYTHONUNBUFFERED": "1"}


def a_journal(path: Path) -> None:
    with Journal.open(path) as journal:
        journal.append_all(play_match(5, MatchStarted(7))[:150])


def not_sqlite(path: Path) -> None:
    path.write_text("x\n")


def empty(path: Path) -> None:
    path.touch()


def corrupt(path: Path) -> None:
    a_journal(path)
    size = path.stat().st_size
    with path.open("r+b") as file:
        file.seek(size - 2 * 4096)
        file.write(b"\xa5" * 4096)


def newer(path: Path) -> None:
    a_journal(path)
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 99")
    db.close()


def unappliable_wal(path: Path) -> None:
    a_journal(path)
    path.with_name(path.name + "-wal").mkdir()


def does_not_fit(path: Path) -> None:
    with Journal.open(path) as journal:
        journal.append_all([MatchStarted(5), GameStarted(), OpeningRolled(3, 1), Rolled(0, (6, 6))])


DAMAGE: dict[str, tuple[Callable[[Path], None], str]] = {
    "not SQLite": (not_sqlite, "is not a SQLite database: move it aside"),
    "empty": (empty, r"is empty \(0 bytes\)"),
    "corrupt": (corrupt, "is corrupt: .*move it aside"),
    "newer": (newer, "schema version 99; this bgpi knows up to 3: use a newer bgpi"),
    "unappliable WAL": (unappliable_wal, "write-ahead log.* cannot be applied"),
    "a record that does not fit": (
        does_not_fit,
        r"record [34] .*(does not fit|no roll now).*move it aside",
    ),
}


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """Another program (a sqlite3 shell, say) holds the journal with an exclusive lock."""
    shell = sqlite3.connect(path, isolation_level=None)
    shell.execute("PRAGMA locking_mode = EXCLUSIVE")
    shell.execute("BEGIN EXCLUSIVE")
    shell.execute("SELECT COUNT(*) FROM records").fetchone()  # the lock is taken here
    try:
        yield
    finally:
        shell.close()


def snapshot(state_dir: Path) -> dict[str, bytes | None]:
    return {p.name: p.read_bytes() if p.is_file() else None for p in state_dir.iterdir()}


def bgpi_command(command: str, state_dir: Path) -> tuple[int, str]:
    """Run ``command`` on ``state_dir``; ``run`` is stopped with SIGTERM once it has said
    what is wrong. The exit status and what it printed on stderr."""
    config = state_dir.parent / "bgpi.toml"
    config.write_text("[web]\nenabled = false\n", encoding="utf-8")
    args = {
        "demo": ["--seed", "3", "--length", "1"],
        "export": ["-o", "-"],
        "sim": ["--port", "0"],
    }.get(command, [])
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bgpi",
            command,
            "--state-dir",
            str(state_dir),
            "--config",
            str(config),
            *args,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )
    assert process.stderr is not None
    first = ""
    if command == "run":
        first = process.stderr.readline()  # it says so at once, then shows it on the LEDs
        assert process.poll() is None, first
        process.send_signal(signal.SIGTERM)
    rest = process.stderr.read()
    process.stderr.close()
    return process.wait(timeout=60), first + rest


COMMANDS = ["status", "export", "demo", "sim", "run"]


def refused(
    command: str, state_dir: Path, message: str, before: dict[str, bytes | None] | None = None
) -> None:
    # Reading the files here would drop another connection's POSIX lock on them (closing
    # any descriptor of a file does, in the same process): a lock test takes them first.
    before = snapshot(state_dir) if before is None else before
    code, stderr = bgpi_command(command, state_dir)
    assert code == 1, stderr
    assert "Traceback" not in stderr
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith(f"bgpi {command}: ")
    assert str(state_dir / JOURNAL_NAME) in lines[0]
    assert re.search(message, lines[0]), lines[0]
    after = snapshot(state_dir)
    assert after[JOURNAL_NAME] == before[JOURNAL_NAME]  # not a byte changed
    assert set(after) - set(before) <= {f"{JOURNAL_NAME}-wal", f"{JOURNAL_NAME}-shm"}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("damage", DAMAGE)
def test_every_command_names_the_damage(tmp_path: Path, damage: str, command: str) -> None:
    make, message = DAMAGE[damage]
    state_dir = tmp_path / "state"
    state_dir.mkdir()
    make(state_dir / JOURNAL_NAME)
    refused(command, state_dir, message)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_names_a_lock(tmp_path: Path, command: str) -> None:
    state_dir = tmp_path / "state"
    state_dir.mkdir()
    a_journal(state_dir / JOURNAL_NAME)
    before = snapshot(state_dir)
    with locked(state_dir / JOURNAL_NAME):
        refused(command, state_dir, "is locked by another process.*try again", before)


def test_a_second_writer_is_refused(tmp_path: Path) -> None:
    state_dir = tmp_path / "state"
    state_dir.mkdir()
    a_journal(state_dir / JOURNAL_NAME)
    with Journal.open(state_dir / JOURNAL_NAME):  # as if bgpi run had it
        for command in ("demo", "sim", "run"):
            refused(command, state_dir, r"is in use by another bgpi \(run, demo or sim\)")
        code, stderr = bgpi_command("status", state_dir)  # a reader goes on
        assert code == 0, stderr


def test_run_shows_the_fault_on_the_leds_and_fails_when_stopped(tmp_path: Path) -> None:
    not_sqlite(tmp_path / JOURNAL_NAME)
    config = Config()
    hardware = SimHardware(config)
    app = App(config, tmp_path, hardware=hardware)
    ready = threading.Event()
    app.on_ready = ready.set
    result: list[int] = []
    thread = threading.Thread(target=lambda: result.append(app.run()))
    thread.start()
    try:
        assert ready.wait(30)
        assert app.driver is None  # no table: nothing is played over the damage
        deadline = time.monotonic() + 30
        while not any(lit(frame) for frame in hardware.pixels.frames):  # its blink's "on"
            assert time.monotonic() < deadline, "the fault never lit"
            time.sleep(0.02)
    finally:
        app.stop.set()
        thread.join(30)
    assert result == [1]
    fault = {render(Scene(alert=Alert.FAULT), config.ledmap, config.style, t / 8) for t in range(8)}
    shown = list(hardware.pixels.frames)
    assert set(shown[:-1]) <= fault  # the fault's blink, and nothing else
    assert shown[-1] == ((0, 0, 0),) * config.ledmap.length  # dark once stopped
    assert (tmp_path / JOURNAL_NAME).read_text() == "x\n"


def lit(frame: tuple[tuple[int, int, int], ...]) -> bool:
    return any(pixel != (0, 0, 0) for pixel in frame)
