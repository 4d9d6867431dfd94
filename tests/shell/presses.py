"""Whether a table can go on: some input a player could give (the board set as it should
stand, a button pressed or held, a legal play made then ROLL) makes it decide a record."""

from __future__ import annotations

from collections.abc import Iterator

from bgpi.base.words import CUBE, ROLL, WHITE
from bgpi.journal.records import Record
from bgpi.rules import legal_plays
from bgpi.rules.errors import RulesError
from bgpi.sensing.board import observe
from bgpi.table import DiceRolled, Event, Phase, Press, Seen, Step, Table, Tick

OPENING_DICE = (1, 2)  # White's and Black's die when the table asks for one: not a tie
DICE = (1, 2)  # the roll when it asks for two: not a double


def feed(table: Table, events: list[Event]) -> tuple[Table, list[Record]]:
    """Feed ``events`` in order, rolling dice whenever a step asks for them."""
    records: list[Record] = []
    for event in events:
        step: Step | None = table.handle(event)
        while step is not None:
            records += step.records
            table = step.table
            request = step.dice
            step = None
            if request is not None:
                dice = DICE if request.count == 2 else (OPENING_DICE[request.player],)
                step = table.handle(DiceRolled(request.player, dice, event.t))
    return table, records


def _board(table: Table, t: float) -> tuple[Table, list[Record]]:
    """The board set up as the table's position says, and left to settle."""
    observation = observe(table.position, WHITE, table.config.caps)
    return feed(table, [Seen(observation, t), Tick(t + table.config.settle + 0.05)])


def _tries(table: Table, t: float) -> Iterator[list[Event]]:
    for player in (0, 1):
        for button in (ROLL, CUBE):
            for held in (0.05, table.config.long_press + 0.1):
                yield [Press(player, button, True, t), Press(player, button, False, t + held)]
    turn, dice = table.match.turn, table.match.dice
    if table.phase is Phase.MOVING and turn is not None and dice is not None:
        play = legal_plays(table.mover_view, dice)[0]
        after = observe(play.result, turn, table.config.caps)
        settled = t + table.config.settle + 0.05
        end = [Press(turn, ROLL, True, settled + 0.1), Press(turn, ROLL, False, settled + 0.15)]
        yield [Seen(after, t), Tick(settled), *end, *end]  # twice: a CONFIRM takes a second


def moves_on(table: Table, *, depth: int = 1) -> bool:
    """Whether, with the board as the table says, some input makes it decide a record, or
    enter a phase (``depth`` times) where some input does (after a game, ROLL clears the board
    for the next one, which is not recorded). An input the table raises on moves nothing on
    (a service would die on it, again and again)."""
    table, records = _board(table, 1000.0)
    if records:  # the board set up: the game starts
        return True
    for events in _tries(table, 1000.0 + 1):
        try:
            after, records = feed(table, events)
        except (RulesError, ValueError):
            continue
        if records or (depth and after.phase is not table.phase and moves_on(after, depth=0)):
            return True
    return False
