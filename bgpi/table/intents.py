"""What the table does for each :class:`~bgpi.table.buttons.Intent`: one handler each, given
the phase it acts in already narrowed.

An intent comes from a press (its row in :mod:`bgpi.table.buttons`) or from a seat that is
not a person here (allowed by the same rows), so the rows guarantee the phase: :func:`intend`
checks it once, and a phase the handler does not take is a bug (a
:class:`~bgpi.table.errors.TableError`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final, Generic, TypeVar

from bgpi.base.words import Player
from bgpi.journal.records import (
    Cube,
    CubeAction,
    DiceSource,
    GameEnded,
    GameStarted,
    IllegalAccepted,
    MatchStarted,
    Record,
    ResignAnswered,
    ResignOffered,
    Seat,
    TakebackRefused,
    TakenBack,
)
from bgpi.rules import GameResult, Position, game_result
from bgpi.rules.clock import NO_CLOCK
from bgpi.sensing.tracker import TurnTracker
from bgpi.table.buttons import Intent
from bgpi.table.errors import TableError
from bgpi.table.events import Step, chain
from bgpi.table.guided import move_made
from bgpi.table.hints import HintRequest, kind_of, moment_of
from bgpi.table.illegal import read_illegal
from bgpi.table.options import (
    PLAYER_OPTIONS,
    Option,
    named,
    next_clock,
    next_name,
    next_source,
    next_value,
    nobody_here,
    options_of,
    starting_names,
)
from bgpi.table.phases import (
    BeforeRoll,
    Choosing,
    Confirm,
    Doubled,
    Entering,
    GameOver,
    Guided,
    Illegal,
    MatchOver,
    Moving,
    Opening,
    Phase,
    PhaseState,
    Resigning,
    ResignPending,
    Rolling,
    Setup,
    TakebackAsked,
)
from bgpi.table.thrown import by_hand

if TYPE_CHECKING:
    from bgpi.table.core import Table

P = TypeVar("P", bound=PhaseState)


@dataclass(frozen=True, slots=True)
class On(Generic[P]):
    """An intent's handler: ``act`` does it in a phase of type ``phase`` (one type, or a
    tuple of the types its rows' phases are), given that phase narrowed."""

    phase: type[P] | tuple[type[P], ...]
    act: Callable[[Table, P, Player], Step]

    def __call__(self, table: Table, player: Player, intent: Intent) -> Step:
        at = table.at
        if not isinstance(at, self.phase):  # the rows allow it only in its phases: a bug
            raise TableError(f"no {intent.value} in phase {table.phase.value}")
        return self.act(table, at, player)


def intend(table: Table, player: Player, intent: Intent) -> Step:
    """Do what ``player`` wants, as a press of theirs would (allowed by its row, which the
    caller checked)."""
    return _ON[intent](table, Player(player), intent)


def _opening_roll(table: Table, at: Opening, player: Player) -> Step:
    return table.roll_for(player, 1)


def _roll(table: Table, at: BeforeRoll, player: Player) -> Step:
    return table.roll_for(player, 2)


def _next_face(table: Table, at: Entering, player: Player) -> Step:
    return Step(replace(table, at=replace(at, shown=at.shown % 6 + 1)))


def _previous_face(table: Table, at: Entering, player: Player) -> Step:
    return Step(replace(table, at=replace(at, shown=(at.shown - 2) % 6 + 1)))


def _take_die(table: Table, at: Entering, player: Player) -> Step:
    """The die shown taken; the next starts from its value (entering the lower die first,
    the higher is a few steps on), and the last completes the roll."""
    entered = (*at.entered, at.shown)
    if len(entered) < at.count:
        return Step(replace(table, at=replace(at, entered=entered)))
    return table.rolled(at.player, entered, DiceSource.ENTERED)


def _take_doublet(table: Table, at: Entering, player: Player) -> Step:
    return table.rolled(at.player, (at.shown, at.shown), DiceSource.ENTERED)


def _enter_by_hand(table: Table, at: Rolling, player: Player) -> Step:
    return Step(by_hand(table))


def _double(table: Table, at: BeforeRoll, player: Player) -> Step:
    return table.decide(CubeAction(player, Cube.DOUBLE))


def _take(table: Table, at: Doubled, player: Player) -> Step:
    return table.decide(CubeAction(player, Cube.TAKE))


def _beaver(table: Table, at: Doubled, player: Player) -> Step:
    return table.decide(CubeAction(player, Cube.BEAVER))


def _drop(table: Table, at: Doubled, player: Player) -> Step:
    dropped = GameEnded(player.other, 1, table.match.cube, dropped=True)
    return table.decide(CubeAction(player, Cube.DROP), dropped)


def _end_turn(table: Table, at: Moving, player: Player) -> Step:
    """A complete legal play on the board: committed, or confirmed if several fit."""
    complete = at.reading.complete if at.reading is not None else ()
    if not complete:
        raise TableError("no complete play on the board ends the turn")
    if len(complete) > 1:
        return Step(replace(table, at=Confirm(at.tracker, complete)))
    return _commit(table, at.tracker, complete[0])


def _confirm(table: Table, at: Confirm, player: Player) -> Step:
    return _commit(table, at.tracker, at.candidates[at.candidate])


def _next_candidate(table: Table, at: Confirm, player: Player) -> Step:
    return Step(replace(table, at=replace(at, candidate=(at.candidate + 1) % len(at.candidates))))


def _commit(table: Table, tracker: TurnTracker, node: int) -> Step:
    play = tracker.play(node)
    return table.commit(play.moves, play.result)


def _resign(table: Table, at: BeforeRoll | Moving, player: Player) -> Step:
    return Step(replace(table, at=Resigning(GameResult.SINGLE, at)))


def _next_level(table: Table, at: Resigning, player: Player) -> Step:
    level = GameResult(int(at.level) % len(GameResult) + 1)
    return Step(replace(table, at=replace(at, level=level)))


def _offer_resign(table: Table, at: Resigning, player: Player) -> Step:
    return table.decide(ResignOffered(player, int(at.level)))


def _back(table: Table, at: Resigning | Illegal, player: Player) -> Step:
    """Play on from the turn the phase interrupted: a resignation not offered after all, an
    illegal play to correct; the board read again, as it may have changed meanwhile."""
    return Step(replace(table, at=at.back).read_board())


def _accept_resign(table: Table, at: ResignPending, player: Player) -> Step:
    points = int(at.level) * table.match.cube  # as accept_resignation scores it
    return table.decide(
        ResignAnswered(player, accepted=True),
        GameEnded(player, int(at.level), points, resigned=True),
    )


def _decline_resign(table: Table, at: ResignPending, player: Player) -> Step:
    return table.decide(ResignAnswered(player, accepted=False))


def _end_turn_illegal(table: Table, at: Moving, player: Player) -> Step:
    seen = table.observation
    if seen is None:
        raise TableError("an illegal play cannot end the turn before the board is read")
    after = read_illegal(table.mover_view, seen, player, table.config.caps)
    if after is not None and game_result(after) is not None:
        after = None  # an illegal last bear-off is corrected, not accepted
    return Step(replace(table, at=Illegal(at, after)))


def _accept_illegal(table: Table, at: Illegal, player: Player) -> Step:
    if at.after is None:
        raise TableError("an illegal play the switches cannot read cannot be accepted")
    accepted = table.decide(IllegalAccepted(player.other, at.after.id()))
    # The rule: the opponent accepts an illegal play by rolling.
    return accepted.table.roll_for(player, 2, accepted)


def _ask_takeback(table: Table, at: BeforeRoll, player: Player) -> Step:
    """The player who just played asks to take it back (the row's guard: a person's play,
    off the clock, no remote board). The computer in the other seat agrees at once: a
    casual game's custom, and it has nothing of its own to lose, not having rolled."""
    if at.undo is None:
        raise TableError("no play to take back")
    if table.seats[player.other] is Seat.ENGINE:
        return table.decide(TakenBack(player, at.undo.moves))
    return Step(replace(table, at=TakebackAsked(at.undo)))


def _accept_takeback(table: Table, at: TakebackAsked, player: Player) -> Step:
    return table.decide(TakenBack(at.undo.player, at.undo.moves))


def _refuse_takeback(table: Table, at: TakebackAsked, player: Player) -> Step:
    """Refused, the play stands for good: not asked again (the opponent rolls or doubles).
    Journaled, as the takeback agreed is: it changes what may happen next, so a power cut
    must not undo it, and the director reads the dispute in the journal."""
    return table.decide(TakebackRefused(at.undo.player, at.undo.moves))


def _withdraw_takeback(table: Table, at: TakebackAsked, player: Player) -> Step:
    """The asker withdraws: as if he had not asked (nothing journaled, as the asking is
    not), so he may still ask until the opponent rolls or doubles; a refusal ends that."""
    return Step(replace(table, at=BeforeRoll(at.undo)).read_board())


def _next_game(table: Table, at: GameOver | MatchOver, player: Player) -> Step:
    if isinstance(at, MatchOver):
        draft = table.config.next_match or table.match.rules
        last = table.clock.rules if table.clock is not None else NO_CLOCK
        clock = table.config.next_clock or last
        sides = named(table.config.roster, table.seats)
        names = starting_names(table.config.roster, table.names, sides)
        chosen = Choosing(draft, clock=clock, dice=table.dice, names=names, named=sides)
        return Step(replace(table, at=chosen))
    return _set_up(replace(table, at=Setup(), position=Position.initial()))


def _set_up(table: Table, *records: Record) -> Step:
    """In the setup phase (after ``records``, if any): a board that already shows the
    starting position starts the game now, as a board set up to it would."""
    step = table.decide(*records) if records else Step(table)
    if step.table.phase is Phase.SETUP and step.table.board_ok():
        return chain(step, step.table.decide(GameStarted()))
    return step


def _next_value(table: Table, at: Choosing, player: Player) -> Step:
    if at.option is Option.DICE:
        dice = next_source(
            at.dice,
            remote=Seat.REMOTE in table.seats,
            nobody=nobody_here(table.seats),
            godice=table.config.godice,
        )
        return Step(replace(table, at=replace(at, dice=dice)))
    if at.option is Option.CLOCK:
        return Step(replace(table, at=replace(at, clock=next_clock(at.clock))))
    if at.option in PLAYER_OPTIONS:
        names = next_name(table.config.roster, at.names, PLAYER_OPTIONS[at.option])
        return Step(replace(table, at=replace(at, names=names)))
    return Step(replace(table, at=replace(at, draft=next_value(at.draft, at.option))))


def _next_option(table: Table, at: Choosing, player: Player) -> Step:
    options = options_of(at.draft, named=at.named)
    option = options[(options.index(at.option) + 1) % len(options)]
    return Step(replace(table, at=replace(at, option=option)))


def _start_match(table: Table, at: Choosing, player: Player) -> Step:
    clock = at.clock if at.draft.length else NO_CLOCK  # money play has no clock
    return _set_up(table, MatchStarted.of(at.draft, at.names, table.seats, clock, at.dice))


def _ask_hint(table: Table, at: BeforeRoll | Doubled | Moving, player: Player) -> Step:
    """A person asks for the engine's hint: the shell asks it off the loop's thread."""
    return Step(table, hint=HintRequest(player, kind_of(table.phase), moment_of(table)))


Waiting = Opening | BeforeRoll | Rolling | Moving | Doubled | ResignPending


def _claim(table: Table, at: Waiting, player: Player) -> Step:
    """A person here claims the match by forfeit from a silent remote board: the shell sends
    the claim (its message, journaled first); the table changes once it is settled."""
    return Step(table, claim=player)


# Intents of several phases: typed here, as mypy cannot infer the union from the tuple.
_NEXT_GAME: Final[On[GameOver | MatchOver]] = On((GameOver, MatchOver), _next_game)
_RESIGN: Final[On[BeforeRoll | Moving]] = On((BeforeRoll, Moving), _resign)
_HINT: Final[On[BeforeRoll | Doubled | Moving]] = On((BeforeRoll, Doubled, Moving), _ask_hint)
_CLAIM: Final[On[Waiting]] = On(
    (Opening, BeforeRoll, Rolling, Moving, Doubled, ResignPending), _claim
)

_ON: Final[dict[Intent, Callable[[Table, Player, Intent], Step]]] = {
    Intent.OPENING_ROLL: On(Opening, _opening_roll),
    Intent.ROLL: On(BeforeRoll, _roll),
    Intent.DOUBLE: On(BeforeRoll, _double),
    Intent.TAKE: On(Doubled, _take),
    Intent.BEAVER: On(Doubled, _beaver),
    Intent.DROP: On(Doubled, _drop),
    Intent.END_TURN: On(Moving, _end_turn),
    Intent.CONFIRM: On(Confirm, _confirm),
    Intent.NEXT_CANDIDATE: On(Confirm, _next_candidate),
    Intent.NEXT_GAME: _NEXT_GAME,
    Intent.RESIGN: _RESIGN,
    Intent.NEXT_LEVEL: On(Resigning, _next_level),
    Intent.OFFER_RESIGN: On(Resigning, _offer_resign),
    Intent.CANCEL_RESIGN: On(Resigning, _back),
    Intent.ACCEPT_RESIGN: On(ResignPending, _accept_resign),
    Intent.DECLINE_RESIGN: On(ResignPending, _decline_resign),
    Intent.END_TURN_ILLEGAL: On(Moving, _end_turn_illegal),
    Intent.ACCEPT_ILLEGAL: On(Illegal, _accept_illegal),
    Intent.DEMAND_CORRECTION: On(Illegal, _back),
    Intent.NEXT_VALUE: On(Choosing, _next_value),
    Intent.NEXT_OPTION: On(Choosing, _next_option),
    Intent.START_MATCH: On(Choosing, _start_match),
    Intent.MOVE_MADE: On(Guided, move_made),
    Intent.HINT: _HINT,
    Intent.CLAIM_FORFEIT: _CLAIM,
    Intent.NEXT_FACE: On(Entering, _next_face),
    Intent.PREVIOUS_FACE: On(Entering, _previous_face),
    Intent.TAKE_DIE: On(Entering, _take_die),
    Intent.TAKE_DOUBLET: On(Entering, _take_doublet),
    Intent.ENTER_BY_HAND: On(Rolling, _enter_by_hand),
    Intent.ASK_TAKEBACK: On(BeforeRoll, _ask_takeback),
    Intent.ACCEPT_TAKEBACK: On(TakebackAsked, _accept_takeback),
    Intent.REFUSE_TAKEBACK: On(TakebackAsked, _refuse_takeback),
    Intent.WITHDRAW_TAKEBACK: On(TakebackAsked, _withdraw_takeback),
}
