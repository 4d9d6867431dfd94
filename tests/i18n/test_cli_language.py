"""The command line's messages in the players' language: from ``--language``, the config's
``[display] language`` or the locale; one line each, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from bgpi.cli import main

FAILED, USAGE = 1, 2


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    state = tmp_path_factory.mktemp("state")
    assert main(["demo", "--state-dir", str(state), "--seed", "3", "--length", "1"]) == 0
    return state


def test_a_missing_match_in_norwegian_from_the_config(
    capsys: pytest.CaptureFixture[str], played: Path, tmp_path: Path
) -> None:
    config = tmp_path / "bgpi.toml"
    config.write_text('[display]\nlanguage = "nb"\n')
    code, _, err = run(
        capsys, "export", "--config", str(config), "--state-dir", str(played), "--match", "99"
    )
    assert code == FAILED
    journal = played / "journal.sqlite"
    assert err.strip().splitlines() == [f"bgpi export: {journal}: ingen kamp 99"]


def test_the_command_line_outranks_the_config(
    capsys: pytest.CaptureFixture[str], played: Path, tmp_path: Path
) -> None:
    config = tmp_path / "bgpi.toml"
    config.write_text('[display]\nlanguage = "nb"\n')
    argv = ("export", "--config", str(config), "--state-dir", str(played), "--match", "99")
    code, _, err = run(capsys, *argv, "--language", "sv")
    assert (code, err.strip()) == (
        FAILED,
        f"bgpi export: {played / 'journal.sqlite'}: ingen match 99",
    )


def test_a_config_error_in_the_locales_language(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANGUAGE", "fi_FI.UTF-8")
    config = tmp_path / "bgpi.toml"
    config.write_text("[rules]\nlength = 120\n")
    code, _, err = run(capsys, "config", "check", str(config))
    assert code == USAGE
    assert err.strip() == f"bgpi: {config}: rules.length: on 120, odotettiin 0\u201399"


def test_a_bad_language_in_the_config_names_the_key(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    config = tmp_path / "bgpi.toml"
    config.write_text('[display]\nlanguage = "de"\n')
    code, _, err = run(capsys, "config", "check", str(config))
    assert code == USAGE
    assert err.startswith(f"bgpi: {config}: display.language: is 'de', expected one of")
    assert len(err.strip().splitlines()) == 1


def test_an_argument_out_of_range_in_swedish_from_lang(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("LANGUAGE")
    monkeypatch.setenv("LC_ALL", "sv_SE.UTF-8")
    code, _, err = run(capsys, "sim", "--port", "99999")
    assert code == USAGE
    assert "en port är 0 till 65535, fick 99999" in err


def test_plays_counts_in_finnish(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "plays", "31", "--language", "fi")
    assert code == 0
    assert "16 sallittua siirtoa heitolla 3-1:" in out


def test_the_common_options_go_before_the_command_or_after_it(
    capsys: pytest.CaptureFixture[str], played: Path
) -> None:
    code, before, _ = run(capsys, "--language", "fi", "--state-dir", str(played), "status")
    assert code == 0
    assert "Valkoinen" in before
    code, after, _ = run(capsys, "status", "--language", "fi", "--state-dir", str(played))
    assert (code, after) == (0, before)
    # Given after the command, an option wins over the same option before it.
    code, swedish, _ = run(
        capsys, "--language", "fi", "status", "--language", "sv", "--state-dir", str(played)
    )
    assert code == 0
    assert "Vit" in swedish and "Valkoinen" not in swedish
    code, _, err = run(capsys, "--language", "xx", "status")
    assert code == USAGE
    assert "argument --language: invalid choice: 'xx'" in err  # not taken for the command
