"""ROLL never glows where it would do nothing, and a refused ROLL says why.

The states come from the press-by-press cases of ``test_buttons`` plus the boards that matter
for ROLL while moving (half a play, a checker in hand, a wrong board with and without
accepting illegal plays, an unseen move lit in a guided play, the sensors down); the phases
that must be covered are read from the table of rows, so a new ROLL row needs a state here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from bgpi.base.faults import FaultSource
from bgpi.base.words import BLACK, PLAYERS, ROLL, WHITE
from bgpi.journal.records import DiceSource, MatchStarted, Rolled, Seat
from bgpi.present.leds import scene_of
from bgpi.present.status import status
from bgpi.sensing.board import observe
from bgpi.sensing.mistakes import MistakeKind
from bgpi.table import ROWS, BeforeRoll, Fault, Moving, Phase, Press, Rolling, Step, Table
from tests.table.test_buttons import (
    CASES,
    CONFIG,
    HELD,
    SHORT,
    moving_with,
    opened,
    press,
    replay,
    settled,
    unsaid,
)
from tests.table.test_guided_stacks import BEAR_OFF, TALL, guided
from tests.table.test_leads import AGAINST_REMOTE, silent


def moving_board(changes: dict[int, int], *, accept_illegal: bool = True) -> Table:
    """Black has rolled 6-5 after White's opening; the board is the start with ``changes``
    (checkers added to or taken from printed zones)."""
    config = replace(CONFIG, accept_illegal=accept_illegal)
    table = replay(*opened(MatchStarted(5)), Rolled(BLACK, (6, 5)), config=config)
    seen = list(observe(table.position, WHITE, config.caps))
    for zone, change in changes.items():
        seen[zone] += change
    return settled(table, tuple(seen))


def half_a_play() -> Table:
    """Black's 24/18 of 6-5 (printed 1 to 7), the 5 still to play."""
    return moving_board({1: -1, 7: +1})


def down(table: Table, player: int) -> Step:
    """ROLL going down: a button with no held meaning acts (or is refused) at once."""
    return table.handle(Press(player, ROLL, True, 20.0))


def guided_unseen() -> Table:
    return guided(TALL, BEAR_OFF, (5, 1), Seat.PERSON).table


def sensors_down() -> Table:
    table = moving_with("24/13")
    return table.handle(Fault(FaultSource.SENSORS, "no answer", 30.0)).table


STATES: dict[str, Callable[[], Table]] = {
    **{name: build for name, (build, _) in CASES.items()},
    "moving, half a play": half_a_play,
    "moving, a checker in hand": lambda: moving_board({1: -1}),
    "moving, board wrong, illegal plays accepted": lambda: moving_board({1: -1, 5: +1}),
    "moving, board wrong, corrections demanded": lambda: moving_board(
        {1: -1, 5: +1}, accept_illegal=False
    ),
    "guided, a move the sensors cannot see": guided_unseen,
    "illegal play shown": lambda: press(moving_board({1: -1, 11: +1}), BLACK, ROLL, SHORT).table,
    "moving, play made, sensors down": sensors_down,
    "rolling, against a remote board silent past the patience": lambda: silent(
        *opened(AGAINST_REMOTE)[1:], at=Rolling(BLACK, 2, BeforeRoll())
    ),
    "entering Black's dice": lambda: (
        press(replay(*opened(MatchStarted(5, dice=DiceSource.ENTERED))), BLACK, ROLL, SHORT).table
    ),
}


def acts(before: Table, player: int) -> bool:
    """Whether a short ROLL of ``player`` does anything (saying why it does not is not
    acting), or a held one claims the match by forfeit (the one held gesture lit)."""
    step = press(before, player, ROLL, SHORT)
    after = step.table
    return bool(
        step.records
        or step.dice is not None
        or unsaid(after.at) != unsaid(before.at)
        or after.match != before.match
        or press(before, player, ROLL, HELD).claim is not None
    )


@pytest.mark.parametrize("name", list(STATES))
def test_roll_is_lit_exactly_where_a_press_acts(name: str) -> None:
    table = STATES[name]()
    scene = scene_of(table)
    for player in PLAYERS:
        if table.seats[player] is not Seat.PERSON:
            continue
        lit = scene.prompt(player, ROLL) is not None
        assert lit == acts(table, player), (name, player, lit)


def test_every_phase_with_a_roll_row_is_lit_in_some_state() -> None:
    phases = {row.phase for row in ROWS if row.button == ROLL}
    lit = set()
    for build in STATES.values():
        table = build()
        if any(button == ROLL for _, button, _ in scene_of(table).prompts):
            lit.add(table.phase)
    assert phases <= lit, phases - lit


def test_roll_on_half_a_play_is_dark_and_a_press_says_the_die_left() -> None:
    table = half_a_play()
    assert scene_of(table).prompt(BLACK, ROLL) is None
    step = down(table, BLACK)
    assert step.records == () and step.table.phase is Phase.MOVING
    assert step.table.mistake is not None and step.table.mistake.kind is MistakeKind.INCOMPLETE
    assert step.refused is not None and step.refused.startswith(
        "Black's ROLL does nothing: the play is not complete: the 5 can still be played (e.g. "
    )
    line = status(step.table, scene_of(step.table))
    assert "Black plays 6-5: the play is not complete: the 5 can still be played" in line
    # The LEDs flash the example move's points.
    assert scene_of(step.table).mistake == frozenset(step.table.mistake.zones)


def test_a_refusal_is_forgotten_once_the_board_changes() -> None:
    table = down(half_a_play(), BLACK).table
    assert table.mistake is not None
    played = moving_with("24/13").observation
    assert played is not None
    moved = settled(table, played)
    assert moved.mistake is None and scene_of(moved).prompt(BLACK, ROLL) == "end turn"


def test_roll_before_the_roll_is_dark_while_the_board_is_wrong() -> None:
    build, _ = CASES["before roll, board wrong"]
    table = build()
    assert scene_of(table).prompts == ()
    assert not acts(table, BLACK)
    assert status(table, scene_of(table)).startswith("The board is wrong")


def test_a_wrong_board_without_illegal_plays_says_the_mistake_on_roll() -> None:
    table = STATES["moving, board wrong, corrections demanded"]()
    assert isinstance(table.at, Moving) and table.mistake is not None
    step = down(table, BLACK)
    assert step.refused is not None and table.mistake is not None
    assert step.table.mistake == table.mistake  # the same mistake, said again on the press
