"""The clock at the table: moved on by the records each step decides, at the time of the
event that led to them, as the U.S. Backgammon Clock Rules have the players press it.

- Each game's start sets both reserves (stopped); the opening roll starts the clock of the
  player who won it (the other player's press, on a clock beside the board).
- A play ends the turn with the player's own ROLL: that is the clock button, so the play
  (an empty one too: a player closed out still presses) starts the opponent's clock; a ROLL
  that waited for the board to settle ends it at the press (:mod:`bgpi.table.settling`).
- A double hits the clock (the taker thinks on their own time), and so do a take or a
  beaver (back to the doubler, who rolls); a drop, an accepted resignation and every end of
  a game stop both. An offer to resign and its refusal hand the clock over as a double does.

With the clock on, every step that decides a record also journals :class:`Clocked`, the
clock as it left it, so replaying the journal resumes the clock where it stood. A flag that
falls ends the match (:class:`FlagFell`: the opponent wins it), or with overtime in the
rules, gives the player the overtime once.

While the sensors are down (:attr:`Table.sensors_down`) no press counts, so a player could
not hit the clock: it is paused at the event that told the table (as a director stops the
clocks when the equipment fails; the U.S. rules let a player stop them to call one), and
runs on from where it stood at the event that says they are back. The running move keeps the
time it had used, its delay included; a record a seat elsewhere decides meanwhile hands the
clock over as ever, the next move waiting to start. The pause is no record: after a power cut
the clock runs again from the first event, which pauses it again if the sensors are still
down. Only the sensors stop it: a remote board's silence has its forfeit claim, and with the
GoDice pair down the dice are entered.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from bgpi.base.words import Player
from bgpi.journal.records import (
    Clocked,
    Cube,
    CubeAction,
    FlagFell,
    GameEnded,
    GameStarted,
    IllegalAccepted,
    MatchStarted,
    OpeningRolled,
    Played,
    Record,
    ResignAnswered,
    ResignOffered,
)
from bgpi.rules import GameState, Match
from bgpi.rules.clock import Clock
from bgpi.table.events import Step
from bgpi.table.phases import OnTime

if TYPE_CHECKING:
    from bgpi.table.core import Table

_HANDS_BACK = Played | IllegalAccepted | ResignOffered | CubeAction | ResignAnswered


def timed(before: Table, step: Step, t: float) -> Step:
    """``step`` (``before``'s answer to an event at ``t``) with the clock moved on by its
    records and journaled after them; or, if the running flag fell before ``t``, the fall."""
    clock = None if before.clock is None else before.clock.started(t)
    fallen = None if clock is None else clock.fallen(t)
    if fallen is not None:
        # The flag fell before the event: its step is dropped, but not the word of a source
        # down or back that it brought, which the clock must stop for (or run on after).
        told = step.table if step.table.faults != before.faults else before
        return _fell(replace(told, clock=clock), fallen, t)
    records = step.records
    for record in records:
        if isinstance(record, MatchStarted):  # a new match: its clock, if it has one
            clock = Clock(record.clock) if record.clock.on else None
        elif clock is not None:
            clock = _hit(clock, record, step.table.match, t)
    if clock is None:
        return step
    clock = _with_sensors(clock, step.table, t)
    if records:
        used = clock.used(t)
        records = (*records, Clocked(clock.reserve, clock.running, round(used, 3)))
    if clock == step.table.clock and records is step.records:
        return step
    return replace(step, table=replace(step.table, clock=clock), records=records)


def _with_sensors(clock: Clock, table: Table, t: float) -> Clock:
    """The clock paused at ``t`` while ``table``'s sensors are down, and running on once
    they are back."""
    return clock.pause(t) if table.sensors_down else clock.run_on(t)


def _hit(clock: Clock, record: Record, match: Match, t: float) -> Clock:
    """The clock after one record of the step."""
    if isinstance(record, GameStarted):
        return clock.new_game(match.rules.length, match.score)
    if isinstance(record, OpeningRolled):
        if record.white == record.black:
            return clock  # a tie rolls again: nobody's clock runs yet
        return clock.hit(t, Player.WHITE if record.white > record.black else Player.BLACK)
    stops = (
        isinstance(record, GameEnded)
        or (isinstance(record, CubeAction) and record.action is Cube.DROP)
        or (isinstance(record, ResignAnswered) and record.accepted)
    )
    if stops:
        return clock.hit(t, None)
    if isinstance(record, _HANDS_BACK):
        return clock.hit(t, record.player.other)
    return clock


def _fell(table: Table, player: Player, t: float) -> Step:
    """``player``'s flag fell: overtime once if the rules give it, else the match is lost."""
    clock = table.clock
    assert clock is not None
    overtime = bool(clock.rules.overtime) and not clock.overtime_given[player]
    clock = clock.give_overtime(player, t) if overtime else clock.hit(t, None)
    clock = _with_sensors(clock, table, t)  # the overtime waits while the board cannot be read
    fell = FlagFell(player, overtime)
    table = replace(table.apply(fell), clock=clock)
    return Step(table, (fell, Clocked(clock.reserve, clock.running, 0.0)))


def flag_fell(table: Table, record: FlagFell) -> Table:
    """A fall replayed: with overtime nothing but the clock changes (its record follows);
    else the opponent wins the match on time, as the game stands."""
    if record.overtime:  # the new reserve comes in the Clocked that follows; not the word
        # that the overtime is spent, which a second fall (and the page's clock) needs
        clock = table.clock
        if clock is None:
            raise ValueError(f"{record}: the match has no clock")
        given = list(clock.overtime_given)
        given[record.player] = True
        return replace(table, clock=replace(clock, overtime_given=(given[0], given[1])))
    match = table.match
    if match.state is not GameState.PLAYING:
        raise ValueError(f"{record}: no game in play")
    winner = record.player.other
    score = list(match.score)
    score[winner] = max(score[winner], match.rules.length)
    over = replace(
        match,
        score=(score[0], score[1]),
        state=GameState.OVER,
        turn=winner,
        dice=None,
        double_offered=False,
        resignation=None,
        resigner=None,
    )
    return replace(table, match=over, at=OnTime(record.player))


def clocked(table: Table, record: Clocked) -> Table:
    """The clock as the journal left it (a match without a clock has no such record)."""
    if table.clock is None:
        raise ValueError(f"{record}: the match has no clock")
    return replace(table, clock=table.clock.resumed(record.reserve, record.running, record.used))
