"""The dice of a roll coming to the table: asked of the shell (its electronic dice), drawn
with another board, entered at the board by hand, or thrown on GoDice
(:mod:`bgpi.table.thrown`); and, once they come, journaled as the phase asked for them: an
opening die, or the roll of the player on roll.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from bgpi.base.faults import FaultSource
from bgpi.base.words import Player
from bgpi.journal.records import ELECTRONIC, DiceSource, OpeningDie, OpeningRolled, Rolled
from bgpi.table.errors import TableError
from bgpi.table.events import DiceDrawing, DiceRequest, DiceRolled, Step, chain
from bgpi.table.phases import BeforeRoll, Entering, Opening, Phase, Rolling
from bgpi.table.thrown import entered_instead, waiting_throw

if TYPE_CHECKING:
    from bgpi.table.core import Table


def entered_dice(table: Table) -> bool:
    """Whether a roll now is thrown by hand and entered here: the match's dice are
    entered, or its GoDice are down (a die gone or its battery low) until they are back."""
    down = table.down(FaultSource.GODICE) is not None
    return table.dice is DiceSource.ENTERED or (table.dice is DiceSource.GODICE and down)


def roll_for(table: Table, player: Player, count: int, step: Step | None = None) -> Step:
    """``step`` (default: none yet) with the dice ``player`` rolls now (``count``: one in
    the opening roll): asked of the shell, or, thrown by hand, entered here or read from
    the GoDice as they come to rest."""
    step = step or Step(table)
    table, at = step.table, step.table.at
    if table.entered_dice and isinstance(at, Opening | BeforeRoll):
        return replace(step, table=replace(table, at=Entering(player, count, at)))
    if table.dice is DiceSource.GODICE and isinstance(at, Opening | BeforeRoll):
        return replace(step, table=replace(table, at=waiting_throw(player, count, at)))
    return replace(step, dice=DiceRequest(player, count))


def dice_event(table: Table, event: DiceRolled | DiceDrawing) -> Step:
    """The shell's word of dice: rolled (or entered on the page), or drawn with another board
    and so coming later."""
    if isinstance(event, DiceRolled):
        # Entered on the page while GoDice are awaited: as the thrower's held CUBE.
        taking = entered_instead(table) if event.source is DiceSource.ENTERED else table
        at = taking.at
        if event.source is DiceSource.ENTERED and (
            not isinstance(at, Entering) or (at.player, at.count) != (event.player, len(event.dice))
        ):
            # Entered on a phone as the buttons entered them: the board's came first.
            return Step(table, refused="the dice entered on the page are not the roll entered")
        if isinstance(at, Rolling) and at.thrown and event.source is not DiceSource.GODICE:
            return Step(table, refused="the dice are read from the GoDice as they come to rest")
        return rolled(taking, event.player, event.dice, event.source)
    at = table.at  # the dice asked for come later, drawn with another board
    if not isinstance(at, Opening | BeforeRoll):
        raise TableError(f"dice for player {event.player} drawn in phase {table.phase.value}")
    return Step(replace(table, at=Rolling(event.player, event.count, at)))


def rolled(
    table: Table, player: Player, dice: tuple[int, ...], source: DiceSource = ELECTRONIC
) -> Step:
    """``player``'s dice, from ``source``, journaled as the phase asked for them."""
    at = table.at
    if isinstance(at, Entering) and at.player != player:
        raise TableError(f"dice for player {player} entered for player {at.player}'s roll")
    if isinstance(at, Rolling | Entering):  # they came: drawn elsewhere, or entered
        return rolled(replace(table, at=at.back), player, dice, source)
    if any(not 1 <= die <= 6 for die in dice):
        raise TableError(f"dice {dice} are not 1 to 6")
    if table.phase is Phase.OPENING and len(dice) == 1:
        record = OpeningDie(player, dice[0], source)
        table = table.apply(record)
        white, black = table.opening
        if white is not None and black is not None:
            return chain(Step(table, (record,)), table.decide(OpeningRolled(white, black)))
        return Step(table, (record,))
    if table.phase is Phase.BEFORE_ROLL and player == table.match.turn and len(dice) == 2:
        return table.decide(Rolled(player, (dice[0], dice[1]), source))
    raise TableError(f"dice {dice} were not asked for in phase {table.phase.value}")
