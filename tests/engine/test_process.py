"""The gnubg process's life: started on demand, restarted when killed, stopped when it hangs,
its garbage refused, and a clear message where gnubg is not installed."""

from __future__ import annotations

import stat
import sys
from pathlib import Path

import pytest

from bgpi.engine import (
    EngineAnswerError,
    EngineMissingError,
    EngineTimeoutError,
    GnubgEngine,
    Level,
    Seat,
    SeatKind,
    open_engine,
)
from bgpi.engine.check import checked_play
from bgpi.engine.process import GnubgProcess
from bgpi.rules import Match, MatchRules, Position
from tests.engine.conftest import needs_gnubg

MONEY = Match(MatchRules(0), state=Match.new(MatchRules(0)).opening_roll(3, 1).state, turn=0)


def fake_gnubg(tmp_path: Path, answer: str) -> str:
    """A stand-in program that reads gnubg's requests and answers each with ``answer`` (a
    Python expression of ``seq``), or never when ``answer`` is empty."""
    program = tmp_path / "fake-gnubg"
    program.write_text(
        f"#!{sys.executable}\n"
        "import re, sys\n"
        "for line in sys.stdin:\n"
        "    m = re.match(r'>_bgpi\\((\\d+), \"(\\w+)\"', line)\n"
        "    if not m: continue\n"
        "    seq, name = int(m.group(1)), m.group(2)\n"
        "    if name == 'probe':\n"
        '        print(\'@bgpi-answer %d {"ok": "ready"}\' % seq, flush=True)\n'
        f"    elif {answer!r}:\n"
        f"        print(eval({answer!r}), flush=True)\n"
    )
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    return str(program)


@needs_gnubg
def test_killed_gnubg_is_restarted_and_answers(expert: GnubgEngine) -> None:
    said: list[str] = []
    expert.process.say = said.append
    start = Position.initial()
    first = expert.choose_play(start, (3, 1), MONEY)
    pid = expert.process.pid
    expert.process.kill()
    again = expert.choose_play(start, (3, 1), MONEY)
    assert again == first
    assert expert.process.starts == 2 and expert.process.pid not in (None, pid)
    assert any("starting it again" in line for line in said)


def test_a_hanging_engine_is_stopped_at_its_time_limit_and_the_board_told(
    tmp_path: Path,
) -> None:
    said: list[str] = []
    process = GnubgProcess(fake_gnubg(tmp_path, ""), timeout=0.5, say=said.append)
    engine = GnubgEngine(Level.EXPERT, process=process)
    with pytest.raises(EngineTimeoutError, match=r"no answer to play in 0\.5 s"):
        engine.choose_play(Position.initial(), (3, 1), MONEY)
    assert process.pid is None
    assert said == ["gnubg gave no answer in 0.5 s; it is restarted"]
    with pytest.raises(EngineTimeoutError):  # started afresh for the next question
        engine.choose_play(Position.initial(), (3, 1), MONEY)
    assert process.starts == 2
    engine.close()


@pytest.mark.parametrize(
    ("answer", "error"),
    [
        ("'@bgpi-answer %d [[8, 5], [6, 5]' % seq", "not JSON"),
        ("'@bgpi-answer %d {\"ok\": [[8, 2], [6, 5]]}' % seq", "8/2 cannot be moved"),
        ("'@bgpi-answer %d {\"ok\": [[8, 5]]}' % seq", "not a whole legal play"),
        ('\'@bgpi-answer %d {"ok": "8/5 6/5"}\' % seq', "not a list of checker steps"),
        ("'@bgpi-answer %d {\"ok\": [[8, 5, 1]]}' % seq", "not \\[from, to\\] points"),
        ('\'@bgpi-answer %d {"error": "ValueError: no"}\' % seq', "could not answer play"),
        ("'@bgpi-answer %d [1]' % seq", "not an answer"),
    ],
)
def test_garbage_is_refused_never_played(tmp_path: Path, answer: str, error: str) -> None:
    engine = GnubgEngine(Level.EXPERT, process=GnubgProcess(fake_gnubg(tmp_path, answer)))
    with pytest.raises(EngineAnswerError, match=error):
        engine.choose_play(Position.initial(), (3, 1), MONEY)
    engine.close()


def test_a_play_routed_differently_is_the_same_play() -> None:
    """gnubg may move one checker 24/21 21/20 where bgpi keeps 24/23 23/20: the same play."""
    start = Position.initial()
    one = checked_play(start, (3, 1), [(24, 21), (21, 20)], "gnubg")
    other = checked_play(start, (3, 1), [(24, 23), (23, 20)], "gnubg")
    assert one == other and str(one) == "24/20"


def test_without_gnubg_the_seat_is_a_person_and_says_how_to_install(tmp_path: Path) -> None:
    missing = str(tmp_path / "no-such-gnubg")
    said: list[str] = []
    seat = Seat.parse("gnubg:supremo")
    assert open_engine(seat, say=said.append, program=missing) is None
    assert said == [
        f"GNU Backgammon is not installed (no {missing}): install it with "
        "`sudo apt-get install gnubg`; a person plays this seat"
    ]
    with pytest.raises(EngineMissingError, match="sudo apt-get install gnubg"):
        GnubgEngine(program=missing).choose_play(Position.initial(), (3, 1), MONEY)


def test_seats_are_read_from_words() -> None:
    assert Seat.parse("gnubg") == Seat(SeatKind.GNUBG, Level.EXPERT)
    assert Seat.parse("gnubg:World Class") == Seat(SeatKind.GNUBG, Level.WORLDCLASS)
    assert str(Seat.parse("GNUBG:grandmaster")) == "gnubg:grandmaster"
    assert Seat.parse("demo").kind is SeatKind.DEMO
    assert open_engine(Seat.parse("person"), say=print) is None
    for bad, why in (
        ("robot", "not person, demo"),
        ("gnubg:godlike", "unknown gnubg level"),
        ("demo:expert", "only gnubg takes a level"),
    ):
        with pytest.raises(ValueError, match=why):
            Seat.parse(bad)
