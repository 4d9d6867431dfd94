"""Every bad input at the command line ends in one line naming the problem and the documented
status (2 for usage and config, 1 for a failed run), never a traceback."""

from __future__ import annotations

import fcntl
import subprocess
import sys
from pathlib import Path

import pytest

from bgpi.cli import main

USAGE, FAILED = 2, 1


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse refuses before main's body runs
        code = int(exc.code or 0)
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return code, err


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    state = tmp_path_factory.mktemp("state")
    assert main(["demo", "--state-dir", str(state), "--seed", "3", "--length", "1"]) == 0
    return state


@pytest.mark.parametrize(
    ("argv", "status", "says"),
    [
        (["plays", "77"], USAGE, "die 7"),
        (["plays", "31", "--position", "XXXX"], USAGE, "Position ID 'XXXX'"),
        (["demo", "--money", "--length", "3"], USAGE, "not allowed with argument --money"),
        (["demo", "--games", "-2"], USAGE, "a number of games is 1 or more, got -2"),
        (["demo", "--length", "0"], USAGE, "a match length is 1 to 99, got 0"),
        (["sim", "--port", "99999"], USAGE, "a port is 0 to 65535, got 99999"),
        (["export", "--match", "0"], USAGE, "a match number is 1 or more, got 0"),
        (["export", "--match", "-1"], USAGE, "a match number is 1 or more, got -1"),
    ],
)
def test_bad_arguments_are_usage_errors(
    capsys: pytest.CaptureFixture[str], argv: list[str], status: int, says: str
) -> None:
    code, err = run(capsys, *argv)
    assert code == status
    assert says in err


def test_a_match_that_does_not_exist(capsys: pytest.CaptureFixture[str], played: Path) -> None:
    code, err = run(capsys, "export", "--state-dir", str(played), "--match", "99")
    assert code == FAILED
    assert err.strip().splitlines() == [f"bgpi export: {played / 'journal.sqlite'}: no match 99"]


def test_an_export_into_a_folder_that_is_not_there_says_so_in_words(
    capsys: pytest.CaptureFixture[str], played: Path, tmp_path: Path
) -> None:
    target = tmp_path / "no such folder" / "match.mat"
    code, err = run(capsys, "export", "--state-dir", str(played), "-o", str(target))
    assert code == FAILED
    assert err.strip().splitlines() == [
        f"bgpi export: cannot write {target}: No such file or directory"
    ]  # not Python's raw "[Errno 2] ..."
    assert not target.parent.exists()


def test_a_state_dir_that_cannot_be_made(capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(capsys, "demo", "--state-dir", "/proc/bgpi-cannot-be-here", "--length", "1")
    assert code == FAILED
    assert "/proc/bgpi-cannot-be-here" in err.splitlines()[-1]


@pytest.mark.parametrize(
    ("content", "says"),
    [(None, "is a directory"), (b"\xff\xfe[rules]\n", "is not UTF-8 text (byte 0)")],
)
def test_a_config_file_that_is_not_text(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes | None, says: str
) -> None:
    path = tmp_path
    if content is not None:
        path = tmp_path / "config.toml"
        path.write_bytes(content)
    code, err = run(capsys, "config", "check", str(path))
    assert code == USAGE
    assert says in err
    assert len(err.strip().splitlines()) == 1


def test_output_into_a_closed_pipe_is_quiet() -> None:
    # `bgpi plays 11 --position HEAVY | head -1`: the reader leaves after one line of 2,220
    # plays, with a pipe too small to hold them all, so the writer meets the closed pipe.
    process = subprocess.Popen(
        [sys.executable, "-m", "bgpi.cli", "plays", "11", "--position", "AACAkCRJqqoAAA"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    fcntl.fcntl(process.stdout.fileno(), fcntl.F_SETPIPE_SZ, 4096)
    process.stdout.readline()
    process.stdout.close()
    err = process.stderr.read().decode()
    process.wait(timeout=30)
    assert err == ""
