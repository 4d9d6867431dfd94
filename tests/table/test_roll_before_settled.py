"""A ROLL pressed as the last checker lands waits for the board to settle.

The player drops the last checker and presses ROLL in one motion, within the settle window:
the table neither refuses the press on the board it has not read yet nor acts on it, but
decides it once the board settles, by the same rows as any press, with the clock stopped at
the press. Black has rolled 6-5 after White's opening; the settled board shows 24/18 made
(printed 1 to 7), and the 5 (18/13, printed 7 to 12) lands as ROLL goes down.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from bgpi.base.words import BLACK, CUBE, ROLL, WHITE
from bgpi.journal.records import Clocked, MatchStarted, Played, Rolled
from bgpi.rules.clock import ClockMode, ClockRules
from bgpi.sensing.board import observe
from bgpi.table import Moving, Phase, Press, Seen, Step, Table, TableConfig, Tick
from bgpi.table.settling import PRESS_WAIT
from tests.table.test_buttons import CONFIG, opened, settled

SETTLE = CONFIG.settle
LANDS = 20.0  # the last checker lands (the board's new reading starts to settle)
PRESSED = LANDS + SETTLE / 2  # ROLL goes down within the settle window
SETTLED = LANDS + SETTLE + 0.001  # the board has held still for the settle window
USBGF = ClockRules(ClockMode.USBGF)


def board(table: Table, changes: dict[int, int]) -> tuple[int, ...]:
    """The start with ``changes`` (checkers added to or taken from printed zones)."""
    seen = list(observe(table.position, WHITE, table.config.caps))
    for zone, change in changes.items():
        seen[zone] += change
    return tuple(seen)


HALF = {1: -1, 7: +1}  # 24/18 made, the 5 still to play
WHOLE = {1: -1, 12: +1}  # 24/18/13: the whole play
IN_HAND = {1: -1}  # the checker of 24/18 lifted again


def half_a_play(start: MatchStarted | None = None, config: TableConfig = CONFIG) -> Table:
    table = Table.replay(config, [*opened(start or MatchStarted(5)), Rolled(BLACK, (6, 5))])
    table = settled(table, observe(table.position, WHITE, config.caps))
    return table.handle(Seen(board(table, HALF), 11.0)).table.handle(Tick(12.0)).table


def roll_down(table: Table, t: float = PRESSED) -> Step:
    return table.handle(Press(BLACK, ROLL, True, t))


def test_a_roll_pressed_as_the_last_checker_lands_ends_the_turn_once_the_board_settles() -> None:
    table = half_a_play().handle(Seen(board(half_a_play(), WHOLE), LANDS)).table
    waiting = roll_down(table)
    assert waiting.refused is None and waiting.records == ()
    assert isinstance(waiting.table.at, Moving) and waiting.table.at.pressed == PRESSED
    again = waiting.table.handle(Press(BLACK, ROLL, False, PRESSED + 0.005))
    again = again.table.handle(Press(BLACK, ROLL, True, PRESSED + 0.01))
    assert again.refused is None and again.table.at.pressed == PRESSED  # the first press kept
    step = again.table.handle(Tick(SETTLED))
    assert step.refused is None
    assert [type(r) for r in step.records] == [Played]
    assert step.records[0] == Played(BLACK, ((24, 18, 6, False), (18, 13, 5, False)))
    assert step.table.phase is Phase.BEFORE_ROLL and step.table.match.turn == WHITE


def test_a_roll_on_a_play_truly_incomplete_is_refused_with_the_same_words_once_settled() -> None:
    # The checker of 24/18 taken up again as ROLL goes down: once the board settles with it
    # in hand, the press is refused as a press on that board already settled is.
    table = half_a_play().handle(Seen(board(half_a_play(), IN_HAND), LANDS)).table
    waiting = roll_down(table)
    assert waiting.refused is None and waiting.table.phase is Phase.MOVING
    step = waiting.table.handle(Tick(SETTLED))
    assert step.records == () and step.table.phase is Phase.MOVING
    assert isinstance(step.table.at, Moving) and step.table.at.pressed is None
    at_once = roll_down(step.table, LANDS + 1)  # the same board, settled: refused at once
    assert at_once.refused is not None and at_once.table.at.pressed is None
    assert step.refused == at_once.refused
    assert step.refused == (
        "Black's ROLL does nothing: the play is not complete: the 6 can still be played (e.g. 1/7)"
    )


def test_a_roll_on_a_settled_half_play_is_refused_at_once_as_before() -> None:
    step = roll_down(half_a_play())
    assert step.refused == (
        "Black's ROLL does nothing: the play is not complete: the 5 can still be played (e.g. 7/12)"
    )
    assert step.records == () and step.table.at.pressed is None


def test_a_roll_held_past_the_bound_is_dropped_with_its_refusal() -> None:
    # The whole play lands, but a contact keeps bouncing (one switch of point 12 opens and
    # closes faster than the settle window) past the wait: the press is refused on the board
    # as it last settled, and the play settling after it ends nothing.
    table = half_a_play()
    whole, bouncing = board(table, WHOLE), board(table, {1: -1})
    table = table.handle(Seen(whole, LANDS)).table
    step = roll_down(table)
    t, flip = LANDS, False
    bound = PRESSED + SETTLE + PRESS_WAIT
    while step.refused is None:
        assert step.records == () and t < bound + SETTLE
        t += SETTLE / 2
        flip = not flip
        step = step.table.handle(Seen(bouncing if flip else whole, t))
    assert t >= bound
    assert step.refused == (
        "Black's ROLL does nothing: the play is not complete: the 5 can still be played (e.g. 7/12)"
    )
    assert step.records == () and step.table.at.pressed is None
    calm = step.table.handle(Seen(whole, t + 0.001)).table.handle(Tick(t + 1.0))
    assert calm.records == () and calm.table.phase is Phase.MOVING
    assert calm.table.reading is not None and calm.table.reading.complete


def test_another_press_of_the_player_drops_the_roll_waiting() -> None:
    table = half_a_play().handle(Seen(board(half_a_play(), WHOLE), LANDS)).table
    waiting = roll_down(table).table
    down = waiting.handle(Press(BLACK, CUBE, True, PRESSED + 0.001)).table
    resigning = down.handle(Press(BLACK, CUBE, False, PRESSED + 2.0)).table
    assert resigning.phase is Phase.RESIGNING
    assert isinstance(resigning.at.back, Moving) and resigning.at.back.pressed is None


def clocked_half_play(reserve: float) -> Table:
    """Half a play on the clock: Black's clock runs from the first event (t=0), with
    ``reserve`` seconds left and the 12 s delay."""
    start = MatchStarted(5, clock=USBGF)
    records = [*opened(start), Rolled(BLACK, (6, 5)), Clocked((600.0, reserve), BLACK, 0.0)]
    table = Table.replay(CONFIG, records)
    table = settled(table, observe(table.position, WHITE, CONFIG.caps))
    return table.handle(Seen(board(table, HALF), 11.0)).table.handle(Tick(12.0)).table


def test_the_clock_stops_at_the_press_not_at_the_settling() -> None:
    table = clocked_half_play(300.0)
    # As if the board had settled before the press: the turn ends at the press.
    early = table.handle(Seen(board(table, WHOLE), LANDS - 1)).table.handle(Tick(LANDS - 0.5))
    direct = roll_down(early.table)
    waited = roll_down(table.handle(Seen(board(table, WHOLE), LANDS)).table)
    step = waited.table.handle(Tick(SETTLED))
    assert [type(r) for r in step.records] == [Played, Clocked]
    assert step.records == direct.records
    assert step.table.clock == direct.table.clock
    clocked = step.records[1]
    assert isinstance(clocked, Clocked) and clocked.running == WHITE
    # Black's 12 s delay, then the reserve, ran from the first event to the press.
    assert clocked.reserve[BLACK] == pytest.approx(300.0 - (PRESSED - 12.0))


def test_a_flag_that_would_fall_while_the_board_settles_does_not_the_turn_ended_in_time() -> None:
    table = clocked_half_play(300.0)
    clock = table.clock
    assert clock is not None and clock.running == BLACK
    fall = clock.deadline()
    assert fall is not None
    # Black's flag falls between the press and the settling.
    table = clocked_half_play(300.0 - (fall - PRESSED) + SETTLE / 4)
    assert table.clock is not None and table.clock.deadline() is not None
    assert PRESSED < table.clock.deadline() < SETTLED
    waited = roll_down(table.handle(Seen(board(table, WHOLE), LANDS)).table)
    ticked = waited.table.handle(Tick(LANDS + SETTLE * 0.9))  # the flag's time: still waits
    assert ticked.records == () and ticked.table.at.pressed == PRESSED
    step = ticked.table.handle(Tick(SETTLED))
    assert [type(r) for r in step.records] == [Played, Clocked]
    assert step.table.phase is Phase.BEFORE_ROLL


def test_replaying_the_journal_of_a_waited_roll_gives_the_same_table() -> None:
    table = clocked_half_play(300.0)
    start = MatchStarted(5, clock=USBGF)
    before = [*opened(start), Rolled(BLACK, (6, 5)), Clocked((600.0, 300.0), BLACK, 0.0)]
    waited = roll_down(table.handle(Seen(board(table, WHOLE), LANDS)).table)
    step = waited.table.handle(Tick(SETTLED))
    replayed = Table.replay(CONFIG, [*before, *step.records])
    assert replayed.match == step.table.match and replayed.position == step.table.position
    assert replayed.clock is not None and step.table.clock is not None
    assert replayed.clock.reserve == step.table.clock.reserve
    assert replayed.clock.running == step.table.clock.running == WHITE
    assert replace(replayed.clock, since=None) == replace(step.table.clock, since=None)
