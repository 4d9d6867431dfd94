"""The command line, run as a user would run it."""

import subprocess
import sys
from pathlib import Path

from bgpi import __version__
from bgpi.journal.store import Journal


def bgpi(*args: str | Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [sys.executable, "-m", "bgpi", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if check:
        assert result.returncode == 0, result.stderr
    return result


def test_version() -> None:
    assert bgpi("--version").stdout.strip() == f"bgpi {__version__}"


def test_help_on_each_command() -> None:
    for command in ("run", "demo", "export", "status", "plays"):
        assert "--config" in bgpi(command, "--help").stdout
    assert "check" in bgpi("config", "--help").stdout


def test_config_check_refuses_a_bad_file_with_status_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[rules]\nlenght = 5\n", encoding="utf-8")
    result = bgpi("config", "check", "--config", bad, check=False)
    assert result.returncode == 2
    assert f"{bad}: rules.lenght: unknown key" in result.stderr
    good = tmp_path / "good.toml"
    good.write_text("", encoding="utf-8")
    assert bgpi("config", "check", "--config", good).stdout.strip() == f"{good}: ok"
    assert bgpi("config", "check", good).stdout.strip() == f"{good}: ok"
    assert bgpi("config", "check", bad, check=False).returncode == 2


def test_config_show() -> None:
    assert "[rules]\nlength = 5" in bgpi("config", "show").stdout


def test_status_without_a_journal_fails_with_status_1(tmp_path: Path) -> None:
    result = bgpi("status", "--state-dir", tmp_path, check=False)
    assert result.returncode == 1
    assert "no journal" in result.stderr


def test_demo_plays_a_match_and_reports_the_score() -> None:
    out = bgpi("demo", "--seed", "5", "--length", "1").stdout
    assert "1-point match" in out
    assert "final score: White" in out
    assert " wins " in out


def test_demo_export_and_status_share_a_state_dir(tmp_path: Path) -> None:
    bgpi("demo", "--state-dir", tmp_path, "--seed", "17", "--length", "3")
    status = bgpi("status", "--state-dir", tmp_path).stdout
    assert "Position ID:" in status and "Match ID:" in status
    assert "phase: match over" in status
    out = tmp_path / "m.mat"
    bgpi("export", "--state-dir", tmp_path, "-o", out)
    text = out.read_text(encoding="utf-8")
    assert text.startswith('; [Site "bgpi"]\n')  # XG's header lines, then the match
    assert "\n\n 3 point match\n" in text
    assert " Game 1" in text


def test_plays() -> None:
    out = bgpi("plays", "31").stdout
    assert "16 legal plays of 3-1" in out and "8/5 6/5" in out
    assert bgpi("plays", "37", check=False).returncode == 2  # a usage error, as documented


def test_self_play_options_are_checked_with_status_2(tmp_path: Path) -> None:
    result = bgpi("run", "--seed", "3", "--state-dir", tmp_path, check=False)
    assert result.returncode == 2
    assert "--seed and --matches go with --self-play" in result.stderr
    board = tmp_path / "board.toml"
    board.write_text('[sensors]\nbackend = "gpio"\n', encoding="utf-8")
    result = bgpi("run", "--self-play", "--config", board, "--state-dir", tmp_path, check=False)
    assert result.returncode == 2
    assert "--self-play needs the simulated board, not the gpio sensors" in result.stderr
    assert str(board) in result.stderr
    assert not (tmp_path / "journal.sqlite").exists()


def test_a_journal_whose_first_match_is_still_chosen_has_nothing_to_show(tmp_path: Path) -> None:
    Journal.open(tmp_path / "journal.sqlite").close()  # as bgpi run leaves a fresh board
    for command in ("status", "export"):
        result = bgpi(command, "--state-dir", tmp_path, check=False)
        assert result.returncode == 1
        assert (
            result.stderr == f"bgpi {command}: {tmp_path / 'journal.sqlite'} holds no match yet\n"
        )
