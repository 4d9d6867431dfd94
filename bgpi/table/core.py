"""The table: a whole match at a real board, as a pure state machine.

Inputs are events with timestamps (:mod:`bgpi.table.events`): a raw observation of the board
(``Seen``), the clock (``Tick``), a button going down or up (``Press``), and dice the shell
rolled when asked (``DiceRolled``). :meth:`Table.handle` returns a :class:`Step`: the next
table, the records it decided (the shell journals each before showing it) and whether it wants
dice rolled.

Everything that matters is in the records: :meth:`Table.apply` turns one record into the next
table, checking it against the rules, and :meth:`Table.replay` rebuilds a table from a journal.
What is not recorded is only what the board and the hands say now (the settled observation,
the tracker's reading), which the sensors give back after a restart.

The table holds what spans phases (the match, the position, the settle filter, the buttons
down, the faults); ``at`` is the phase (:mod:`bgpi.table.phases`) with what only it needs.
What each button does is one table of rows in :mod:`bgpi.table.buttons`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from bgpi.base.i18n import _
from bgpi.base.words import BLACK, ROLL, WHITE
from bgpi.journal.records import (
    PEOPLE,
    Cube,
    CubeAction,
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
    Rolled,
    Seat,
)
from bgpi.rules import (
    GameResult,
    GameState,
    Match,
    Move,
    Play,
    Position,
    apply_move,
    game_result,
    legal_plays,
)
from bgpi.rules.errors import RulesError
from bgpi.sensing.board import BoardDiff, Observation, check_board, counts_of, observe, zone_of
from bgpi.sensing.mistakes import Mistake, diagnose, mistake_words, refusal
from bgpi.sensing.settle import SettleFilter
from bgpi.sensing.tracker import Kind, Reading, TurnTracker
from bgpi.table.buttons import SEAT_INTENTS, Hold, Intent, intents_of, rows_of, unseen_lit
from bgpi.table.events import (
    DiceDrawing,
    DiceRequest,
    DiceRolled,
    Event,
    Fault,
    Press,
    Seen,
    Step,
    TableConfig,
    Tick,
    chain,
)
from bgpi.table.hints import Hinted, HintRequest, kind_of, moment_of
from bgpi.table.illegal import only_hits, read_illegal
from bgpi.table.options import next_value, options_of
from bgpi.table.phases import (
    UNSEEN_WAIT,
    BeforeRoll,
    Choosing,
    Confirm,
    Doubled,
    Ending,
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
    Said,
    Setup,
)
from bgpi.table.seats import Chosen, Decided, waiting


@dataclass(frozen=True, slots=True)
class Held:
    """A button down since ``since``; ``waiting`` if it acts on release (short or held)."""

    player: int
    button: str
    since: float
    waiting: bool


@dataclass(frozen=True, slots=True)
class Table:
    """The state of the table. ``position`` is always from White's side (White on roll);
    :attr:`mover_view` turns it to the player on roll."""

    config: TableConfig
    match: Match
    names: tuple[str, str] = ("White", "Black")
    seats: tuple[Seat, Seat] = PEOPLE
    at: PhaseState = field(default_factory=Setup)
    position: Position = field(default_factory=Position.initial)
    last_play: frozenset[int] = frozenset()  # zones the last play touched, shown to the next
    settle: SettleFilter = field(default_factory=SettleFilter)
    observation: Observation | None = None
    held: tuple[Held, ...] = ()
    faults: tuple[tuple[str, str], ...] = ()  # backends down now: (source, what happened)
    hint: Hinted | None = None  # the engine's hint a person asked for, while its moment lasts

    # -- building ---------------------------------------------------------------------------

    @classmethod
    def start(cls, config: TableConfig, record: MatchStarted) -> Table:
        """A table for a new match, before its first record is applied."""
        table = cls(
            config,
            Match.new(record.rules()),
            names=record.names,
            seats=record.seats,
            settle=SettleFilter(config.settle),
        )
        return table.apply(record)

    @classmethod
    def choose(cls, config: TableConfig, defaults: MatchStarted) -> Table:
        """A fresh board (a journal with no match yet): the players choose the first match
        as they choose every next one, ``defaults`` shown first. Nothing is journaled until
        they start it: the :class:`MatchStarted` of their choice is the journal's first
        record."""
        return cls(
            config,
            Match.new(defaults.rules()),
            names=defaults.names,
            seats=defaults.seats,
            at=Choosing(defaults.rules()),
            settle=SettleFilter(config.settle),
        )

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

    # -- what the phase holds ---------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self.at.kind

    @property
    def opening(self) -> tuple[int | None, int | None]:
        """Each player's opening die rolled so far."""
        at = self.at.back if isinstance(self.at, Rolling) else self.at
        return at.dice if isinstance(at, Opening) else (None, None)

    @property
    def tracker(self) -> TurnTracker | None:
        return self.at.tracker if isinstance(self.at, Moving | Confirm) else None

    @property
    def reading(self) -> Reading | None:
        return self.at.reading if isinstance(self.at, Moving) else None

    @property
    def mistake(self) -> Mistake | None:
        """The mistake the table explains now: on the board while moving (or why ROLL was
        refused), or in the illegal play shown."""
        at = self.at.back if isinstance(self.at, Illegal) else self.at
        said = at.said if isinstance(at, Moving) else None
        return said.mistake if said is not None else None

    @property
    def candidates(self) -> tuple[int, ...]:
        return self.at.candidates if isinstance(self.at, Confirm) else ()

    @property
    def candidate(self) -> int:
        return self.at.candidate if isinstance(self.at, Confirm) else 0

    @property
    def mover_view(self) -> Position:
        turn = self.match.turn
        return self.position.swap() if turn == BLACK else self.position

    def mover_view_of(self, player: int) -> Position:
        return self.position.swap() if player == BLACK else self.position

    # -- records ----------------------------------------------------------------------------

    def apply(self, record: Record) -> Table:  # noqa: PLR0911 (one branch per record kind)
        """The table after ``record``, which the rules must allow."""
        if isinstance(record, MatchStarted):
            return replace(
                self,
                match=Match.new(record.rules()),
                names=record.names,
                seats=record.seats,
                at=Setup(),
                position=Position.initial(),
            )
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
        if isinstance(record, ResignOffered):
            return self._resign_offered(record)
        if isinstance(record, ResignAnswered):
            return self._resign_answered(record)
        if isinstance(record, IllegalAccepted):
            return self._illegal_accepted(record)
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
            at=Opening(),
            position=Position.initial(),
            last_play=frozenset(),
        )

    def _opening_die(self, record: OpeningDie) -> Table:
        dice = list(self.opening)
        if dice[record.player] is not None:
            raise ValueError(f"player {record.player} has already rolled an opening die")
        dice[record.player] = record.die
        return replace(self, at=Opening((dice[0], dice[1])))

    def _opening_rolled(self, record: OpeningRolled) -> Table:
        if self.opening not in ((record.white, record.black), (None, None)):
            raise ValueError(f"{record} does not match the dice shown, {self.opening}")
        match = self.match.opening_roll(record.white, record.black)
        table = replace(self, match=match, at=Opening())
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
        return replace(self, at=Moving(tracker))._read()

    def _played(self, record: Played) -> Table:
        if self.phase not in (Phase.MOVING, Phase.CONFIRM, Phase.GUIDED):
            raise ValueError(f"{record} came in phase {self.phase.value}, not while moving")
        match, mover = self.match, self.match.turn
        if record.player != mover or match.dice is None or mover is None:
            raise ValueError(f"{record}: player {mover} is on roll")
        result = self.mover_view
        for move in record.move_values():
            result = apply_move(result, move)
        # The turn's tracker already knows every legal result (its index, built while the
        # hands moved): checking there costs microseconds where regenerating the plays of a
        # heavy roll costs tens of milliseconds on the way to the LEDs.
        assert isinstance(self.at, Moving | Confirm | Guided)
        if not self.at.tracker.is_legal(Play(record.move_values(), result)):
            raise ValueError(f"{record} is not a legal play of {match.dice} in {result.id()}")
        touched = frozenset(
            zone_of(mover, index) for move in record.moves for index in (move[0], move[1])
        )
        position = result.swap() if mover == BLACK else result
        table = replace(self, position=position, last_play=touched)
        if game_result(result) is not None:
            return replace(table, at=Ending())  # the GameEnded record follows
        return replace(table, match=match.end_turn(), at=BeforeRoll())

    def _cube_action(self, record: CubeAction) -> Table:
        match = self.match
        actions: dict[Cube, tuple[Phase, Callable[[], Match], PhaseState]] = {
            Cube.DOUBLE: (Phase.BEFORE_ROLL, match.double, Doubled()),
            Cube.TAKE: (Phase.DOUBLED, match.take, BeforeRoll()),
            Cube.BEAVER: (Phase.DOUBLED, match.beaver, BeforeRoll()),
            Cube.DROP: (Phase.DOUBLED, match.drop, Doubled()),
        }
        phase, act, after = actions[record.action]
        self._expect(phase, record)
        deciding = match.turn if record.action is Cube.DOUBLE else _other(match.turn)
        if record.player != deciding:
            raise ValueError(f"{record}: player {deciding} decides now")
        return replace(self, match=act(), at=after)

    def _resign_offered(self, record: ResignOffered) -> Table:
        at = self.at
        back = at.back if isinstance(at, Resigning) else at
        if not isinstance(back, BeforeRoll | Moving):
            raise ValueError(f"{record} came in phase {self.phase.value}, not on a turn")
        if record.player != self.match.turn:
            raise ValueError(f"{record}: player {self.match.turn} is on roll")
        level = GameResult(record.result)
        match = self.match.resign(record.player, level)
        return replace(self, match=match, at=ResignPending(level, back))

    def _resign_answered(self, record: ResignAnswered) -> Table:
        at = self._expect(Phase.RESIGN_OFFERED, record).at
        assert isinstance(at, ResignPending)
        if record.player != _other(self.match.resigner):
            raise ValueError(f"{record}: player {_other(self.match.resigner)} answers")
        if record.accepted:
            return replace(self, match=self.match.accept_resignation(), at=Ending())
        return replace(self, match=self.match.decline_resignation(), at=at.back)._read()

    def _illegal_accepted(self, record: IllegalAccepted) -> Table:
        if self.phase not in (Phase.MOVING, Phase.ILLEGAL):
            raise ValueError(f"{record} came in phase {self.phase.value}, not while moving")
        mover = self.match.turn
        if record.player != mover:
            raise ValueError(f"{record}: player {mover} is on roll")
        after = Position.from_id(record.position)
        if not only_hits(self.mover_view.opponent, after.opponent):
            raise ValueError(f"{record} moves the opponent's checkers, not only hits blots")
        before = counts_of(self.position, WHITE)
        position = _mover(after, mover)
        now = counts_of(position, WHITE)
        touched = frozenset(zone for zone, count in enumerate(now) if count != before[zone])
        table = replace(self, position=position, last_play=touched)
        return replace(table, match=self.match.end_turn(), at=BeforeRoll())

    def _game_ended(self, record: GameEnded) -> Table:
        match = self.match
        if record.resigned:
            if match.state is not GameState.RESIGNED or match.game_winner != record.winner:
                raise ValueError(f"{record}: no resignation accepted by player {record.winner}")
        elif record.dropped:
            if match.state is not GameState.DROPPED or match.game_winner != record.winner:
                raise ValueError(f"{record}: no drop by player {_other(record.winner)}")
        else:
            result = game_result(self.mover_view_of(record.winner))
            if result is None or int(result) != record.result:
                raise ValueError(f"{record}: player {record.winner} has not won a {record.result}")
            match = match.win(record.winner, GameResult(record.result))
        over: PhaseState = MatchOver() if match.match_over else GameOver()
        return replace(self, match=match, at=over)

    # -- events -----------------------------------------------------------------------------

    def handle(self, event: Event) -> Step:
        """React to one event: the next table, the records decided, dice wanted, and the
        decision now awaited from a seat that is not a person here (when it is new)."""
        step = _forget_stale_hint(self._handle(event))
        if step.table is self or (step.table.at is self.at and step.table.match is self.match):
            return step  # nothing a seat could be asked about has changed
        request = waiting(step.table)
        if request is not None and request != waiting(self):
            return replace(step, request=request)
        return step

    def _handle(self, event: Event) -> Step:
        if isinstance(event, Seen | Tick):
            return self._seen(event)
        if isinstance(event, DiceRolled | DiceDrawing):
            return self._dice_event(event)
        if isinstance(event, Fault):
            faults = tuple(f for f in self.faults if f[0] != event.source)
            if event.message is not None:
                faults += ((event.source, event.message),)
            return Step(replace(self, faults=faults))
        if isinstance(event, Press):
            return self._button(event)
        return self._answered(event)

    def _answered(self, event: Decided | Chosen | Hinted) -> Step:
        """An answer from off the shell's loop: a seat's decision or play, or a hint."""
        if isinstance(event, Decided):
            return self._decided(event)
        if isinstance(event, Chosen):
            return self._chosen(event)
        return self._hinted(event)

    def _seen(self, event: Seen | Tick) -> Step:
        if isinstance(event, Seen):
            settle, settled = self.settle.feed(event.observation, event.t)
        else:
            settle, settled = self.settle.poll(event.t)
        table = self if settle is self.settle else replace(self, settle=settle)
        step = table._settled(settled)
        if isinstance(step.table.at, Guided):  # no records: the play is not committed yet
            return step.table._guided_wait(event.t)
        return replace(step, table=step.table._flash(event.t))

    def _flash(self, t: float) -> Table:
        """A mistake's flash on the LEDs, started or ended by the clock."""
        at = self.at
        if not isinstance(at, Moving) or at.said is None:
            return self
        said = at.said.at(t)
        return self if said is at.said else replace(self, at=replace(at, said=said))

    def _settled(self, observation: Observation | None) -> Step:
        if observation is None:
            return Step(self)
        table = replace(self, observation=observation)._read()
        if table.phase is Phase.SETUP and table.board_ok():
            return table._decide(GameStarted())
        return table._guided_done()

    def _read(self) -> Table:
        """Let the tracker answer the settled observation (in the moving phase); in a
        guided play, find how many of its moves the board shows."""
        at, seen = self.at, self.observation
        if isinstance(at, Guided) and seen is not None:
            return self._guided_read(at, seen)
        if not isinstance(at, Moving) or seen is None:
            return self
        reading = at.tracker.read(seen, at.near)
        near = reading.nodes[0] if reading.kind is Kind.AT_NODE else at.near
        mistake = diagnose(at.tracker, seen, reading, at.near)
        said = at.said if at.said is not None and at.said.mistake == mistake else None
        if said is None and mistake is not None:
            said = Said(mistake)
        return replace(self, at=Moving(at.tracker, reading, near, said))

    def _guided_read(self, at: Guided, seen: Observation) -> Table:
        """Count the lit move made once the board shows the step after it, if the sensors
        can see that move: one the sensors cannot see waits for the hands' word (or the
        wait), never counted because the board already looks like the step after it.

        One move at a time, never to a later step the board seems to show: visible moves
        can add up to a change the sensors cannot see (6/4 then 4/off from a point fuller
        than its switches reads as the start; 6/4* then 4/off as the hit blot on the bar
        with the hitter still in the hand; 8/5 then 5/off as the checker from the 8-point
        in the hand). A board that looks like a later
        step is no sign the hands got there; counting it committed the play before its
        checkers moved, and the board and the journal parted for good (a remote match then
        stopped at a later play that no board could show)."""
        following = at.done + 1
        if at.done in at.unseen or following >= len(at.steps):
            return self
        if not self._shows(seen, at.steps[following]):
            return self
        return replace(self, at=replace(at, done=following, since=None))

    def _shows(self, observation: Observation, position: Position) -> bool:
        return check_board(observation, position, WHITE, self.config.caps).ok

    def _decide(self, *records: Record) -> Step:
        table = self
        for record in records:
            table = table.apply(record)
        return Step(table._read(), records)

    def _dice_event(self, event: DiceRolled | DiceDrawing) -> Step:
        if isinstance(event, DiceRolled):
            return self._dice(event.player, event.dice)
        at = self.at  # the dice asked for come later, drawn with another board
        if not isinstance(at, Opening | BeforeRoll):
            raise ValueError(f"dice for player {event.player} drawn in phase {self.phase.value}")
        return Step(replace(self, at=Rolling(event.player, event.count, at)))

    def _dice(self, player: int, dice: tuple[int, ...]) -> Step:
        if isinstance(self.at, Rolling):  # drawn with another board: they came
            return replace(self, at=self.at.back)._dice(player, dice)
        if self.phase is Phase.OPENING and len(dice) == 1:
            record = OpeningDie(player, dice[0])
            table = self.apply(record)
            white, black = table.opening
            if white is not None and black is not None:
                return chain(Step(table, (record,)), table._decide(OpeningRolled(white, black)))
            return Step(table, (record,))
        if self.phase is Phase.BEFORE_ROLL and player == self.match.turn and len(dice) == 2:
            return self._decide(Rolled(player, (dice[0], dice[1])))
        raise ValueError(f"dice {dice} were not asked for in phase {self.phase.value}")

    # -- buttons ----------------------------------------------------------------------------

    def _button(self, event: Press) -> Step:
        player, button = event.player, event.button
        if self.seats[player] is not Seat.PERSON:
            return Step(self)  # that seat decides for itself: its buttons here do nothing
        if event.pressed:
            rows = rows_of(self, player, button)
            # A button with a held meaning waits for its release to tell short from held.
            waiting = Hold.HELD in rows
            table = replace(self, held=(*self.held, Held(player, button, event.t, waiting)))
            return Step(table) if waiting else table._press(player, button, Hold.SHORT)
        down = next((h for h in self.held if (h.player, h.button) == (player, button)), None)
        table = replace(self, held=tuple(h for h in self.held if h is not down))
        if down is None or not down.waiting:
            return Step(table)
        long = event.t - down.since >= self.config.long_press
        return table._press(player, button, Hold.HELD if long else Hold.SHORT)

    def _press(self, player: int, button: str, hold: Hold) -> Step:
        if self.sensors_down:
            # The board cannot be read: its last reading may be stale, so no button decides
            # anything (no play, roll or cube) until the sensors answer again.
            return Step(self)
        rows = rows_of(self, player, button)
        row = rows.get(hold) or rows.get(Hold.SHORT)
        if row is None:
            return self._refused_press(player, button)
        return self.intend(player, row.intent)

    def _refused_press(self, player: int, button: str) -> Step:
        """A press that does nothing now (its light is dark): ROLL of the player on roll
        while moving says why the turn cannot end, on the page and in the log."""
        at, seen = self.at, self.observation
        moving = isinstance(at, Moving) and at.reading is not None and seen is not None
        if button != ROLL or player != self.match.turn or not moving:
            return Step(self)
        assert isinstance(at, Moving) and at.reading is not None and seen is not None
        mistake = refusal(at.tracker, seen, at.reading, at.near)
        why = _("{name}'s ROLL does nothing: {why}").format(
            name=self.names[player], why=mistake_words(mistake)
        )
        return Step(replace(self, at=replace(at, said=Said(mistake))), refused=why)

    # -- seats that are not a person here -----------------------------------------------------

    def _refuse(self, player: int, why: str) -> Step:
        return Step(self, refused=f"{self.names[player]}'s seat: {why}")

    def _decided(self, event: Decided) -> Step:
        player, intent = event.player, event.intent
        if self.seats[player] is Seat.PERSON:
            return self._refuse(player, "a person at this board decides with the buttons")
        if intent not in SEAT_INTENTS or intent not in intents_of(self, player):
            return self._refuse(player, f"{intent.value} is not open in phase {self.phase.value}")
        if intent is Intent.RESIGN:
            if event.result is None:
                return self._refuse(player, "a resignation names its level")
            return self._decide(ResignOffered(player, int(event.result)))
        return self.intend(player, intent)

    def _chosen(self, event: Chosen) -> Step:
        player, at, dice = event.player, self.at, self.match.dice
        if self.seats[player] is Seat.PERSON:
            return self._refuse(player, "a person at this board makes the play by hand")
        if not isinstance(at, Moving) or player != self.match.turn or dice is None:
            return self._refuse(player, f"no play is due in phase {self.phase.value}")
        steps = _steps(self.mover_view, event.moves, player)
        legal = {play.result: len(play.moves) for play in legal_plays(self.mover_view, dice)}
        if steps is None or legal.get(_mover(steps[-1], player)) != len(event.moves):
            return self._refuse(player, f"{event.moves} is not a legal play of {dice}")
        unseen = frozenset(k for k in range(len(event.moves)) if self._alike(*steps[k : k + 2]))
        guided = replace(self, at=Guided(at.tracker, event.moves, steps, unseen=unseen))._read()
        return guided._guided_done()

    def _alike(self, before: Position, after: Position) -> bool:
        """Whether the sensors read the two positions (White's view) the same."""
        caps = self.config.caps
        return observe(before, WHITE, caps) == observe(after, WHITE, caps)

    def _move_made(self, player: int) -> Step:
        """The hands' word that the lit move, one the sensors cannot see, is made."""
        at = self.at
        assert isinstance(at, Guided) and at.needs_word
        return replace(self, at=replace(at, done=at.done + 1, since=None))._read()._guided_done()

    def _guided_wait(self, t: float) -> Step:
        """Where no person here can give the word, an unseen move lit and held on the board
        for :data:`UNSEEN_WAIT` seconds counts as made."""
        at = self.at
        assert isinstance(at, Guided)
        if Seat.PERSON in self.seats or not unseen_lit(self):
            return Step(self if at.since is None else replace(self, at=replace(at, since=None)))
        if at.since is None:
            return Step(replace(self, at=replace(at, since=t)))
        if t - at.since < UNSEEN_WAIT:
            return Step(self)
        return self._move_made(self.match.turn if self.match.turn is not None else WHITE)

    def _guided_done(self) -> Step:
        """A guided play is committed once every move is made (seen, or given the word) and
        the board shows all of it, read by the tracker."""
        at, seen = self.at, self.observation
        if not isinstance(at, Guided) or at.next_move is not None or seen is None:
            return Step(self)
        reading = at.tracker.read(seen)
        final = _mover(at.steps[-1], at.tracker.mover)
        if not any(at.tracker.node(node).result == final for node in reading.complete):
            return Step(self)
        return self._commit_moves(at.moves, final)

    def _ask_hint(self, player: int) -> Step:
        """A person asks for the engine's hint: the shell asks it off the loop's thread."""
        return Step(self, hint=HintRequest(player, kind_of(self.phase), moment_of(self)))

    def _hinted(self, event: Hinted) -> Step:
        """The engine's hint, kept while the moment it was asked about lasts."""
        if event.player not in self.config.hints:
            return self._refuse(event.player, "no hints are given to this seat")
        if event.request.moment != moment_of(self):
            return self._refuse(event.player, "the hint came after the position moved on")
        return Step(replace(self, hint=event))

    def intend(self, player: int, intent: Intent) -> Step:
        """Do what ``player`` wants, as a press of theirs would (checked by its caller)."""
        return _INTENTS[intent](self, player)

    def _opening_roll(self, player: int) -> Step:
        return Step(self, dice=DiceRequest(player, 1))

    def _roll(self, player: int) -> Step:
        return Step(self, dice=DiceRequest(player, 2))

    def _double(self, player: int) -> Step:
        return self._decide(CubeAction(player, Cube.DOUBLE))

    def _take(self, player: int) -> Step:
        return self._decide(CubeAction(player, Cube.TAKE))

    def _beaver(self, player: int) -> Step:
        return self._decide(CubeAction(player, Cube.BEAVER))

    def _drop(self, player: int) -> Step:
        cube = self.match.cube
        return self._decide(
            CubeAction(player, Cube.DROP), GameEnded(_other(player), 1, cube, dropped=True)
        )

    def _end_turn(self, player: int) -> Step:
        """A complete legal play on the board: committed, or confirmed if several fit."""
        reading = self.reading
        assert isinstance(self.at, Moving) and reading is not None
        if len(reading.complete) > 1:
            return Step(replace(self, at=Confirm(self.at.tracker, reading.complete)))
        return self._commit(self.at.tracker, reading.complete[0])

    def _confirm(self, player: int) -> Step:
        assert isinstance(self.at, Confirm)
        return self._commit(self.at.tracker, self.at.candidates[self.at.candidate])

    def _next_candidate(self, player: int) -> Step:
        at = self.at
        assert isinstance(at, Confirm)
        return Step(
            replace(self, at=replace(at, candidate=(at.candidate + 1) % len(at.candidates)))
        )

    def _commit(self, tracker: TurnTracker, node: int) -> Step:
        play = tracker.play(node)
        return self._commit_moves(play.moves, play.result)

    def _commit_moves(self, moves: tuple[Move, ...], after: Position) -> Step:
        """The play ``moves``, leading to ``after`` (the mover's view), journaled."""
        assert self.match.turn is not None
        mover = self.match.turn
        records: list[Record] = [Played.of(mover, moves)]
        result = game_result(after)
        if result is not None:
            points = self.match.points_for(result)
            records.append(GameEnded(mover, int(result), points))
        return self._decide(*records)

    def _resign(self, player: int) -> Step:
        at = self.at
        assert isinstance(at, BeforeRoll | Moving)
        return Step(replace(self, at=Resigning(GameResult.SINGLE, at)))

    def _next_level(self, player: int) -> Step:
        at = self.at
        assert isinstance(at, Resigning)
        level = GameResult(int(at.level) % len(GameResult) + 1)
        return Step(replace(self, at=replace(at, level=level)))

    def _offer_resign(self, player: int) -> Step:
        assert isinstance(self.at, Resigning)
        return self._decide(ResignOffered(player, int(self.at.level)))

    def _cancel_resign(self, player: int) -> Step:
        assert isinstance(self.at, Resigning)
        return Step(replace(self, at=self.at.back)._read())

    def _accept_resign(self, player: int) -> Step:
        assert isinstance(self.at, ResignPending)
        level = self.at.level
        points = int(level) * self.match.cube  # as accept_resignation scores it
        return self._decide(
            ResignAnswered(player, accepted=True),
            GameEnded(player, int(level), points, resigned=True),
        )

    def _end_turn_illegal(self, player: int) -> Step:
        at, seen = self.at, self.observation
        assert isinstance(at, Moving) and seen is not None
        after = read_illegal(self.mover_view, seen, player, self.config.caps)
        if after is not None and game_result(after) is not None:
            after = None  # an illegal last bear-off is corrected, not accepted
        return Step(replace(self, at=Illegal(at, after)))

    def _accept_illegal(self, player: int) -> Step:
        at = self.at
        assert isinstance(at, Illegal) and at.after is not None
        accepted = self._decide(IllegalAccepted(_other(player), at.after.id()))
        # The rule: the opponent accepts an illegal play by rolling.
        return chain(accepted, accepted.table._roll(player))

    def _demand_correction(self, player: int) -> Step:
        assert isinstance(self.at, Illegal)
        return Step(replace(self, at=self.at.back)._read())

    def _decline_resign(self, player: int) -> Step:
        return self._decide(ResignAnswered(player, accepted=False))

    def _next_game(self, player: int) -> Step:
        if self.phase is Phase.MATCH_OVER:
            draft = self.config.next_match or self.match.rules
            return Step(replace(self, at=Choosing(draft)))
        return replace(self, at=Setup(), position=Position.initial())._set_up()

    def _set_up(self, first: Step | None = None) -> Step:
        """In the setup phase (after ``first``, if given): a board that already shows the
        starting position starts the game now, as a board set up to it would."""
        step = first or Step(self)
        if step.table.phase is Phase.SETUP and step.table.board_ok():
            return chain(step, step.table._decide(GameStarted()))
        return step

    def _next_value(self, player: int) -> Step:
        at = self.at
        assert isinstance(at, Choosing)
        return Step(replace(self, at=replace(at, draft=next_value(at.draft, at.option))))

    def _next_option(self, player: int) -> Step:
        at = self.at
        assert isinstance(at, Choosing)
        options = options_of(at.draft)
        option = options[(options.index(at.option) + 1) % len(options)]
        return Step(replace(self, at=replace(at, option=option)))

    def _start_match(self, player: int) -> Step:
        assert isinstance(self.at, Choosing)
        return self._set_up(self._decide(MatchStarted.of(self.at.draft, self.names, self.seats)))

    # -- what to show -----------------------------------------------------------------------

    @property
    def sensors_down(self) -> bool:
        """Whether the sensors reported a fault that has not cleared."""
        return any(source == "sensors" for source, _message in self.faults)

    def board_diff(self) -> BoardDiff | None:
        """How the board differs from the position it should show (outside the moving phase;
        in it the tracker's reading says); None before the sensors have said anything."""
        if self.observation is None:
            return None
        return check_board(self.observation, self.position, WHITE, self.config.caps)

    def board_ok(self) -> bool:
        diff = self.board_diff()
        return diff is not None and diff.ok


_INTENTS: dict[Intent, Callable[[Table, int], Step]] = {
    Intent.OPENING_ROLL: Table._opening_roll,
    Intent.ROLL: Table._roll,
    Intent.DOUBLE: Table._double,
    Intent.TAKE: Table._take,
    Intent.BEAVER: Table._beaver,
    Intent.DROP: Table._drop,
    Intent.END_TURN: Table._end_turn,
    Intent.CONFIRM: Table._confirm,
    Intent.NEXT_CANDIDATE: Table._next_candidate,
    Intent.NEXT_GAME: Table._next_game,
    Intent.RESIGN: Table._resign,
    Intent.NEXT_LEVEL: Table._next_level,
    Intent.OFFER_RESIGN: Table._offer_resign,
    Intent.CANCEL_RESIGN: Table._cancel_resign,
    Intent.ACCEPT_RESIGN: Table._accept_resign,
    Intent.DECLINE_RESIGN: Table._decline_resign,
    Intent.END_TURN_ILLEGAL: Table._end_turn_illegal,
    Intent.ACCEPT_ILLEGAL: Table._accept_illegal,
    Intent.DEMAND_CORRECTION: Table._demand_correction,
    Intent.NEXT_VALUE: Table._next_value,
    Intent.NEXT_OPTION: Table._next_option,
    Intent.START_MATCH: Table._start_match,
    Intent.MOVE_MADE: Table._move_made,
    Intent.HINT: Table._ask_hint,
}


def _forget_stale_hint(step: Step) -> Step:
    """A hint held no longer than the decision it was about (a roll, a move made and the
    turn passed, the cube turned)."""
    table = step.table
    if table.hint is None or table.hint.request.moment == moment_of(table):
        return step
    return replace(step, table=replace(table, hint=None))


def _steps(start: Position, moves: tuple[Move, ...], mover: int) -> tuple[Position, ...] | None:
    """The positions (White's view) after each of ``moves`` made from ``start`` (the
    mover's view), ``start`` first; None if a move cannot be made."""
    steps, position = [start], start
    for move in moves:
        try:
            position = apply_move(position, move)
        except (RulesError, ValueError, IndexError):
            return None
        steps.append(position)
    return tuple(_mover(step, mover) for step in steps)


def _mover(position: Position, mover: int) -> Position:
    """White's view of the mover's view, and back: the same swap."""
    return position.swap() if mover == BLACK else position


def _other(player: int | None) -> int:
    if player is None:
        raise ValueError("nobody is on roll")
    return 1 - player
