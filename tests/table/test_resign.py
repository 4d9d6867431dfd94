"""Resigning at the simulated table, as players do it: CUBE held offers, the same button
cycles single/gammon/backgammon, ROLL offers; the other accepts (ROLL) or declines (CUBE).
Journaled, scored times the cube, and read back by GNU Backgammon from the .mat file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bgpi.base.words import BLACK, CUBE, ROLL, WHITE
from bgpi.journal.export import export_mat
from bgpi.journal.records import GameEnded, MatchStarted, ResignAnswered, ResignOffered
from bgpi.present.status import status
from bgpi.sim.simtable import SimTable
from bgpi.table import Phase, Table
from tests.table.arrange import fixed_dice

HOLD = 1.0  # past the long press


def opened(start: MatchStarted, *later: int) -> SimTable:
    """White opens 3-1 and plays 8/5 6/5: Black is on roll (the dice ``later`` next)."""
    sim = SimTable(start)
    fixed_dice(sim, 3, 1, *later)
    sim.setup()
    sim.roll(WHITE)
    sim.roll(BLACK)
    for src, dst in ((8, 5), (6, 5)):
        sim.lift(src, WHITE)
        sim.place(dst, WHITE)
    sim.roll(WHITE)
    assert sim.phase is Phase.BEFORE_ROLL and sim.match.turn == BLACK
    return sim


def test_a_gammon_resigned_and_accepted_ends_the_game_times_the_cube() -> None:
    sim = opened(MatchStarted(7))
    sim.cube(BLACK)  # Black doubles, White takes: the cube is at 2, White's
    sim.roll(WHITE)
    assert sim.match.cube == 2 and sim.match.turn == BLACK
    sim.press(BLACK, CUBE, hold=HOLD)
    assert sim.phase is Phase.RESIGNING and sim.scene.resign == 1
    assert status(sim.table, sim.scene) == (
        "Black resigns a single (2 points)? ROLL offers it, CUBE shows the next. "
        "Hold CUBE to play on."
    )
    sim.cube(BLACK)
    assert sim.scene.resign == 2 and not sim.scene.resign_offered
    sim.roll(BLACK)
    assert sim.phase is Phase.RESIGN_OFFERED and sim.scene.resign_offered
    assert sim.scene.prompt(WHITE, ROLL) == "accept" and sim.scene.prompt(WHITE, CUBE) == "decline"
    assert status(sim.table, sim.scene) == (
        "Black offers to resign a gammon (4 points): White accepts (ROLL) or declines (CUBE)."
    )
    sim.roll(WHITE)
    assert sim.driver.log[-3:] == [
        ResignOffered(BLACK, 2),
        ResignAnswered(WHITE, accepted=True),
        GameEnded(WHITE, 2, 4, resigned=True),
    ]
    assert sim.phase is Phase.GAME_OVER and sim.match.score == (4, 0)
    assert Table.replay(sim.table.config, sim.driver.log).match == sim.match


def test_a_declined_resignation_goes_back_to_the_turn() -> None:
    sim = opened(MatchStarted(7))
    fixed_dice(sim, 6, 5)
    sim.roll(BLACK)
    sim.press(BLACK, CUBE, hold=HOLD)  # resigning in the middle of the turn
    sim.roll(BLACK)
    sim.cube(WHITE)
    assert sim.driver.log[-1] == ResignAnswered(WHITE, accepted=False)
    assert sim.phase is Phase.MOVING and sim.match.resignation is None
    sim.lift(1, BLACK)
    sim.place(12, BLACK)
    sim.roll(BLACK)
    assert sim.phase is Phase.BEFORE_ROLL and sim.match.turn == WHITE


def test_resigning_can_be_called_off_before_it_is_offered() -> None:
    sim = opened(MatchStarted(7))
    sim.press(BLACK, CUBE, hold=HOLD)
    sim.cube(BLACK)
    sim.cube(BLACK)
    sim.cube(BLACK)
    assert sim.scene.resign == 1  # single, gammon, backgammon, single
    sim.press(BLACK, CUBE, hold=HOLD)
    assert sim.phase is Phase.BEFORE_ROLL
    assert not any(isinstance(r, ResignOffered) for r in sim.driver.log)


def test_a_resigned_gammon_under_jacoby_with_a_centred_cube_scores_two() -> None:
    sim = opened(MatchStarted(0, jacoby=True))
    sim.press(BLACK, CUBE, hold=HOLD)
    sim.cube(BLACK)
    sim.roll(BLACK)
    sim.roll(WHITE)
    assert sim.driver.log[-1] == GameEnded(WHITE, 2, 2, resigned=True)


gnubg = pytest.importorskip("gnubg", reason="the gnubg package (dev extra) is not installed")


def gnubg_reads(sim: SimTable, tmp_path: Path) -> dict[str, Any]:
    start = sim.driver.log[0]
    assert isinstance(start, MatchStarted)
    for command in ("set player 0 human", "set player 1 human", "set confirm new off"):
        gnubg.command(command)
    gnubg.command(f"set jacoby {'on' if start.jacoby else 'off'}")
    path = tmp_path / "match.mat"
    path.write_text(export_mat(sim.driver.log), encoding="utf-8")
    gnubg.command(f"import mat {path}")
    match: dict[str, Any] = gnubg.match(analysis=0, boards=0, statistics=0, verbose=0)
    return match


@pytest.mark.parametrize("mid_turn", [False, True])
def test_gnubg_reads_the_resigned_gammon_with_its_points(tmp_path: Path, mid_turn: bool) -> None:
    sim = opened(MatchStarted(7))
    sim.cube(BLACK)
    sim.roll(WHITE)
    if mid_turn:
        fixed_dice(sim, 6, 5)
        sim.roll(BLACK)
    sim.press(BLACK, CUBE, hold=HOLD)
    sim.cube(BLACK)
    sim.roll(BLACK)
    sim.roll(WHITE)
    info = gnubg_reads(sim, tmp_path)["games"][0]["info"]
    assert (info["winner"], info["points-won"], info["resigned"]) == ("X", 4, True)


def test_gnubg_reads_a_resigned_single_in_a_jacoby_session(tmp_path: Path) -> None:
    sim = opened(MatchStarted(0, jacoby=True))
    sim.press(BLACK, CUBE, hold=HOLD)
    sim.roll(BLACK)
    sim.roll(WHITE)
    info = gnubg_reads(sim, tmp_path)["games"][0]["info"]
    assert (info["winner"], info["points-won"]) == ("X", 1)
