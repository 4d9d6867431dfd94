"""A broken gnubg cannot hang bgpi: a fake engine program that writes a byte which is not
UTF-8, closes its output and sleeps, never answers, chatters without answering, or exits in
the middle of an answer is stopped within the time limit, started again once, and else
named in one line. ``bgpi demo`` and ``bgpi hint`` with such an engine end with that line
(each run in a subprocess whose own time limit is far above ``timeout_s``: only that it
ends is checked, never how fast)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bgpi.base.words import BLACK, WHITE
from bgpi.engine import EngineAnswerError, EngineError, EngineTimeoutError, GnubgEngine, Level
from bgpi.engine.process import CHOSEN, GnubgProcess, find_gnubg
from bgpi.journal.records import MatchStarted
from bgpi.journal.store import Journal
from bgpi.rules import Match, MatchRules, Position
from bgpi.sim.simtable import SimTable
from tests.table.arrange import fixed_dice

MONEY = Match(MatchRules(0), state=Match.new(MatchRules(0)).opening_roll(3, 1).state, turn=0)
PLAY = b'{"ok": [[8, 5], [6, 5]]}'  # 3-1 from the start: 8/5 6/5

# What the fake does when asked a question: Python statements, with ``out`` its raw output
# and ``mark`` the marker of the question's answer.
BEHAVIOURS = {
    "a byte that is not UTF-8": 'out.write(mark + b\'{"ok": "\\xff"}\\n\'); out.flush()',
    "closes its output and sleeps": "os.close(1); os.close(2); time.sleep(600)",
    "never answers": "time.sleep(600)",
    "chatters without answering": (
        "while True: out.write(b'thinking\\n'); out.flush(); time.sleep(0.05)"
    ),
    "exits mid-answer": "out.write(mark + b'{\"ok\": [[8'); out.flush(); os._exit(3)",
}


def fake_gnubg(tmp_path: Path, behaviour: str, *, probe: bool = True) -> str:
    """A stand-in for gnubg that answers its start-up probe (unless ``probe`` is false) and
    then does ``behaviour`` (Python) at every question."""
    program = tmp_path / "broken-gnubg"
    program.write_text(
        f"#!{sys.executable}\n"
        "import os, re, sys, time\n"
        "out = sys.stdout.buffer\n"
        "for line in sys.stdin.buffer:\n"
        "    m = re.match(rb'>_bgpi\\((\\d+), \"(\\w+)\"', line)\n"
        "    if not m: continue\n"
        "    seq, name = int(m.group(1)), m.group(2)\n"
        "    mark = b'@bgpi-answer %d ' % seq\n"
        f"    if name == b'probe' and {probe}:\n"
        '        out.write(mark + b\'{"ok": "ready"}\\n\'); out.flush()\n'
        "    else:\n"
        f"        {behaviour}\n"
    )
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    return str(program)


def asked(program: str, said: list[str], timeout: float = 1.0) -> GnubgEngine:
    return GnubgEngine(
        Level.EXPERT, process=GnubgProcess(program, timeout=timeout, say=said.append)
    )


def gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (a zombie waiting to be reaped has)."""
    try:
        stat_line = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat_line.rpartition(")")[2].split()[0] in ("Z", "X")


def test_a_byte_that_is_not_utf8_is_a_bad_answer_and_gnubg_is_restarted(tmp_path: Path) -> None:
    said: list[str] = []
    engine = asked(fake_gnubg(tmp_path, BEHAVIOURS["a byte that is not UTF-8"]), said)
    with pytest.raises(EngineAnswerError, match="gnubg's answer to play is not UTF-8"):
        engine.choose_play(Position.initial(), (3, 1), MONEY)
    assert engine.process.pid is None  # stopped: it starts again at the next question
    assert said == ["gnubg gave a bad answer to play; it is restarted"]
    with pytest.raises(EngineAnswerError):
        engine.choose_play(Position.initial(), (3, 1), MONEY)
    assert engine.process.starts == 2
    engine.close()


def test_a_byte_that_is_not_utf8_outside_an_answer_is_read_past(tmp_path: Path) -> None:
    """gnubg's own chatter may hold any byte: the reader reads on, and the answer counts."""
    answer = f"out.write(b'\\xff\\xfe\\n' + mark + {PLAY!r} + b'\\n'); out.flush()"
    engine = asked(fake_gnubg(tmp_path, answer), [])
    assert str(engine.choose_play(Position.initial(), (3, 1), MONEY)) == "8/5 6/5"
    engine.close()


def test_an_engine_that_closes_its_output_is_killed_and_started_once_more(
    tmp_path: Path,
) -> None:
    said: list[str] = []
    engine = asked(fake_gnubg(tmp_path, BEHAVIOURS["closes its output and sleeps"]), said)
    engine.process.call("probe")
    first = engine.process.pid
    assert first is not None
    with pytest.raises(EngineError, match="stopped while answering play: it closed its output"):
        engine.choose_play(Position.initial(), (3, 1), MONEY)
    assert gone(first) and engine.process.pid is None and engine.process.starts == 2
    assert said == ["gnubg stopped (it closed its output but still runs); starting it again"]
    engine.close()


def test_an_engine_that_chatters_but_never_answers_is_stopped_at_its_time_limit(
    tmp_path: Path,
) -> None:
    """The time limit is one deadline for the answer, not a wait for each line of output."""
    said: list[str] = []
    engine = asked(fake_gnubg(tmp_path, BEHAVIOURS["chatters without answering"]), said, 0.5)
    with pytest.raises(EngineTimeoutError, match=r"no answer to play in 0\.5 s"):
        engine.choose_play(Position.initial(), (3, 1), MONEY)
    assert said == ["gnubg gave no answer in 0.5 s; it is restarted"]
    engine.close()


def test_an_engine_that_never_starts_is_stopped_at_its_time_limit(tmp_path: Path) -> None:
    engine = asked(fake_gnubg(tmp_path, BEHAVIOURS["never answers"], probe=False), [], 0.5)
    with pytest.raises(EngineTimeoutError, match=r"no answer to probe in 0\.5 s"):
        engine.choose_play(Position.initial(), (3, 1), MONEY)
    assert engine.process.pid is None
    engine.close()


def test_an_engine_that_exits_mid_answer_is_refused(tmp_path: Path) -> None:
    engine = asked(fake_gnubg(tmp_path, BEHAVIOURS["exits mid-answer"]), [])
    with pytest.raises(EngineAnswerError, match="answer to play is not JSON"):
        engine.choose_play(Position.initial(), (3, 1), MONEY)
    engine.close()


def test_killing_gnubg_kills_what_it_started(tmp_path: Path) -> None:
    """A child holding the output open would hide the end of it from the reader."""
    child = tmp_path / "child"
    forks = f"c = os.fork() or time.sleep(600); open({str(child)!r}, 'w').write(str(c))"
    engine = asked(fake_gnubg(tmp_path, forks + "; time.sleep(600)"), [], 0.5)
    with pytest.raises(EngineTimeoutError):
        engine.choose_play(Position.initial(), (3, 1), MONEY)
    pid = int(child.read_text())
    for _ in range(600):  # until the kill has reached it (at once, bar a loaded machine)
        if gone(pid):
            break
        time.sleep(0.05)
    assert gone(pid)
    engine.close()


def test_bgpi_gnubg_names_the_engine_to_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    program = fake_gnubg(tmp_path, BEHAVIOURS["never answers"])
    monkeypatch.setenv(CHOSEN, program)
    assert find_gnubg() == program


def bgpi(
    tmp_path: Path, engine: str, command: str, *arguments: str
) -> subprocess.CompletedProcess[str]:
    """``bgpi COMMAND ARGUMENTS`` with ``engine`` for gnubg and ``[seats] timeout_s`` 1."""
    config = tmp_path / "config.toml"
    config.write_text("[seats]\ntimeout_s = 1\n")
    env = dict(os.environ, **{CHOSEN: engine})
    command = [sys.executable, "-m", "bgpi.cli", command, "--config", str(config), *arguments]
    return subprocess.run(
        command, check=False, capture_output=True, text=True, env=env, timeout=120
    )


def ended_with_one_line(ran: subprocess.CompletedProcess[str], line: str) -> bool:
    """Whether the command failed (exit status 1) without a traceback, its last word on
    stderr one line that begins with ``line``."""
    last = ran.stderr.splitlines()[-1] if ran.stderr else ""
    return ran.returncode == 1 and "Traceback" not in ran.stderr and last.startswith(line)


@pytest.mark.parametrize("behaviour", sorted(BEHAVIOURS))
def test_bgpi_demo_with_a_broken_gnubg_ends_with_one_line(tmp_path: Path, behaviour: str) -> None:
    engine = fake_gnubg(tmp_path, BEHAVIOURS[behaviour])
    ran = bgpi(tmp_path, engine, "demo", "--white", "gnubg", "--seed", "1", "--length", "1")
    assert ended_with_one_line(ran, "bgpi demo: gnubg"), ran.stderr


def started(folder: Path) -> None:
    """A journal in ``folder`` of a match where White, on roll with 6-5, is to play."""
    with Journal.open(folder / "journal.sqlite") as journal:
        sim = SimTable(MatchStarted(5), journal=journal)
        fixed_dice(sim, 6, 5)
        sim.setup()
        sim.roll(WHITE)
        sim.roll(BLACK)


@pytest.mark.parametrize("behaviour", sorted(BEHAVIOURS))
def test_bgpi_hint_with_a_broken_gnubg_ends_with_one_line(tmp_path: Path, behaviour: str) -> None:
    started(tmp_path)
    engine = fake_gnubg(tmp_path, BEHAVIOURS[behaviour])
    ran = bgpi(tmp_path, engine, "hint", "--state-dir", str(tmp_path))
    assert ended_with_one_line(ran, "bgpi hint: gnubg"), ran.stderr


def test_bgpi_analyse_waits_for_gnubg_to_start_no_longer_than_timeout_s(tmp_path: Path) -> None:
    """The analysis may take its ``--timeout``; gnubg's start, like any seat's, ``timeout_s``."""
    started(tmp_path)
    engine = fake_gnubg(tmp_path, BEHAVIOURS["never answers"], probe=False)
    ran = bgpi(tmp_path, engine, "analyse", "--state-dir", str(tmp_path), "--timeout", "3600")
    assert ended_with_one_line(ran, "bgpi analyse: gnubg gave no answer to probe in 1 s"), (
        ran.stderr
    )
