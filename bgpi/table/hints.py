"""Hints at the board: a person asks what the engine would do, with a held button.

Where the config allows it for a seat (``[seats] white_hints``, ``black_hints``), a person
at this board holds a button whose held meaning is free in that phase (the rows in
:mod:`bgpi.table.buttons`): before rolling, ROLL held asks whether to double; doubled, CUBE
held asks whether to take, drop or beaver; on roll with no checker moved yet, ROLL held asks
for the best play. The table stays pure: the press gives a :class:`HintRequest` in its
:class:`~bgpi.table.events.Step`, the shell asks the engine off the loop's thread, and the
answer comes back as the event :class:`Hinted`. The table keeps it while the moment it was
asked about lasts (:class:`Moment`: the phase, the position, the dice and the cube); an
answer for a moment gone is dropped, and a hint held is forgotten once the moment passes.

A play hint is an overlay, not a guided play: its moves are lit one by one as the board
shows the steps before them (:func:`lit_move`), and the tracker still accepts any legal
play; once the board strays from the hint's path, the hint is no longer lit.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Final

from bgpi.base.i18n import N_, _
from bgpi.base.words import Player
from bgpi.rules import Move, Position
from bgpi.table.board import shows, steps_of
from bgpi.table.phases import Phase

if TYPE_CHECKING:
    from bgpi.table.core import Table


class HintKind(Enum):
    """What a hint is asked about."""

    CUBE = "whether to double"
    TAKE = "take, drop or beaver"
    PLAY = "the best play"


class Advice(Enum):
    """What the engine advises (``NONE``: it could not say; the hint's detail says why)."""

    DOUBLE = "double"
    NO_DOUBLE = "no double"
    NOT_NOW = "no double allowed"
    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"
    PLAY = "play"
    NONE = "no hint"


# What the page's status line and the log say, one sentence per advice: {engine} is who
# advises ("gnubg expert"), {detail} the play ("13/7 8/7"), the engine's own phrase
# ("Double, take") or why there is no hint.
WORDS: Final = {
    Advice.DOUBLE: N_("{engine} would double ({detail})"),
    Advice.NO_DOUBLE: N_("{engine} would not double ({detail})"),
    Advice.NOT_NOW: N_("no double is allowed now: roll"),
    Advice.TAKE: N_("{engine} would take ({detail})"),
    Advice.DROP: N_("{engine} would drop ({detail})"),
    Advice.BEAVER: N_("{engine} would beaver ({detail})"),
    Advice.PLAY: N_("{engine} would play {detail}"),
    Advice.NONE: N_("no hint: {detail}"),
}


@dataclass(frozen=True, slots=True)
class Moment:
    """The decision a hint is about: while these are the same, the hint still holds."""

    phase: Phase
    turn: Player | None
    position: Position  # White's view
    dice: tuple[int, int] | None
    cube: int
    owner: Player | None


def moment_of(table: Table) -> Moment:
    match = table.match
    return Moment(table.phase, match.turn, table.position, match.dice, match.cube, match.cube_owner)


@dataclass(frozen=True, slots=True)
class HintRequest:
    """``player`` asks for a hint of ``kind`` about ``moment``."""

    player: Player
    kind: HintKind
    moment: Moment


@dataclass(frozen=True, slots=True)
class Hinted:
    """The engine's answer to ``request``: ``moves`` (the mover's numbering, in order) for
    a play, ``detail`` the words that go with the advice (see :data:`WORDS`)."""

    request: HintRequest
    advice: Advice
    engine: str
    t: float
    moves: tuple[Move, ...] = ()
    detail: str = ""

    @property
    def player(self) -> Player:
        return self.request.player

    def words(self) -> str:
        """The hint in the players' language, e.g. ``gnubg expert would play 13/7 8/7``."""
        return _(WORDS[self.advice]).format(engine=self.engine, detail=self.detail)


def kind_of(phase: Phase) -> HintKind:
    """The hint a held button asks for in ``phase`` (one of the rows' phases)."""
    return {Phase.BEFORE_ROLL: HintKind.CUBE, Phase.DOUBLED: HintKind.TAKE}.get(
        phase, HintKind.PLAY
    )


def lit_move(table: Table) -> Move | None:
    """The move of the table's play hint to light now: the one after the first step of the
    hint that the board shows (a move the sensors cannot see reads as the step before it,
    so its light stays until a move after it shows); None when no play hint is held or the
    board is on none of its steps (the person played otherwise)."""
    hint, seen = table.hint, table.observation
    if hint is None or hint.advice is not Advice.PLAY or seen is None:
        return None
    moment = hint.request.moment
    steps = steps_of(moment.position, hint.moves, moment.turn)
    if steps is None:
        return None
    for index, step in enumerate(steps[:-1]):
        if shows(seen, step, table.config.caps):
            return hint.moves[index]
    return None
