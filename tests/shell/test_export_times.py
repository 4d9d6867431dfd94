"""Every record timed: ``bgpi export --times`` writes, for each numbered line of each game,
when each action on it was made (the journal's stamp, local time) and how long its player
took since the turn passed to them, as ``;`` comments above the match line, the only place
gnubg's importer skips them (tests/engine/test_export_times_gnubg.py imports them)."""

from __future__ import annotations

import time

import pytest

from bgpi.journal.export import MatExportError, export_mat
from bgpi.journal.records import (
    CubeAction,
    GameEnded,
    GameStarted,
    MatchStarted,
    OpeningRolled,
    Rolled,
)
from tests.shell.test_export import turns


def at(hour: int, minute: int, second: float) -> float:
    return time.mktime((2026, 3, 14, hour, minute, 0, 0, 0, -1)) + second


def test_each_action_is_followed_by_when_it_was_made_and_how_long_it_took() -> None:
    play1, play2 = turns((0, (3, 1), "8/5 6/5"), (1, (5, 2), "13/8 13/11"))
    records = [
        MatchStarted(3),
        GameStarted(),
        OpeningRolled(3, 1),
        play1,
        Rolled(1, (5, 2)),
        play2,
        CubeAction(0, "double"),
        CubeAction(1, "take"),
    ]
    stamps = [
        at(20, 0, 0),
        at(20, 0, 5),
        at(20, 0, 10),
        at(20, 0, 14.5),  # White thought 4.5 s after the opening roll
        at(20, 0, 16),
        at(20, 0, 30),  # Black took 15.5 s from White's play, the roll included
        at(20, 1, 0),
        at(20, 1, 2.25),
    ]
    timed = export_mat(records, stamps=stamps).splitlines()
    assert timed[:3] == [
        "; Times of the numbered lines below, White's on the left: made (local time), thought",
        "; Game 1    1) 20:00:14 4.5s               20:00:30 15.5s",
        "; Game 1    2) 20:01:00 30.0s              20:01:02 2.2s",
    ]
    assert timed[3:] == export_mat(records).splitlines()
    assert timed[7:-1] == [
        "  1) 31: 8/5 6/5                 52: 13/8 13/11",
        "  2)  Doubles => 2                Takes",
    ]


def test_each_game_has_its_own_lines_and_a_line_without_times_has_none() -> None:
    """Game 2 opens with Black's play (White's cell empty); a roll not yet played has no time."""
    play1, play2 = turns((0, (3, 1), "8/5 6/5"), (1, (3, 1), "8/5 6/5"))
    records = [
        MatchStarted(3),
        GameStarted(),
        OpeningRolled(3, 1),
        play1,
        CubeAction(1, "double"),
        CubeAction(0, "drop"),
        GameEnded(1, 1, 1, dropped=True),
        GameStarted(),
        OpeningRolled(1, 3),
        play2,
        Rolled(0, (6, 5)),
    ]
    stamps = [at(21, 0, 2.0 * n) for n in range(len(records))]
    timed = export_mat(records, stamps=stamps).splitlines()
    assert [line for line in timed if line.startswith("; Game")] == [
        "; Game 1    1) 21:00:06 2.0s               21:00:08 2.0s",
        "; Game 1    2) 21:00:10 2.0s",
        "; Game 2    1)                             21:00:18 2.0s",
    ]


def test_times_that_do_not_match_the_records_are_refused() -> None:
    with pytest.raises(MatExportError, match="2 times for 3 records"):
        export_mat([MatchStarted(3), GameStarted(), OpeningRolled(3, 1)], stamps=[0.0, 1.0])
