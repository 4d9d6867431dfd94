"""Applying records to a table: one function per record type, each checking its record
against the table (the phase it comes in, whose turn it is) and the rules.

:meth:`Table.apply <bgpi.table.core.Table.apply>` and :meth:`Table.replay
<bgpi.table.core.Table.replay>` are the way in; they delegate here. A record the table refuses
raises :class:`~bgpi.table.errors.TableError` saying why.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final, Generic, TypeVar

from bgpi.base.words import WHITE, Player
from bgpi.journal.records import (
    Clocked,
    Cube,
    CubeAction,
    FlagFell,
    Forfeit,
    GameEnded,
    GameStarted,
    IllegalAccepted,
    MatchStarted,
    OpeningDie,
    OpeningRolled,
    Played,
    Record,
    ResignAnswered,
    ResignOffered,
    Rethrown,
    Rolled,
    TakebackRefused,
    TakenBack,
)
from bgpi.rules import GameResult, GameState, Match, Play, Position, apply_move, game_result
from bgpi.rules.clock import Clock
from bgpi.sensing.board import counts_of, zone_of
from bgpi.sensing.godice import PairReading
from bgpi.sensing.tracker import TurnTracker
from bgpi.table.board import white_view
from bgpi.table.errors import RecordMismatchError, TableError
from bgpi.table.illegal import only_hits
from bgpi.table.phases import (
    BeforeRoll,
    Choosing,
    Confirm,
    Doubled,
    Ending,
    Forfeited,
    GameOver,
    Guided,
    Illegal,
    MatchOver,
    Moving,
    Opening,
    PhaseState,
    Resigning,
    ResignPending,
    Rolling,
    Setup,
    TakebackAsked,
    TakingBack,
    Undo,
)
from bgpi.table.timing import clocked, flag_fell

if TYPE_CHECKING:
    from bgpi.table.core import Table

R = TypeVar("R", bound=Record)
S = TypeVar("S", bound=PhaseState)


@dataclass(frozen=True, slots=True)
class _By(Generic[R]):
    """How a record of type ``kind`` changes a table."""

    kind: type[R]
    apply: Callable[[Table, R], Table]

    def __call__(self, table: Table, record: Record) -> Table:
        if not isinstance(record, self.kind):  # never (keyed by its type): narrows it
            raise TableError(f"{record} is not a {self.kind.__name__}")
        return self.apply(table, record)


def applied(table: Table, record: Record) -> Table:
    """The table after ``record``, which the rules must allow."""
    by = _APPLY.get(type(record))
    if by is None:
        raise TableError(f"{record!r} is not a record")
    return by(table, record)


def replayed(table: Table, records: Sequence[Record]) -> Table:
    """``table``, built from the journal's first record, after the others in turn."""
    for number, record in enumerate(records[1:], start=2):
        try:
            table = applied(table, record)
        except ValueError as exc:  # the rules' errors and the table's
            raise RecordMismatchError(f"record {number} ({record}) does not fit: {exc}") from None
    return table


def _in(table: Table, phase: type[S], record: Record) -> S:
    """The table's phase, which must be ``phase`` for ``record`` to come now."""
    at = table.at
    if not isinstance(at, phase):
        raise TableError(f"{record} came in phase {table.phase.value}, not {phase.kind.value}")
    return at


def _match_started(table: Table, record: MatchStarted) -> Table:
    return replace(
        table,
        match=Match.new(record.rules()),
        names=record.names,
        seats=record.seats,
        dice=record.dice,
        at=Setup(),
        position=Position.initial(),
        clock=Clock(record.clock) if record.clock.on else None,
    )


def _game_started(table: Table, record: GameStarted) -> Table:
    # Leaving "game over" for the setup is not recorded: only its end, GameStarted.
    if not isinstance(table.at, GameOver):
        _in(table, Setup, record)
    match = table.match if table.match.state is GameState.NONE else table.match.start_game()
    return replace(
        table, match=match, at=Opening(), position=Position.initial(), last_play=frozenset()
    )


def _opening_die(table: Table, record: OpeningDie) -> Table:
    dice = list(_in(table, Opening, record).dice)
    if dice[record.player] is not None:
        raise TableError(f"player {record.player} has already rolled an opening die")
    dice[record.player] = record.die
    return replace(table, at=Opening((dice[0], dice[1])))


def _opening_rolled(table: Table, record: OpeningRolled) -> Table:
    shown = _in(table, Opening, record).dice
    if shown not in ((record.white, record.black), (None, None)):
        raise TableError(f"{record} does not match the dice shown, {shown}")
    match = table.match.opening_roll(record.white, record.black)
    table = replace(table, match=match, at=Opening())
    if match.turn is None or match.dice is None:  # a tie: roll again
        return table
    return _moving(table, match.turn, match.dice)


def _rethrown(table: Table, record: Rethrown) -> Table:
    # Live, the table reads the GoDice (Rolling) and reads the throw again from the start;
    # replayed, the throw was never a phase of its own, so the roll it led to is checked.
    at = table.at
    if isinstance(at, Rolling) and at.thrown and at.player == record.player:
        return replace(table, at=replace(at, reading=PairReading(at.count), again=record))
    if isinstance(at, Opening) and at.dice[record.player] is None:
        return table
    if isinstance(at, BeforeRoll) and table.match.turn == record.player:
        return table
    raise TableError(
        f"{record} came in phase {table.phase.value}: it was not {record.player}'s throw"
    )


def _rolled(table: Table, record: Rolled) -> Table:
    _in(table, BeforeRoll, record)
    if record.player != table.match.turn:
        raise TableError(f"{record}: it is player {table.match.turn}'s turn")
    return _moving(replace(table, match=table.match.roll(record.dice)), record.player, record.dice)


def _moving(table: Table, mover: Player, dice: tuple[int, int]) -> Table:
    """Dice rolled: the tracker prepares the turn once, for every observation to come."""
    tracker = TurnTracker(table.mover_view, dice, mover, table.config.caps)
    return replace(table, at=Moving(tracker)).read_board()


def _played(table: Table, record: Played) -> Table:
    at = table.at
    # After a takeback the play made again comes in its phase when replayed: the board,
    # which moves the table on to the moving phase once the checkers are back, is not read.
    if not isinstance(at, Moving | Confirm | Guided | TakingBack):
        raise TableError(f"{record} came in phase {table.phase.value}, not while moving")
    match, mover = table.match, table.match.turn
    if record.player != mover or match.dice is None or mover is None:
        raise TableError(f"{record}: player {mover} is on roll")
    result = table.mover_view
    for move in record.move_values():
        result = apply_move(result, move)
    # The turn's tracker already knows every legal result (its index, built while the
    # hands moved): checking there costs microseconds where regenerating the plays of a
    # heavy roll costs tens of milliseconds on the way to the LEDs.
    if not at.tracker.is_legal(Play(record.move_values(), result)):
        raise TableError(f"{record} is not a legal play of {match.dice} in {result.id()}")
    touched = frozenset(
        zone_of(mover, index) for move in record.moves for index in (move[0], move[1])
    )
    undo = Undo(mover, record.moves, table.position, match, table.last_play)
    table = replace(table, position=white_view(result, mover), last_play=touched)
    if game_result(result) is not None:
        return replace(table, at=Ending())  # the GameEnded record follows
    return replace(table, match=match.end_turn(), at=BeforeRoll(undo))


def _taken_back(table: Table, record: TakenBack) -> Table:
    """The play just made taken back: the table as it stood before it, the same dice to
    play again, the hands to put the checkers back (then, the board read, the moving
    phase)."""
    undo = _asked_back(table, record)
    dice = undo.match.dice
    if dice is None:  # never: the match before a play has its dice
        raise TableError(f"{record}: the play taken back had no dice")
    table = replace(table, position=undo.position, match=undo.match, last_play=undo.last_play)
    tracker = TurnTracker(table.mover_view, dice, undo.player, table.config.caps)
    return replace(table, at=TakingBack(tracker, record.move_values())).read_board()


def _takeback_refused(table: Table, record: TakebackRefused) -> Table:
    """The takeback asked refused: the play stands for good, the opponent to roll or double
    (live it comes while the takeback is asked; replayed, the asking was never journaled)."""
    _asked_back(table, record)
    return replace(table, at=BeforeRoll()).read_board()


def _asked_back(table: Table, record: TakenBack | TakebackRefused) -> Undo:
    """The play just made that ``record`` answers a takeback of (checked: the phase holds
    it, it is the record's, the match is off the clock)."""
    at = table.at
    undo = at.undo if isinstance(at, BeforeRoll | TakebackAsked) else None
    if undo is None:
        raise TableError(f"{record} came in phase {table.phase.value}: no play to take back")
    if (record.player, record.moves) != (undo.player, undo.moves):
        raise TableError(f"{record}: the play just made is player {undo.player}'s {undo.moves}")
    if table.clock is not None:
        raise TableError(f"{record}: no takeback in a match on the clock")
    return undo


def _cube_action(table: Table, record: CubeAction) -> Table:
    match = table.match
    actions: dict[Cube, tuple[type[BeforeRoll | Doubled], Callable[[], Match], PhaseState]] = {
        Cube.DOUBLE: (BeforeRoll, match.double, Doubled()),
        Cube.TAKE: (Doubled, match.take, BeforeRoll()),
        Cube.BEAVER: (Doubled, match.beaver, BeforeRoll()),
        Cube.DROP: (Doubled, match.drop, Doubled()),
    }
    phase, act, after = actions[record.action]
    _in(table, phase, record)
    turn = table.on_roll
    deciding = turn if record.action is Cube.DOUBLE else turn.other
    if record.player != deciding:
        raise TableError(f"{record}: player {deciding} decides now")
    return replace(table, match=act(), at=after)


def _resign_offered(table: Table, record: ResignOffered) -> Table:
    at = table.at
    back = at.back if isinstance(at, Resigning) else at
    if not isinstance(back, BeforeRoll | Moving):
        raise TableError(f"{record} came in phase {table.phase.value}, not on a turn")
    if record.player != table.match.turn:
        raise TableError(f"{record}: player {table.match.turn} is on roll")
    level = GameResult(record.result)
    match = table.match.resign(record.player, level)
    if isinstance(back, BeforeRoll):  # an offer made and answered: the play before stands
        back = BeforeRoll()
    return replace(table, match=match, at=ResignPending(level, back))


def _resign_answered(table: Table, record: ResignAnswered) -> Table:
    at = _in(table, ResignPending, record)
    resigner = table.match.resigner
    if resigner is None:
        raise TableError("nobody is on roll")
    answering = Player(resigner).other
    if record.player != answering:
        raise TableError(f"{record}: player {answering} answers")
    if record.accepted:
        return replace(table, match=table.match.accept_resignation(), at=Ending())
    return replace(table, match=table.match.decline_resignation(), at=at.back).read_board()


def _illegal_accepted(table: Table, record: IllegalAccepted) -> Table:
    if not isinstance(table.at, Moving | Illegal):
        raise TableError(f"{record} came in phase {table.phase.value}, not while moving")
    mover = table.match.turn
    if record.player != mover:
        raise TableError(f"{record}: player {mover} is on roll")
    after = Position.from_id(record.position)
    if not only_hits(table.mover_view.opponent, after.opponent):
        raise TableError(f"{record} moves the opponent's checkers, not only hits blots")
    before = counts_of(table.position, WHITE)
    position = white_view(after, mover)
    now = counts_of(position, WHITE)
    touched = frozenset(zone for zone, count in enumerate(now) if count != before[zone])
    table = replace(table, position=position, last_play=touched)
    return replace(table, match=table.match.end_turn(), at=BeforeRoll())


def _game_ended(table: Table, record: GameEnded) -> Table:
    match, winner = table.match, record.winner
    if record.resigned:
        if match.state is not GameState.RESIGNED or match.game_winner != winner:
            raise TableError(f"{record}: no resignation accepted by player {winner}")
    elif record.dropped:
        if match.state is not GameState.DROPPED or match.game_winner != winner:
            raise TableError(f"{record}: no drop by player {Player(winner).other}")
    else:
        result = game_result(table.mover_view_of(winner))
        if result is None or int(result) != record.result:
            raise TableError(f"{record}: player {winner} has not won a {record.result}")
        match = match.win(winner, GameResult(record.result))
    over: PhaseState = MatchOver() if match.match_over else GameOver()
    return replace(table, match=match, at=over)


def _forfeit(table: Table, record: Forfeit) -> Table:
    # Whenever the other board fell silent: mid-game, between games, while the dice are
    # drawn; and after a forfeit, when crossed claims were settled the other way.
    at = table.at
    if isinstance(at, Choosing) or (isinstance(at, MatchOver) and not isinstance(at, Forfeited)):
        raise TableError(f"{record} came in phase {table.phase.value}: the match was decided")
    return replace(table, at=Forfeited(record.winner))


_APPLY: Final[dict[type, Callable[[Table, Record], Table]]] = {
    by.kind: by
    for by in (
        _By(MatchStarted, _match_started),
        _By(GameStarted, _game_started),
        _By(OpeningDie, _opening_die),
        _By(OpeningRolled, _opening_rolled),
        _By(Rolled, _rolled),
        _By(Played, _played),
        _By(CubeAction, _cube_action),
        _By(ResignOffered, _resign_offered),
        _By(ResignAnswered, _resign_answered),
        _By(IllegalAccepted, _illegal_accepted),
        _By(GameEnded, _game_ended),
        _By(Clocked, clocked),
        _By(FlagFell, flag_fell),
        _By(Forfeit, _forfeit),
        _By(TakenBack, _taken_back),
        _By(TakebackRefused, _takeback_refused),
        _By(Rethrown, _rethrown),
    )
}
