"""The phases of the table: one small immutable value each, holding only what it needs.

:class:`Phase` names them (the journal, the page and the logs say ``phase.value``); the
classes below are the values the table holds, each with its name as ``kind``. What a button
does in each phase is not here but in :mod:`bgpi.table.buttons`, one row per gesture.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import ClassVar

from bgpi.rules import Move, Position
from bgpi.sensing.tracker import Reading, TurnTracker


class Phase(Enum):
    SETUP = "setup"
    OPENING = "opening"
    BEFORE_ROLL = "before roll"
    DOUBLED = "doubled"
    MOVING = "moving"
    CONFIRM = "confirm"
    GUIDED = "guided play"
    ENDING = "ending"
    GAME_OVER = "game over"
    MATCH_OVER = "match over"


@dataclass(frozen=True, slots=True)
class Setup:
    """The board is being set up; the game starts once it shows the starting position."""

    kind: ClassVar[Phase] = Phase.SETUP


@dataclass(frozen=True, slots=True)
class Opening:
    """Each player rolls one die; ``dice`` holds those rolled so far (White's, Black's)."""

    kind: ClassVar[Phase] = Phase.OPENING
    dice: tuple[int | None, int | None] = (None, None)


@dataclass(frozen=True, slots=True)
class BeforeRoll:
    """The player on roll rolls or doubles."""

    kind: ClassVar[Phase] = Phase.BEFORE_ROLL


@dataclass(frozen=True, slots=True)
class Doubled:
    """The player on roll has doubled; the other takes, beavers or drops."""

    kind: ClassVar[Phase] = Phase.DOUBLED


@dataclass(frozen=True, slots=True)
class Moving:
    """The hands make the play. The tracker was prepared once for the roll; ``reading`` is
    its answer to the settled board, ``near`` the node it last matched."""

    kind: ClassVar[Phase] = Phase.MOVING
    tracker: TurnTracker
    reading: Reading | None = None
    near: int = 0


@dataclass(frozen=True, slots=True)
class Confirm:
    """The board shows a play that several plays lead to: the player says which one."""

    kind: ClassVar[Phase] = Phase.CONFIRM
    tracker: TurnTracker
    candidates: tuple[int, ...]  # the tracker's nodes the board could be
    candidate: int = 0  # the index in ``candidates`` shown now


@dataclass(frozen=True, slots=True)
class Guided:
    """A seat that is not a person here chose ``moves``; the hands here make them, lit one
    by one. ``steps`` are the positions (White's view) after each move, ``steps[0]`` the
    start; ``done`` how many moves the board has shown so far. The tracker reads the board
    so that the whole play is committed only when it is a legal play of the roll."""

    kind: ClassVar[Phase] = Phase.GUIDED
    tracker: TurnTracker
    moves: tuple[Move, ...]
    steps: tuple[Position, ...]
    done: int = 0

    @property
    def next_move(self) -> Move | None:
        return self.moves[self.done] if self.done < len(self.moves) else None


@dataclass(frozen=True, slots=True)
class Ending:
    """A play bore off the last checker: the end of the game follows in the same step."""

    kind: ClassVar[Phase] = Phase.ENDING


@dataclass(frozen=True, slots=True)
class GameOver:
    kind: ClassVar[Phase] = Phase.GAME_OVER


@dataclass(frozen=True, slots=True)
class MatchOver:
    kind: ClassVar[Phase] = Phase.MATCH_OVER


PhaseState = (
    Setup
    | Opening
    | BeforeRoll
    | Doubled
    | Moving
    | Confirm
    | Guided
    | Ending
    | GameOver
    | MatchOver
)
