"""Hints at the board, on :meth:`Table.handle` directly: the held presses that ask (one row
each), the answer kept while its moment lasts and dropped once it has passed, and the play
hint lit move by move over a board the tracker still reads as any legal play."""

from __future__ import annotations

from dataclasses import replace

from bgpi.base.geometry import Geometry
from bgpi.base.words import BLACK, CUBE, ROLL, WHITE
from bgpi.journal.records import Cube, CubeAction, MatchStarted, Rolled
from bgpi.present.leds import scene_of
from bgpi.present.status import status
from bgpi.rules import Move, apply_move, parse_play
from bgpi.sensing.board import capacities, observe, zone_of
from bgpi.table import (
    Advice,
    DiceRolled,
    Hinted,
    HintKind,
    HintRequest,
    Phase,
    Press,
    Step,
    Table,
    TableConfig,
    moment_of,
)
from tests.table.test_buttons import HELD, SHORT, opened, replay, settled

HINTS = TableConfig(capacities(Geometry.default()), hints=frozenset({WHITE, BLACK}))


def press(table: Table, player: int, button: str, hold: float) -> Step:
    """Down and up: the step of the release, with the records of both."""
    down = table.handle(Press(player, button, True, 20.0))
    up = down.table.handle(Press(player, button, False, 20.0 + hold))
    return replace(up, records=down.records + up.records, dice=down.dice or up.dice)


def before_roll(config: TableConfig = HINTS) -> Table:
    return replay(*opened(MatchStarted(5)), config=config)


def doubled() -> Table:
    return replay(*opened(MatchStarted(5)), CubeAction(BLACK, Cube.DOUBLE), config=HINTS)


def moving() -> Table:
    """Black has rolled 6-5, no checker moved."""
    return replay(*opened(MatchStarted(5)), Rolled(BLACK, (6, 5)), config=HINTS)


def test_held_roll_before_rolling_asks_whether_to_double() -> None:
    table = before_roll()
    step = press(table, BLACK, ROLL, HELD)
    assert step.hint == HintRequest(BLACK, HintKind.CUBE, moment_of(table))
    assert step.dice is None and step.records == () and step.table.phase is Phase.BEFORE_ROLL
    assert press(table, BLACK, ROLL, SHORT).dice is not None  # a short press still rolls


def test_without_hints_a_held_roll_rolls_as_ever() -> None:
    table = before_roll(replace(HINTS, hints=frozenset({WHITE})))  # Black has none
    step = press(table, BLACK, ROLL, HELD)
    assert step.hint is None and step.dice is not None


def test_held_cube_of_the_doubled_player_asks_take_or_drop() -> None:
    table = doubled()
    step = press(table, WHITE, CUBE, HELD)
    assert step.hint == HintRequest(WHITE, HintKind.TAKE, moment_of(table))
    assert step.records == () and step.table.phase is Phase.DOUBLED
    assert [type(r).__name__ for r in press(table, WHITE, CUBE, SHORT).records] == [
        "CubeAction",
        "GameEnded",
    ]  # a short CUBE still drops


def test_held_roll_before_the_first_checker_moves_asks_for_the_play() -> None:
    table = moving()
    step = press(table, BLACK, ROLL, HELD)
    assert step.hint == HintRequest(BLACK, HintKind.PLAY, moment_of(table))
    assert step.table.phase is Phase.MOVING and step.records == ()


def test_once_a_checker_has_moved_no_play_hint_is_asked() -> None:
    table = moving()
    after = apply_move(table.mover_view, Move(24, 18, 6))  # one move of the roll made
    table = settled(table, observe(after, BLACK, HINTS.caps))
    assert press(table, BLACK, ROLL, HELD).hint is None


def hinted(table: Table, text: str) -> Table:
    """``table`` with gnubg's play hint ``text`` for Black's 6-5 answered."""
    request = press(table, BLACK, ROLL, HELD).hint
    assert request is not None
    play = parse_play(table.mover_view, (6, 5), text)
    answer = Hinted(request, Advice.PLAY, "gnubg expert", 21.0, play.moves, str(play))
    step = table.handle(answer)
    assert step.refused is None and step.table.hint == answer
    return step.table


def test_the_play_hint_is_lit_move_by_move_and_said() -> None:
    table = hinted(moving(), "24/18 18/13")
    scene = scene_of(table)
    assert scene.lifted == {zone_of(BLACK, 24)} and scene.destinations == {zone_of(BLACK, 18)}
    assert "Hint for Black: gnubg expert would play 24/13." in status(table, scene)
    view = table.mover_view
    first = apply_move(view, Move(24, 18, 6))  # the hint's first move made
    table = settled(table, observe(first, BLACK, HINTS.caps))
    scene = scene_of(table)
    assert scene.lifted == {zone_of(BLACK, 18)} and scene.destinations == {zone_of(BLACK, 13)}


def test_the_person_may_ignore_the_hint_and_play_otherwise() -> None:
    table = hinted(moving(), "24/18 18/13")
    other = parse_play(table.mover_view, (6, 5), "13/7 13/8").result
    table = settled(table, observe(other, BLACK, HINTS.caps))
    assert scene_of(table).lifted == frozenset()  # off the hint's path: not lit any more
    step = press(table, BLACK, ROLL, SHORT)  # the tracker takes the play made
    assert step.table.phase is Phase.BEFORE_ROLL
    assert step.table.hint is None  # and the hint is forgotten with the turn


def test_an_answer_for_a_moment_gone_is_dropped() -> None:
    table = before_roll()
    request = press(table, BLACK, ROLL, HELD).hint
    assert request is not None
    rolled = table.handle(Press(BLACK, ROLL, True, 30.0)).table  # ROLL now waits for release
    rolled = rolled.apply(Rolled(BLACK, (6, 5)))  # the dice were rolled meanwhile
    late = Hinted(request, Advice.DOUBLE, "gnubg expert", 31.0, detail="Double, take")
    step = rolled.handle(late)
    assert step.table.hint is None and step.refused is not None
    assert "moved on" in step.refused


def test_the_cube_hint_is_said_until_the_roll() -> None:
    table = before_roll()
    request = press(table, BLACK, ROLL, HELD).hint
    assert request is not None
    answer = Hinted(request, Advice.NO_DOUBLE, "gnubg expert", 21.0, detail="No double, take")
    table = table.handle(answer).table
    line = status(table, scene_of(table))
    assert "Hint for Black: gnubg expert would not double (No double, take)." in line
    rolled = table.handle(Press(BLACK, ROLL, True, 30.0)).table
    rolled = rolled.handle(Press(BLACK, ROLL, False, 30.1))
    assert rolled.dice is not None
    after = rolled.table.handle(DiceRolled(BLACK, (3, 1), 30.2)).table
    assert after.phase is Phase.MOVING and after.hint is None


def test_a_seat_without_hints_gets_none() -> None:
    table = before_roll()
    request = HintRequest(BLACK, HintKind.CUBE, moment_of(table))
    no_hints = replace(table, config=replace(HINTS, hints=frozenset()))
    step = no_hints.handle(Hinted(request, Advice.DOUBLE, "gnubg", 1.0, detail="Double"))
    assert step.table.hint is None and step.refused is not None


def test_the_hint_rows_are_said_on_the_status_line() -> None:
    table = before_roll()
    assert "hold ROLL for gnubg's hint: double or not" in status(table, scene_of(table))
    table = replace(table, config=replace(HINTS, hints=frozenset()))
    assert "gnubg" not in status(table, scene_of(table))
