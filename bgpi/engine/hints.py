"""Hints: what the engine would do for the player whose decision it is now.

Before the first checker of a roll moves, the best play (to light on the board); before
rolling, whether the engine would double; while doubled, whether it would take. At the
board a person asks with a held button (:mod:`bgpi.table.hints`) and :class:`Advisor`
answers on the engine's thread with a :class:`~bgpi.table.Hinted`; ``bgpi hint`` asks
:func:`hint` of the journal's table. The engine is asked, so :func:`hint` may raise
:class:`EngineError`; :func:`advise` never does: a failure is the hint's words.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from bgpi.base.i18n import _
from bgpi.base.words import Player
from bgpi.engine.api import CubeAnswer, Engine, EngineError, EngineMissingError
from bgpi.present.numbering import printed_moves
from bgpi.rules import Match, Play
from bgpi.table import Advice, Hinted, HintKind, HintRequest, Moving, Phase, Table
from bgpi.table.hints import WORDS

_ANSWERS: Final = {
    CubeAnswer.TAKE: Advice.TAKE,
    CubeAnswer.DROP: Advice.DROP,
    CubeAnswer.BEAVER: Advice.BEAVER,
}
NO_ENGINE: Final = "gnubg"  # who would have advised, when no engine could be opened


@dataclass(frozen=True, slots=True)
class Hint:
    """For ``player``: the play to light (``play``), or the engine's words on the cube."""

    player: Player
    words: str
    play: Play | None = None


def hint(table: Table, engine: Engine) -> Hint | None:
    """The engine's hint for the decision the table waits for, or None where there is none
    to give (no roll or cube decision due, or a checker of the roll already moved)."""
    match, turn = table.match, table.match.turn
    if turn is None:
        return None
    if table.phase is Phase.MOVING and match.dice is not None and not _moved(table):
        play = engine.choose_play(table.mover_view, match.dice, match)
        moves = printed_moves(turn, play.moves) or _("no move")
        return Hint(turn, _("{engine} plays {play}").format(engine=engine.name, play=moves), play)
    if table.phase is Phase.BEFORE_ROLL:
        if not match.may_double(turn):
            return Hint(turn, _("no double now: roll"))
        decision = engine.cube_decision(table.mover_view_of(turn), match)
        advice = Advice.DOUBLE if decision.double else Advice.NO_DOUBLE
        return Hint(turn, _(WORDS[advice]).format(engine=engine.name, detail=decision.words))
    if table.phase is Phase.DOUBLED:
        decision = engine.cube_decision(table.mover_view_of(turn), match)
        answer = _(WORDS[_ANSWERS[decision.answer]])
        return Hint(turn.other, answer.format(engine=engine.name, detail=decision.words))
    return None


def _moved(table: Table) -> bool:
    """Whether the board has shown a checker of this roll moved (the tracker has matched a
    node past the start of the roll, node 0)."""
    return isinstance(table.at, Moving) and table.at.near != 0


def may_beaver(match: Match) -> bool:
    """Whether the doubled player may beaver now (the rules allow it, the cube can go on)."""
    return match.rules.beaver and match.cube * 4 <= match.rules.cube_limit


def advise(request: HintRequest, table: Table, engine: Engine, t: float) -> Hinted:
    """The engine's answer to ``request``, asked of ``table`` (the table it was asked
    from); an engine that fails gives a hint saying why."""
    try:
        return _advise(request, table, engine, t)
    except EngineError as exc:
        return Hinted(request, Advice.NONE, engine.name, t, detail=str(exc))


def _advise(request: HintRequest, table: Table, engine: Engine, t: float) -> Hinted:
    match, player, name = table.match, request.player, engine.name
    if request.kind is HintKind.PLAY:
        assert match.dice is not None  # asked while moving
        play = engine.choose_play(table.mover_view, match.dice, match)
        written = printed_moves(player, play.moves) or "no move"  # as the board is numbered
        return Hinted(request, Advice.PLAY, name, t, play.moves, written)
    if request.kind is HintKind.CUBE:
        if not match.may_double(player):
            return Hinted(request, Advice.NOT_NOW, name, t)
        decision = engine.cube_decision(table.mover_view_of(player), match)
        advice = Advice.DOUBLE if decision.double else Advice.NO_DOUBLE
        return Hinted(request, advice, name, t, detail=decision.words)
    # Doubled: the engine judges the double from the doubler's side of the board, the mover's.
    decision = engine.cube_decision(table.mover_view, match)
    answer = decision.answer
    if answer is CubeAnswer.BEAVER and not may_beaver(match):
        answer = CubeAnswer.TAKE
    return Hinted(request, _ANSWERS[answer], name, t, detail=decision.words)


class Advisor:
    """The engine that gives hints at the board, opened on the first hint (on the thread
    that asks: the engine's worker). ``opener`` raises :class:`EngineMissingError` where the
    engine is not installed: every hint then says how to install it."""

    def __init__(self, opener: Callable[[], Engine]) -> None:
        self.opener = opener
        self._engine: Engine | None = None
        self._missing: str | None = None

    def __call__(self, request: HintRequest, table: Table, t: float) -> Hinted:
        engine = self._open()
        if engine is None:
            return Hinted(request, Advice.NONE, NO_ENGINE, t, detail=self._missing or "")
        return advise(request, table, engine, t)

    def _open(self) -> Engine | None:
        if self._engine is None and self._missing is None:
            try:
                self._engine = self.opener()
            except EngineMissingError as exc:
                self._missing = str(exc)
        return self._engine

    def close(self) -> None:
        """Stop the engine, if it was opened; idempotent."""
        if self._engine is not None:
            self._engine.close()
