"""The table: a whole match at a real board, as a pure state machine.

Inputs are events with timestamps: a raw observation of the board (``Seen``), the clock
(``Tick``), a button going down or up (``Press``), and dice the shell rolled when asked
(``DiceRolled``). :meth:`Table.handle` returns a :class:`Step`: the next table, the records it
decided (the shell journals each before showing it) and whether it wants dice rolled.

Everything that matters is in the records: :meth:`Table.apply` turns one record into the next
table, checking it against the rules, and :meth:`Table.replay` rebuilds a table from a journal.
What is not recorded is only what the board and the hands say now (the settled observation,
the tracker's reading), which the sensors give back after a restart.

Buttons: each player has ROLL and CUBE.

========== ============================= ==========================================
phase      ROLL                          CUBE
========== ============================= ==========================================
setup      —                             —
opening    roll my opening die           —
before     roll                          double (when the rules allow it)
doubled    take (hold: beaver, if on)    drop
moving     end the turn (complete play)  —
confirm    confirm the play shown        show the next candidate
game over  next game                     —
match over new match                     —
========== ============================= ==========================================
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import Enum

from bgpi.records import (
    CubeAction,
    GameEnded,
    GameStarted,
    MatchStarted,
    OpeningDie,
    OpeningRolled,
    Played,
    Record,
    Rolled,
)
from bgpi.rules import (
    GameResult,
    GameState,
    Match,
    Position,
    apply_move,
    game_result,
    legal_plays,
)
from bgpi.rules.errors import IllegalCubeActionError, RulesError
from bgpi.sensing.board import BoardDiff, Observation, check_board, zone_of
from bgpi.sensing.settle import DEFAULT_SETTLE, SettleFilter
from bgpi.sensing.tracker import Kind, Reading, TurnTracker
from bgpi.words import BLACK, CUBE, ROLL, WHITE

LONG_PRESS = 0.8  # seconds a button is held for its second meaning (beaver)


class Phase(Enum):
    SETUP = "setup"
    OPENING = "opening"
    BEFORE_ROLL = "before roll"
    DOUBLED = "doubled"
    MOVING = "moving"
    CONFIRM = "confirm"
    GAME_OVER = "game over"
    MATCH_OVER = "match over"


# -- events ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Seen:
    """A raw observation of the board (checkers per zone) at time ``t``."""

    observation: Observation
    t: float


@dataclass(frozen=True, slots=True)
class Tick:
    """The clock: lets the settle filter pass on an observation that has held still."""

    t: float


@dataclass(frozen=True, slots=True)
class Press:
    """``player``'s ``button`` went down (``pressed``) or up at time ``t``."""

    player: int
    button: str
    pressed: bool
    t: float


@dataclass(frozen=True, slots=True)
class DiceRolled:
    """The dice the shell rolled for ``player`` when a step asked for them."""

    player: int
    dice: tuple[int, ...]
    t: float


@dataclass(frozen=True, slots=True)
class Fault:
    """A backend failed (``message`` says how) or, with ``message`` None, recovered."""

    source: str
    message: str | None
    t: float


Event = Seen | Tick | Press | DiceRolled | Fault


@dataclass(frozen=True, slots=True)
class DiceRequest:
    """Roll ``count`` dice for ``player``: one die in the opening roll, else two."""

    player: int
    count: int


@dataclass(frozen=True, slots=True)
class Step:
    table: Table
    records: tuple[Record, ...] = ()
    dice: DiceRequest | None = None


@dataclass(frozen=True, slots=True)
class TableConfig:
    """What the table needs to know of the board and the game."""

    caps: Observation  # slots per zone, from the geometry
    settle: float = DEFAULT_SETTLE
    long_press: float = LONG_PRESS


# -- the table ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Table:
    """The state of the table. ``position`` is always from White's side (White on roll);
    :attr:`mover_view` turns it to the player on roll."""

    config: TableConfig
    match: Match
    names: tuple[str, str] = ("White", "Black")
    phase: Phase = Phase.SETUP
    position: Position = field(default_factory=Position.initial)
    opening: tuple[int | None, int | None] = (None, None)
    tracker: TurnTracker | None = None
    reading: Reading | None = None
    near: int = 0
    candidates: tuple[int, ...] = ()
    candidate: int = 0
    last_play: frozenset[int] = frozenset()
    settle: SettleFilter = field(default_factory=SettleFilter)
    observation: Observation | None = None
    held: tuple[tuple[int, str, float], ...] = ()  # buttons down: (player, button, since)
    faults: tuple[tuple[str, str], ...] = ()  # backends down now: (source, what happened)

    # -- building ---------------------------------------------------------------------------

    @classmethod
    def start(cls, config: TableConfig, record: MatchStarted) -> Table:
        """A table for a new match, before its first record is applied."""
        table = cls(
            config,
            Match.new(record.rules()),
            names=record.names,
            settle=SettleFilter(config.settle),
        )
        return table.apply(record)

    @classmethod
    def replay(cls, config: TableConfig, records: Sequence[Record]) -> Table:
        """The table a journal leads to. ``ValueError`` naming the record if one does not fit."""
        if not records or not isinstance(records[0], MatchStarted):
            raise ValueError("a journal must begin with the start of a match")
        table = cls.start(config, records[0])
        for number, record in enumerate(records[1:], start=2):
            try:
                table = table.apply(record)
            except (RulesError, ValueError) as exc:
                raise ValueError(f"record {number} ({record}) does not fit: {exc}") from None
        return table

    @property
    def mover_view(self) -> Position:
        turn = self.match.turn
        return self.position.swap() if turn == BLACK else self.position

    # -- records ----------------------------------------------------------------------------

    def apply(self, record: Record) -> Table:  # noqa: PLR0911 (one branch per record kind)
        """The table after ``record``, which the rules must allow."""
        if isinstance(record, MatchStarted):
            return replace(
                self,
                match=Match.new(record.rules()),
                names=record.names,
                phase=Phase.SETUP,
                position=Position.initial(),
            )._without_turn()
        if isinstance(record, GameStarted):
            # Leaving "game over" for the setup is not recorded: only its end, GameStarted.
            if self.phase is Phase.GAME_OVER:
                return self._game_started()
            return self._expect(Phase.SETUP, record)._game_started()
        if isinstance(record, OpeningDie):
            return self._expect(Phase.OPENING, record)._opening_die(record)
        if isinstance(record, OpeningRolled):
            return self._expect(Phase.OPENING, record)._opening_rolled(record)
        if isinstance(record, Rolled):
            return self._expect(Phase.BEFORE_ROLL, record)._rolled(record)
        if isinstance(record, Played):
            return self._played(record)
        if isinstance(record, CubeAction):
            return self._cube_action(record)
        return self._game_ended(record)

    def _expect(self, phase: Phase, record: Record) -> Table:
        if self.phase is not phase:
            raise ValueError(f"{record} came in phase {self.phase.value}, not {phase.value}")
        return self

    def _game_started(self) -> Table:
        match = self.match if self.match.state is GameState.NONE else self.match.start_game()
        return replace(
            self,
            match=match,
            phase=Phase.OPENING,
            position=Position.initial(),
            opening=(None, None),
            last_play=frozenset(),
        )._without_turn()

    def _opening_die(self, record: OpeningDie) -> Table:
        dice = list(self.opening)
        if dice[record.player] is not None:
            raise ValueError(f"player {record.player} has already rolled an opening die")
        dice[record.player] = record.die
        return replace(self, opening=(dice[0], dice[1]))

    def _opening_rolled(self, record: OpeningRolled) -> Table:
        if self.opening not in ((record.white, record.black), (None, None)):
            raise ValueError(f"{record} does not match the dice shown, {self.opening}")
        match = self.match.opening_roll(record.white, record.black)
        table = replace(self, match=match, opening=(None, None))
        if match.turn is None:  # a tie: roll again
            return table
        return table._prepare_turn()

    def _rolled(self, record: Rolled) -> Table:
        if record.player != self.match.turn:
            raise ValueError(f"{record}: it is player {self.match.turn}'s turn")
        return replace(self, match=self.match.roll(record.dice))._prepare_turn()

    def _prepare_turn(self) -> Table:
        """Dice rolled: the tracker prepares the turn once, for every observation to come."""
        assert self.match.turn is not None and self.match.dice is not None
        tracker = TurnTracker(self.mover_view, self.match.dice, self.match.turn, self.config.caps)
        table = replace(self, phase=Phase.MOVING, tracker=tracker, near=0, reading=None)
        return table._read()

    def _played(self, record: Played) -> Table:
        if self.phase not in (Phase.MOVING, Phase.CONFIRM):
            raise ValueError(f"{record} came in phase {self.phase.value}, not while moving")
        match, mover = self.match, self.match.turn
        if record.player != mover or match.dice is None or mover is None:
            raise ValueError(f"{record}: player {mover} is on roll")
        result = self.mover_view
        for move in record.move_values():
            result = apply_move(result, move)
        if result not in {play.result for play in legal_plays(self.mover_view, match.dice)}:
            raise ValueError(f"{record} is not a legal play of {match.dice} in {result.id()}")
        touched = frozenset(
            zone_of(mover, index) for move in record.moves for index in (move[0], move[1])
        )
        position = result.swap() if mover == BLACK else result
        table = replace(self, position=position, last_play=touched)._without_turn()
        if game_result(result) is not None:
            return replace(table, phase=Phase.MOVING)  # the GameEnded record follows
        return replace(table, match=match.end_turn(), phase=Phase.BEFORE_ROLL)._read()

    def _cube_action(self, record: CubeAction) -> Table:
        match = self.match
        actions = {
            "double": (Phase.BEFORE_ROLL, match.double, Phase.DOUBLED),
            "take": (Phase.DOUBLED, match.take, Phase.BEFORE_ROLL),
            "beaver": (Phase.DOUBLED, match.beaver, Phase.BEFORE_ROLL),
            "drop": (Phase.DOUBLED, match.drop, Phase.DOUBLED),
        }
        if record.action not in actions:
            raise ValueError(f"{record}: no cube action {record.action!r}")
        phase, act, after = actions[record.action]
        self._expect(phase, record)
        deciding = match.turn if record.action == "double" else _other(match.turn)
        if record.player != deciding:
            raise ValueError(f"{record}: player {deciding} decides now")
        return replace(self, match=act(), phase=after)._read()

    def _game_ended(self, record: GameEnded) -> Table:
        match = self.match
        if record.dropped:
            if match.state is not GameState.DROPPED or match.game_winner != record.winner:
                raise ValueError(f"{record}: no drop by player {_other(record.winner)}")
        else:
            result = game_result(self.mover_view_of(record.winner))
            if result is None or int(result) != record.result:
                raise ValueError(f"{record}: player {record.winner} has not won a {record.result}")
            match = match.win(record.winner, GameResult(record.result))
        over = Phase.MATCH_OVER if match.match_over else Phase.GAME_OVER
        return replace(self, match=match, phase=over)._without_turn()

    def _without_turn(self) -> Table:
        """The per-turn fields cleared."""
        return replace(self, tracker=None, reading=None, near=0, candidates=(), candidate=0)

    def mover_view_of(self, player: int) -> Position:
        return self.position.swap() if player == BLACK else self.position

    # -- events -----------------------------------------------------------------------------

    def handle(self, event: Event) -> Step:
        """React to one event: the next table, the records decided, dice wanted."""
        if isinstance(event, Seen | Tick):
            if isinstance(event, Seen):
                settle, settled = self.settle.feed(event.observation, event.t)
            else:
                settle, settled = self.settle.poll(event.t)
            table = self if settle is self.settle else replace(self, settle=settle)
            return table._settled(settled)
        if isinstance(event, DiceRolled):
            return self._dice(event.player, event.dice)
        if isinstance(event, Fault):
            faults = tuple(f for f in self.faults if f[0] != event.source)
            if event.message is not None:
                faults += ((event.source, event.message),)
            return Step(replace(self, faults=faults))
        return self._button(event)

    def _settled(self, observation: Observation | None) -> Step:
        if observation is None:
            return Step(self)
        table = replace(self, observation=observation)._read()
        if table.phase is Phase.SETUP and table.board_ok():
            return table._decide(GameStarted())
        return Step(table)

    def _read(self) -> Table:
        """Let the tracker answer the settled observation (in the moving phase)."""
        if self.tracker is None or self.observation is None or self.phase is not Phase.MOVING:
            return self
        reading = self.tracker.read(self.observation, self.near)
        near = reading.nodes[0] if reading.kind is Kind.AT_NODE else self.near
        return replace(self, reading=reading, near=near)

    def _decide(self, *records: Record) -> Step:
        table = self
        for record in records:
            table = table.apply(record)
        return Step(table, records)

    def _dice(self, player: int, dice: tuple[int, ...]) -> Step:
        if self.phase is Phase.OPENING and len(dice) == 1:
            record = OpeningDie(player, dice[0])
            table = self.apply(record)
            white, black = table.opening
            if white is not None and black is not None:
                return _chain(Step(table, (record,)), table._decide(OpeningRolled(white, black)))
            return Step(table, (record,))
        if self.phase is Phase.BEFORE_ROLL and player == self.match.turn and len(dice) == 2:
            return self._decide(Rolled(player, (dice[0], dice[1])))
        raise ValueError(f"dice {dice} were not asked for in phase {self.phase.value}")

    def _button(self, event: Press) -> Step:
        if event.pressed:
            held = (*self.held, (event.player, event.button, event.t))
            table = replace(self, held=held)
            # Most buttons act when pressed; the doubled player's ROLL waits for release to
            # tell a take from a beaver.
            if self.phase is Phase.DOUBLED and event.button == ROLL:
                return Step(table)
            return table._act(event.player, event.button, held_for=0.0)
        since = next((t for p, b, t in self.held if (p, b) == (event.player, event.button)), None)
        table = replace(
            self, held=tuple(h for h in self.held if (h[0], h[1]) != (event.player, event.button))
        )
        if since is not None and self.phase is Phase.DOUBLED and event.button == ROLL:
            return table._act(event.player, ROLL, held_for=event.t - since)
        return Step(table)

    def _act(self, player: int, button: str, held_for: float) -> Step:  # noqa: PLR0911
        if self.sensors_down:
            # The board cannot be read: its last reading may be stale, so no button decides
            # anything (no play, roll or cube) until the sensors answer again.
            return Step(self)
        phase, match = self.phase, self.match
        if phase is Phase.OPENING and button == ROLL and self.opening[player] is None:
            return Step(self, dice=DiceRequest(player, 1))
        if phase is Phase.BEFORE_ROLL and player == match.turn and self.board_ok():
            if button == ROLL:
                return Step(self, dice=DiceRequest(player, 2))
            if button == CUBE and match.may_double(player):
                return self._decide(CubeAction(player, "double"))
        if phase is Phase.DOUBLED and player == _other(match.turn):
            return self._answer(player, button, held_for)
        if phase is Phase.MOVING and player == match.turn and button == ROLL:
            return self._end_turn()
        if phase is Phase.CONFIRM and player == match.turn:
            if button == CUBE:
                return Step(replace(self, candidate=(self.candidate + 1) % len(self.candidates)))
            return self._commit(self.candidates[self.candidate])
        if phase in (Phase.GAME_OVER, Phase.MATCH_OVER) and button == ROLL:
            return self._next_game()
        return Step(self)

    def _answer(self, player: int, button: str, held_for: float) -> Step:
        if button == CUBE:
            doubler = _other(player)
            cube = self.match.cube
            return self._decide(
                CubeAction(player, "drop"), GameEnded(doubler, 1, cube, dropped=True)
            )
        if held_for >= self.config.long_press:
            try:
                self.match.beaver()  # the rules say whether a beaver is allowed here
            except IllegalCubeActionError:
                pass  # no beaver in these rules, or past the cube's limit: a plain take
            else:
                return self._decide(CubeAction(player, "beaver"))
        return self._decide(CubeAction(player, "take"))

    def _end_turn(self) -> Step:
        """ROLL in the moving phase: accepted only on a complete legal play."""
        reading = self.reading
        if reading is None or reading.kind is not Kind.AT_NODE or not reading.complete:
            return Step(self)
        if len(reading.complete) > 1:
            return Step(
                replace(self, phase=Phase.CONFIRM, candidates=reading.complete, candidate=0)
            )
        return self._commit(reading.complete[0])

    def _commit(self, node: int) -> Step:
        assert self.tracker is not None and self.match.turn is not None
        mover = self.match.turn
        play = self.tracker.play(node)
        records: list[Record] = [Played.of(mover, play.moves)]
        result = game_result(play.result)
        if result is not None:
            points = self.match.points_for(result)
            records.append(GameEnded(mover, int(result), points))
        return self._decide(*records)

    def _next_game(self) -> Step:
        if self.phase is Phase.MATCH_OVER:
            return self._decide(MatchStarted.of(self.match.rules, self.names))
        return Step(replace(self, phase=Phase.SETUP, position=Position.initial()))

    # -- what to show -----------------------------------------------------------------------

    def board_diff(self) -> BoardDiff | None:
        """How the board differs from the position it should show (outside the moving phase;
        in it the tracker's reading says); None before the sensors have said anything."""
        if self.observation is None:
            return None
        return check_board(self.observation, self.position, WHITE, self.config.caps)

    @property
    def sensors_down(self) -> bool:
        """Whether the sensors reported a fault that has not cleared."""
        return any(source == "sensors" for source, _ in self.faults)

    def board_ok(self) -> bool:
        diff = self.board_diff()
        return diff is not None and diff.ok


def _other(player: int | None) -> int:
    if player is None:
        raise ValueError("nobody is on roll")
    return 1 - player


def _chain(first: Step, second: Step) -> Step:
    return Step(second.table, first.records + second.records, second.dice)


__all__ = [
    "BLACK",
    "WHITE",
    "DiceRequest",
    "DiceRolled",
    "Event",
    "Fault",
    "GameResult",
    "Phase",
    "Press",
    "Seen",
    "Step",
    "Table",
    "TableConfig",
    "Tick",
]
