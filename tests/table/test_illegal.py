"""An illegal play at the simulated table: ending the turn on it shows it to both; the
opponent accepts it by rolling (journaled as what it is, the game going on from the board)
or demands the correction; a config may make the board always demand it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bgpi.base.words import BAR_BLACK, BLACK, CUBE, ROLL, WHITE
from bgpi.journal.export import export_mat
from bgpi.journal.records import IllegalAccepted, MatchStarted, Rolled
from bgpi.lights import Alert
from bgpi.present.status import status
from bgpi.rules import BAR, Position
from bgpi.sim.simtable import SimOptions, SimTable
from bgpi.table import Phase, Table
from tests.table.arrange import fixed_dice


def opened_illegally(options: SimOptions | None = None) -> SimTable:
    """White rolls 3-1 at the opening and plays 8/5 6/4 (a 2 where the roll has a 1)."""
    sim = SimTable(MatchStarted(5), options=options)
    fixed_dice(sim, 3, 1, 6, 5)
    sim.setup()
    sim.roll(WHITE)
    sim.roll(BLACK)
    for src, dst in ((8, 5), (6, 4)):
        sim.lift(src, WHITE)
        sim.place(dst, WHITE)
    return sim


def test_an_illegal_play_accepted_by_rolling_goes_on_from_the_board() -> None:
    sim = opened_illegally()
    assert sim.scene.prompt(WHITE, ROLL) == "end turn"  # the turn may end as it stands
    sim.roll(WHITE)
    assert sim.phase is Phase.ILLEGAL and sim.scene.alert is Alert.WRONG
    assert sim.scene.extra == ((4, 1),) and sim.scene.missing == ((6, 1),)
    assert sim.scene.prompt(BLACK, ROLL) == "accept" and sim.scene.prompt(BLACK, CUBE) == "decline"
    assert status(sim.table, sim.scene) == (
        "White ended the turn on an illegal play (it blinks): Black accepts it by rolling "
        "(ROLL) or demands the correction (CUBE). The mistake: 2 pips, but the dice are 3 and 1."
    )
    sim.roll(BLACK)
    accepted, rolled = sim.driver.log[-2:]
    assert isinstance(accepted, IllegalAccepted) and accepted.player == WHITE
    assert rolled == Rolled(BLACK, (6, 5)) and sim.phase is Phase.MOVING
    after = Position.from_id(accepted.position)
    assert after.player[4] == 1 and after.player[6] == 4 and after.player[5] == 1
    assert sim.table.mover_view.swap() == after  # Black on roll, from the board as it stood
    assert Table.replay(sim.table.config, sim.driver.log).position == sim.position


def test_a_demanded_correction_goes_back_to_the_turn() -> None:
    sim = opened_illegally()
    sim.roll(WHITE)
    sim.cube(BLACK)
    assert sim.phase is Phase.MOVING and sim.scene.alert is Alert.WRONG
    sim.lift(4, WHITE)
    sim.place(5, WHITE)
    sim.roll(WHITE)
    assert sim.phase is Phase.BEFORE_ROLL and sim.match.turn == BLACK


def test_the_board_may_always_demand_the_correction() -> None:
    sim = opened_illegally(SimOptions(accept_illegal=False))
    assert sim.scene.prompt(WHITE, ROLL) is None
    sim.roll(WHITE)
    assert sim.phase is Phase.MOVING


def test_a_board_the_switches_cannot_read_can_only_be_corrected() -> None:
    sim = SimTable(MatchStarted(5))
    fixed_dice(sim, 3, 1)
    sim.setup()
    sim.roll(WHITE)
    sim.roll(BLACK)
    sim.lift(1, BLACK)  # Black's checker moved on White's turn
    sim.place(2, BLACK)
    sim.roll(WHITE)
    assert sim.phase is Phase.ILLEGAL and sim.scene.prompt(BLACK, ROLL) is None
    assert "cannot tell" in status(sim.table, sim.scene)
    sim.roll(BLACK)
    assert sim.phase is Phase.ILLEGAL
    sim.cube(BLACK)
    assert sim.phase is Phase.MOVING


def test_the_export_stops_the_game_at_the_accepted_play_and_gnubg_reads_its_result(
    tmp_path: Path,
) -> None:
    gnubg = pytest.importorskip("gnubg", reason="the gnubg package (dev extra) is not installed")
    sim = opened_illegally()
    sim.roll(WHITE)
    sim.roll(BLACK)  # accepted; Black rolled 6-5
    sim.press(BLACK, CUBE, hold=1.0)  # and resigns a single
    sim.roll(BLACK)
    sim.roll(WHITE)
    text = export_mat(sim.driver.log)
    assert text.startswith("; Game 1: White's illegal play on line 1 was accepted")
    assert "  1) 31:\n" in text  # the roll alone, then nothing
    for command in ("set player 0 human", "set player 1 human", "set confirm new off"):
        gnubg.command(command)
    path = tmp_path / "match.mat"
    path.write_text(text, encoding="utf-8")
    gnubg.command(f"import mat {path}")
    info = gnubg.match(analysis=0, boards=0, statistics=0, verbose=0)["games"][0]["info"]
    assert (info["winner"], info["points-won"]) == ("X", 1)


def black_left_blots(*plays: tuple[int, int]) -> SimTable:
    """White opens 3-1 with 8/5 6/5; Black's 6-5 is made as ``plays`` (printed zones), then
    White rolls 4-2."""
    sim = SimTable(MatchStarted(5))
    fixed_dice(sim, 3, 1, 6, 5, 4, 2, 3, 2)
    sim.setup()
    sim.roll(WHITE)
    sim.roll(BLACK)
    for src, dst in ((8, 5), (6, 5)):
        sim.lift(src, WHITE)
        sim.place(dst, WHITE)
    sim.roll(WHITE)
    sim.roll(BLACK)
    for src, dst in plays:
        sim.lift(src, BLACK)
        sim.place(dst, BLACK)
    sim.roll(BLACK)
    assert sim.phase is Phase.BEFORE_ROLL and sim.match.turn == WHITE
    sim.roll(WHITE)
    return sim


def hit(sim: SimTable, src: int, dst: int) -> None:
    """White's checker from ``src`` hits Black's blot on ``dst`` (printed zones)."""
    sim.lift(dst, BLACK)
    sim.place(BAR_BLACK, BLACK)
    sim.lift(src, WHITE)
    sim.place(dst, WHITE)


def test_an_illegal_play_that_hits_may_be_accepted_the_blot_on_the_bar(tmp_path: Path) -> None:
    sim = black_left_blots((1, 7), (7, 12))  # 24/13: one blot left, on Black's 24
    hit(sim, 6, 1)  # 6/1*: a 5, with 4-2 rolled
    sim.roll(WHITE)
    assert sim.phase is Phase.ILLEGAL and sim.scene.prompt(BLACK, ROLL) == "accept"
    sim.roll(BLACK)  # accepted, and Black rolls 3-2 from the bar
    accepted, rolled = sim.driver.log[-2:]
    assert isinstance(accepted, IllegalAccepted) and rolled == Rolled(BLACK, (3, 2))
    after = Position.from_id(accepted.position)
    assert (after.player[1], after.player[6], after.opponent[BAR]) == (1, 3, 1)
    assert sim.phase is Phase.MOVING and sim.table.mover_view.player[BAR] == 1
    assert Table.replay(sim.table.config, sim.driver.log).position == sim.position
    sim.lift(BAR_BLACK, BLACK)  # Black enters with the 3 and plays on: the game goes on
    sim.place(3, BLACK)
    assert sim.table.reading is not None and sim.table.reading.kind.name != "WRONG"


def test_a_hit_the_switches_cannot_tell_from_another_can_only_be_corrected() -> None:
    sim = black_left_blots((1, 7), (12, 17))  # 24/18 13/8: blots on Black's 24 and 18
    hit(sim, 6, 1)  # one checker on each blot's point: which blot went to the bar?
    sim.roll(WHITE)
    assert sim.phase is Phase.ILLEGAL and sim.scene.prompt(BLACK, ROLL) is None
    assert "cannot tell" in status(sim.table, sim.scene)


def test_a_hit_that_makes_the_point_is_read_however_many_blots() -> None:
    sim = black_left_blots((1, 7), (12, 17))
    hit(sim, 13, 7)  # 13/7*(2): two white checkers on a blot's point, hit for certain
    sim.lift(13, WHITE)
    sim.place(7, WHITE)
    sim.roll(WHITE)
    assert sim.scene.prompt(BLACK, ROLL) == "accept"
    sim.roll(BLACK)
    accepted = next(r for r in sim.driver.log if isinstance(r, IllegalAccepted))
    after = Position.from_id(accepted.position)
    assert (after.player[7], after.opponent[BAR], after.opponent[24]) == (2, 1, 1)


def test_an_accepted_hit_exports_and_gnubg_reads_the_game(tmp_path: Path) -> None:
    gnubg = pytest.importorskip("gnubg", reason="the gnubg package (dev extra) is not installed")
    sim = black_left_blots((1, 7), (7, 12))
    hit(sim, 6, 1)
    sim.roll(WHITE)
    sim.roll(BLACK)  # accepted; Black rolled 3-2
    sim.press(BLACK, CUBE, hold=1.0)  # and resigns a gammon
    sim.cube(BLACK)
    sim.roll(BLACK)
    sim.roll(WHITE)
    text = export_mat(sim.driver.log)
    assert text.startswith("; Game 1: White's illegal play on line 2 was accepted")
    for command in ("set player 0 human", "set player 1 human", "set confirm new off"):
        gnubg.command(command)
    path = tmp_path / "match.mat"
    path.write_text(text, encoding="utf-8")
    gnubg.command(f"import mat {path}")
    info = gnubg.match(analysis=0, boards=0, statistics=0, verbose=0)["games"][0]["info"]
    assert (info["winner"], info["points-won"]) == ("X", 2)  # White, a resigned gammon
