"""The table: a whole match at a real board, as a pure state machine.

Inputs are events with timestamps (:mod:`bgpi.table.events`): a raw observation of the board
(``Seen``), the clock (``Tick``), a button going down or up (``Press``), and dice the shell
rolled when asked (``DiceRolled``). :meth:`Table.handle` returns a :class:`Step`: the next
table, the records it decided (the shell journals each before showing it) and whether it wants
dice rolled.

Everything that matters is in the records: :meth:`Table.apply` turns one record into the next
table, checking it against the rules (one function per record type, in
:mod:`bgpi.table.replay`), and :meth:`Table.replay` rebuilds a table from a journal. What is
not recorded is only what the board and the hands say now (the settled observation, the
tracker's reading), which the sensors give back after a restart.

The table holds what spans phases (the match, the position, the settle filter, the buttons
down, the faults); ``at`` is the phase (:mod:`bgpi.table.phases`) with what only it needs.
What each button does is one table of rows in :mod:`bgpi.table.buttons`; a press told short
or held and decided by them, in :mod:`bgpi.table.presses`; what each intent does, one
handler per intent in :mod:`bgpi.table.intents`; the answers of seats that are not
a person here, and the play they chose lit for the hands, are in :mod:`bgpi.table.guided`;
the dice of a roll coming to the table, in :mod:`bgpi.table.rolls`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from bgpi.base.faults import FaultSource
from bgpi.base.words import Player
from bgpi.journal.records import (
    ELECTRONIC,
    PEOPLE,
    DiceSource,
    GameEnded,
    GameStarted,
    MatchStarted,
    Played,
    Record,
    Seat,
)
from bgpi.rules import Match, Move, Position, game_result
from bgpi.rules.clock import Clock
from bgpi.sensing.board import BoardDiff, Observation
from bgpi.sensing.mistakes import Mistake, diagnose
from bgpi.sensing.settle import SettleFilter
from bgpi.sensing.tracker import Kind, Reading, TurnTracker
from bgpi.table import guided, intents, presses, rolls, settling
from bgpi.table.board import diff_of, white_view
from bgpi.table.buttons import Intent
from bgpi.table.errors import TableError
from bgpi.table.events import (
    DiceDrawing,
    DiceRolled,
    DieRested,
    Event,
    Fault,
    Outage,
    Press,
    Seen,
    Silence,
    Step,
    TableConfig,
    Tick,
)
from bgpi.table.hints import Hinted, moment_of
from bgpi.table.options import named, starting_names
from bgpi.table.phases import (
    Choosing,
    Confirm,
    Entering,
    Guided,
    Illegal,
    Moving,
    Opening,
    Phase,
    PhaseState,
    Rolling,
    Said,
    Setup,
    TakingBack,
)
from bgpi.table.presses import Held
from bgpi.table.replay import applied, replayed
from bgpi.table.seats import Chosen, Decided, takeback_wait, waiting
from bgpi.table.thrown import after_fault, rested
from bgpi.table.timing import timed


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
    faults: tuple[Outage, ...] = ()  # backends down now: each source once, its latest word last
    hint: Hinted | None = None  # the engine's hint a person asked for, while its moment lasts
    clock: Clock | None = None  # a match played on the clock (bgpi.table.timing)
    dice: DiceSource = ELECTRONIC  # the match's: where its dice come from
    # The seat here that may claim the match by forfeit: a remote board that owes a message
    # said nothing past the patience (not journaled: the silence is measured again).
    claimant: Player | None = None

    # -- building ---------------------------------------------------------------------------

    @classmethod
    def start(cls, config: TableConfig, record: MatchStarted) -> Table:
        """A table for a new match, its first record applied (which sets the match, the
        names, the seats and the dice: :func:`~bgpi.table.replay.applied`)."""
        table = cls(config, Match.new(record.rules()), settle=SettleFilter(config.settle))
        return table.apply(record)

    @classmethod
    def choose(cls, config: TableConfig, defaults: MatchStarted) -> Table:
        """A fresh board (a journal with no match yet): the players choose the first match
        as they choose every next one, ``defaults`` shown first. Nothing is journaled until
        they start it: the :class:`MatchStarted` of their choice is the journal's first
        record."""
        chosen = named(config.roster, defaults.seats)
        return cls(
            config,
            Match.new(defaults.rules()),
            names=defaults.names,
            seats=defaults.seats,
            at=Choosing(
                defaults.rules(),
                clock=defaults.clock,
                dice=defaults.dice,
                names=starting_names(config.roster, defaults.names, chosen),
                named=chosen,
            ),
            settle=SettleFilter(config.settle),
            dice=defaults.dice,
        )

    @classmethod
    def replay(cls, config: TableConfig, records: Sequence[Record]) -> Table:
        """The table a journal leads to. A :class:`~bgpi.table.errors.RecordMismatchError`
        (a ``ValueError``) names the record if one does not fit."""
        first = records[0] if records else None
        if not isinstance(first, MatchStarted):
            raise TableError("a journal must begin with the start of a match")
        return replayed(cls.start(config, first), records)

    def apply(self, record: Record) -> Table:
        """The table after ``record``, which the rules must allow."""
        return applied(self, record)

    # -- what the phase holds ---------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self.at.kind

    @property
    def opening(self) -> tuple[int | None, int | None]:
        """Each player's opening die rolled so far."""
        at = self.at.back if isinstance(self.at, Rolling | Entering) else self.at
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
    def on_roll(self) -> Player:
        """The player on roll; a :class:`~bgpi.table.errors.TableError` before anyone is."""
        if self.match.turn is None:
            raise TableError("nobody is on roll")
        return self.match.turn

    @property
    def mover_view(self) -> Position:
        return self.mover_view_of(self.match.turn)

    def mover_view_of(self, player: Player | None) -> Position:
        return white_view(self.position, player)

    # -- events -----------------------------------------------------------------------------

    def handle(self, event: Event) -> Step:
        """React to one event: the next table, the records decided, dice wanted, and the
        decision now awaited from a seat that is not a person here (when it is new)."""
        step = _forget_stale_hint(self._handle(event))
        step = timed(self, step, settling.clock_time(self, step, event.t))
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
            return rolls.dice_event(self, event)
        if isinstance(event, DieRested):
            return rested(self, event)
        if isinstance(event, Fault | Silence):
            return Step(self._outside(event))
        if isinstance(event, Press):
            return presses.press(self, event)
        return self._answered(event)

    def _outside(self, event: Fault | Silence) -> Table:
        """The shell's word of what is outside the board: a backend down (or back), a
        remote board silent past the patience (or speaking again)."""
        if isinstance(event, Silence):
            return replace(self, claimant=event.player)
        faults = tuple(down for down in self.faults if down.source is not event.source)
        if event.message is not None:
            faults += (Outage(event.source, event.message),)
        return after_fault(replace(self, faults=faults))

    def _answered(self, event: Decided | Chosen | Hinted) -> Step:
        """An answer from off the shell's loop: a seat's decision or play, or a hint."""
        if isinstance(event, Decided):
            return guided.decided(self, event)
        if isinstance(event, Chosen):
            return guided.chosen(self, event)
        return self._hinted(event)

    def _seen(self, event: Seen | Tick) -> Step:
        if isinstance(event, Seen):
            settle, settled = self.settle.feed(event.observation, event.t)
        else:
            settle, settled = self.settle.poll(event.t)
        table = self if settle is self.settle else replace(self, settle=settle)
        step = table._settled(settled)
        at = step.table.at
        if isinstance(at, Guided):  # no records: the play is not committed yet
            return guided.wait(step.table, at, event.t)
        table = takeback_wait(step.table._flash(event.t), event.t)
        return presses.waited(table, step, event.t)

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
        table = replace(self, observation=observation).read_board()
        if table.phase is Phase.SETUP and table.board_ok():
            return table.decide(GameStarted())
        return guided.done(table)

    def read_board(self) -> Table:
        """Let the tracker answer the settled observation (in the moving phase); in a
        guided play, find how many of its moves the board shows; after a takeback, move on
        to the moving phase once the board shows the position again."""
        at, seen = self.at, self.observation
        if isinstance(at, Guided) and seen is not None:
            return guided.read(self, at, seen)
        if isinstance(at, TakingBack) and self.board_ok():
            # The checkers of the play taken back are back: the play is made again.
            return replace(self, at=Moving(at.tracker)).read_board()
        if not isinstance(at, Moving) or seen is None:
            return self
        reading = at.tracker.read(seen, at.near)
        near = reading.nodes[0] if reading.kind is Kind.AT_NODE else at.near
        mistake = diagnose(at.tracker, seen, reading, at.near)
        said = at.said if at.said is not None and at.said.mistake == mistake else None
        if said is None and mistake is not None:
            said = Said(mistake)
        return replace(self, at=replace(at, reading=reading, near=near, said=said))

    def decide(self, *records: Record) -> Step:
        """The step that journals ``records``, the table after them reading the board."""
        table = self
        for record in records:
            table = table.apply(record)
        return Step(table.read_board(), records)

    def commit(self, moves: tuple[Move, ...], after: Position) -> Step:
        """The play ``moves`` of the player on roll, leading to ``after`` (the mover's
        view), journaled, with the end of the game it wins."""
        mover = self.on_roll
        records: list[Record] = [Played.of(mover, moves)]
        result = game_result(after)
        if result is not None:
            points = self.match.points_for(result)
            records.append(GameEnded(mover, int(result), points))
        return self.decide(*records)

    @property
    def entered_dice(self) -> bool:
        """Whether a roll now is thrown by hand and entered here (:mod:`bgpi.table.rolls`)."""
        return rolls.entered_dice(self)

    def roll_for(self, player: Player, count: int, step: Step | None = None) -> Step:
        """``step`` (default: none yet) with the dice ``player`` rolls now (``count``: one in
        the opening roll), as :func:`bgpi.table.rolls.roll_for` asks for them."""
        return rolls.roll_for(self, player, count, step)

    def rolled(
        self, player: Player, dice: tuple[int, ...], source: DiceSource = ELECTRONIC
    ) -> Step:
        """``player``'s dice, from ``source``, journaled as the phase asked for them."""
        return rolls.rolled(self, player, dice, source)

    def _hinted(self, event: Hinted) -> Step:
        """The engine's hint, kept while the moment it was asked about lasts."""
        if event.player not in self.config.hints:
            return guided.refuse(self, event.player, "no hints are given to this seat")
        if event.request.moment != moment_of(self):
            return guided.refuse(self, event.player, "the hint came after the position moved on")
        return Step(replace(self, hint=event))

    def intend(self, player: Player, intent: Intent) -> Step:
        """Do what ``player`` wants, as a press of theirs would (checked by its caller)."""
        return intents.intend(self, player, intent)

    # -- reading the board ------------------------------------------------------------------

    def down(self, source: FaultSource) -> str | None:
        """What ``source`` last said of how it is down, until it recovers; None while it
        works."""
        return next((down.message for down in self.faults if down.source is source), None)

    @property
    def outage(self) -> Outage | None:
        """The first backend down now that the board cannot play on without: any but the
        GoDice pair, whose dice the buttons enter meanwhile. The LEDs show it and the page
        names it."""
        return next((down for down in self.faults if down.source is not FaultSource.GODICE), None)

    @property
    def sensors_down(self) -> bool:
        """Whether the sensors reported a fault that has not cleared."""
        return self.down(FaultSource.SENSORS) is not None

    def board_diff(self) -> BoardDiff | None:
        """How the board differs from the position it should show (outside the moving phase;
        in it the tracker's reading says); None before the sensors have said anything.
        Computed once per (observation, position), however often a frame asks."""
        if self.observation is None:
            return None
        return diff_of(self.observation, self.position, self.config.caps)

    def board_ok(self) -> bool:
        diff = self.board_diff()
        return diff is not None and diff.ok


def _forget_stale_hint(step: Step) -> Step:
    """A hint held no longer than the decision it was about (a roll, a move made and the
    turn passed, the cube turned)."""
    table = step.table
    if table.hint is None or table.hint.request.moment == moment_of(table):
        return step
    return replace(step, table=replace(table, hint=None))
