"""The whole table in simulator mode, driven by hand: the API that the tests, the demo and
the developer's page share.

A :class:`SimTable` wires the pure table to the simulated board, buttons and pixels through
the same :class:`~bgpi.service.driver.Driver` the app uses, on a manual clock: act with hands
(``lift``, ``place``, ``move``, ``knock``), press buttons, let time pass with ``advance``,
and read the state and the pixel frame.
"""

from __future__ import annotations

import queue
import random
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bgpi.base.geometry import Geometry
from bgpi.base.words import BLACK, CUBE, RGB, ROLL, WHITE, ButtonName, Player
from bgpi.hal.api import Event
from bgpi.hal.dice import SeededDice
from bgpi.hal.sim import ManualClock, SimBoard, SimButtons, SimPixels
from bgpi.journal.records import MatchStarted, OpeningDie, Record, Rolled
from bgpi.lights.ledmap import LedMap
from bgpi.lights.render import Style
from bgpi.lights.scene import Scene
from bgpi.rules import BAR, OFF, Match, Move, Position
from bgpi.sensing.board import capacities, zone_of
from bgpi.sensing.settle import DEFAULT_SETTLE
from bgpi.service.driver import Driver, Journal, MemoryJournal
from bgpi.service.edge import table_event
from bgpi.service.resume import complete
from bgpi.sim.entering import gestures
from bgpi.table import (
    LONG_PRESS,
    Chosen,
    Decided,
    DecisionRequest,
    Entering,
    Hinted,
    HintRequest,
    Hold,
    Phase,
    Table,
    TableConfig,
)
from bgpi.table.buttons import enterer
from bgpi.table.errors import TableError
from bgpi.table.phases import TAKEBACK_WAIT
from bgpi.table.seats import SeatAnswer, answered

if TYPE_CHECKING:
    from bgpi.sim.godice import SimGoDice

TICK = 0.005  # the harness's time step: finer than the settle time

SimSeat = Callable[[DecisionRequest, Table], SeatAnswer | None]
"""A seat that is not a person here, in the simulator: given what the table asks and the
table, an intent, a play (moves in the mover's numbering), the level it resigns before its
roll, or None (no answer yet, or one to come later through :meth:`SimTable.post`)."""

Advise = Callable[[HintRequest, Table], Hinted | None]
"""Who answers a person's hint request here: the hint, or None (it comes later, posted)."""


@dataclass(frozen=True, slots=True)
class SimOptions:
    """How the simulated table is built."""

    seed: int = 0
    bounce: float = 0.0
    jitter: float = 0.0
    slide_step: float = 0.02
    settle: float = DEFAULT_SETTLE
    long_press: float = LONG_PRESS
    accept_illegal: bool = True
    hints: frozenset[Player] = frozenset()  # the players who may ask for a hint
    takeback_wait: float = TAKEBACK_WAIT  # the computer's wait for a takeback ([seats])
    godice: bool = False  # a simulated GoDice pair is paired to the board (bgpi.sim.godice)
    roster: tuple[str, ...] = ()  # the club's players, chosen from between matches


@dataclass(frozen=True, slots=True)
class Fresh:
    """A fresh board, as ``bgpi sim`` and ``bgpi demo`` open on an empty journal: the players
    choose the match, ``defaults`` shown first, and nothing is journaled until they start it.
    Its checkers stand in the starting position meanwhile."""

    defaults: MatchStarted


class SimTable:
    """A table on the simulated board, with seeded dice and a manual clock."""

    def __init__(
        self,
        records: MatchStarted | Sequence[Record] | Fresh,
        *,
        options: SimOptions | None = None,
        geometry: Geometry | None = None,
        ledmap: LedMap | None = None,
        style: Style | None = None,
        journal: Journal | None = None,
    ) -> None:
        """A table for a new match (``records`` a MatchStarted, journaled as given), one
        resumed from a journal's records, the board standing as the journal left it, or a
        fresh board (:class:`Fresh`) where the players choose the match. Put a
        :data:`SimSeat` in :attr:`seats` for each player the match seats as not a person
        here."""
        options = options or SimOptions()
        history: list[Record] = (
            [records]
            if isinstance(records, MatchStarted)
            else []
            if isinstance(records, Fresh)
            else list(records)
        )
        self.geometry = geometry or Geometry.default()
        self.seed = options.seed
        self.clock = ManualClock()
        self.board = SimBoard(
            self.geometry,
            clock=self.clock,
            bounce=options.bounce,
            jitter=options.jitter,
            seed=options.seed,
            slide_step=options.slide_step,
        )
        self.buttons = SimButtons(clock=self.clock)
        ledmap = ledmap or LedMap.default()
        self.pixels = SimPixels(ledmap.length)
        self.journal = journal if journal is not None else MemoryJournal()
        self._events: deque[Event] = deque()
        # The simulated GoDice pair, on the link's own loop: its words join the board's.
        self.godice: SimGoDice | None = None
        if options.godice:
            from bgpi.sim.godice import SimGoDice  # noqa: PLC0415 (the godice library)

            self.godice = SimGoDice(self.clock, self._events.append)
        self.seats: dict[Player, SimSeat] = {}
        self.advise: Advise | None = None  # who answers a hint asked for here
        self._hint_asks: deque[HintRequest] = deque()
        # Answers that come from other threads (an engine thinking off the page's loop), taken
        # on the owner's thread at the next advance.
        self._inbox: queue.SimpleQueue[Decided | Chosen | Hinted] = queue.SimpleQueue()
        self._asks: deque[DecisionRequest] = deque()
        if isinstance(records, MatchStarted):
            self.journal.new_match(records)
        config = TableConfig(
            capacities(self.geometry),
            options.settle,
            options.long_press,
            options.accept_illegal,
            hints=options.hints,
            takeback_wait=options.takeback_wait,
            godice=options.godice,
            roster=options.roster,
        )
        if isinstance(records, Fresh):
            table = Table.choose(config, records.defaults)
        else:  # resumed as the shell resumes a journal: a step left half-journaled finished
            table, history = complete(config, history, self.journal)
        dice = SeededDice(options.seed)
        dice.skip(dice_rolled(history))
        self.driver = Driver(
            table,
            self.journal,
            dice,
            self.pixels,
            self.geometry,
            ledmap,
            style or Style(),
            log=history,
            ask=self._asks.append,
            hint=self._hint_asks.append,
        )
        if self.phase is not Phase.SETUP:
            self.setup(self.position)
        self.board.start(self._events.append)
        self.buttons.start(self._events.append)
        self.advance(0.1)

    # -- time ---------------------------------------------------------------------------

    def advance(self, seconds: float = 0.1) -> None:
        """Let ``seconds`` pass: switches change, frames settle, the table reacts."""
        end = self.clock() + seconds
        while True:
            self._drain()
            self.driver.tick(self.clock())
            if self.clock() >= end - 1e-9:
                return
            self.board.advance(min(TICK, end - self.clock()))

    def think(self, seconds: float) -> None:
        """Let ``seconds`` pass with nothing touched (a player thinking): one step of the
        clock, then the table ticks."""
        self.board.advance(seconds)
        self.advance()

    def _drain(self) -> None:
        self.board.pump()
        while self._events or self._asks or self._hint_asks or not self._inbox.empty():
            while self._events:
                self.take(self._events.popleft())
            while not self._inbox.empty():
                self.driver.dispatch(self._inbox.get_nowait())
            if self._asks:
                self._answer(self._asks.popleft())
            if self._hint_asks:
                self._advise(self._hint_asks.popleft())

    def take(self, event: Event) -> None:
        """A backend's event (the simulated board's, the buttons', a fault) to the table now,
        converted at the edge as the app's loop converts it."""
        self.driver.dispatch(table_event(event, self.geometry))

    def _answer(self, request: DecisionRequest) -> None:
        seat = self.seats.get(request.player)
        answer = seat(request, self.table) if seat is not None else None
        if answer is not None:
            self.driver.dispatch(answered(request.player, answer, self.clock()))

    def _advise(self, request: HintRequest) -> None:
        hinted = self.advise(request, self.table) if self.advise is not None else None
        if hinted is not None:
            self.driver.dispatch(hinted)

    @property
    def pending(self) -> bool:
        """Whether answers posted from another thread wait for the next :meth:`advance`."""
        return not self._inbox.empty()

    def post(self, event: Decided | Chosen | Hinted) -> None:
        """An answer from another thread: the table takes it at the next :meth:`advance`."""
        self._inbox.put(event)

    def ask(self, request: DecisionRequest) -> None:
        """Ask a seat again (the table asks once, when it starts waiting)."""
        self._asks.append(request)
        self.advance(0)

    # -- hands, in printed zones --------------------------------------------------------

    def setup(self, position: Position | None = None) -> None:
        """Put the checkers on the board for ``position`` (White's view; default: the start)."""
        position = position or Position.initial()
        layout = {}
        for colour, side in ((WHITE, position.player), (BLACK, position.opponent)):
            for index, count in enumerate(side):
                if count and (index != OFF or self.geometry.tray_slots):
                    layout[zone_of(colour, index)] = (colour, count)
        self.board.setup(layout)
        self.advance()

    def lift(self, zone: int, colour: Player | None = None) -> None:
        self.board.lift(zone, colour)
        self.advance()

    def place(self, zone: int, colour: Player) -> None:
        self.board.place(zone, colour)
        self.advance()

    def knock(self, zone: int) -> None:
        self.board.knock(zone, by=None)
        self.advance()

    def straighten(self, zone: int) -> None:
        self.board.straighten(zone)
        self.advance()

    def press(self, player: Player, button: ButtonName, hold: float = 0.05) -> None:
        self.buttons.press(player, button)
        self.advance(hold)
        self.buttons.release(player, button)
        self.advance()

    def roll(self, player: Player) -> None:
        self.press(player, ROLL)

    def cube(self, player: Player) -> None:
        self.press(player, CUBE)

    def enter(self, dice: tuple[int, ...]) -> None:
        """Enter ``dice`` thrown by hand, with the buttons of whoever enters them (the
        fewest presses: :mod:`bgpi.sim.entering`)."""
        player = enterer(self.table)
        if player is None:
            raise TableError(f"no dice are entered in phase {self.phase.value}")
        held = self.table.config.long_press + 0.2
        for button, hold in gestures(dice):
            self.press(player, button, hold=held if hold is Hold.HELD else 0.05)

    def throw(self) -> tuple[int, ...]:
        """The dice the hands throw for the roll being entered, from the seeded dice (so
        a resumed match throws on as the board's dice would have rolled)."""
        at = self.table.at
        if not isinstance(at, Entering):
            raise TableError(f"no dice are thrown in phase {self.phase.value}")
        dice = self.driver.dice
        return dice.roll() if at.count == 2 else (dice.die(),)

    def throw_godice(self, rng: random.Random | None = None) -> bool:
        """If the table waits for a throw of the GoDice, the hands throw them (the seeded
        dice; now and then a die lands cocked or moved, from ``rng``, by default from the
        seed and the records so far) and let them come to rest; whether they threw."""
        if self.godice is None:
            return False
        rng = rng or random.Random(f"{self.seed}:{len(self.driver.log)}")
        from bgpi.sim.godice import THROW_TIME, throw_asked  # noqa: PLC0415

        dice = self.driver.dice
        seeded = lambda count: dice.roll() if count == 2 else (dice.die(),)  # noqa: E731
        if not throw_asked(self.godice, self.table, seeded, rng):
            return False
        self.advance(THROW_TIME)
        return True

    def close(self) -> None:
        """Let the simulated GoDice go (their loop's thread); closing twice is harmless."""
        if self.godice is not None:
            self.godice.close()

    # -- hands, in the mover's numbering ------------------------------------------------

    def make_move(self, player: Player, move: Move) -> None:
        """Move one checker as a hand would: the blot first to the bar when it hits."""
        if move.hit:
            self.board.lift(zone_of(player, move.dst), player.other)
            self.board.place(zone_of(player.other, BAR), player.other)
            self.advance()
        self.board.lift(zone_of(player, move.src), player)
        if move.dst != OFF or self.geometry.tray_slots:
            self.board.place(zone_of(player, move.dst), player)
        self.advance()

    def make_play(self, player: Player, moves: tuple[Move, ...]) -> None:
        for move in moves:
            self.make_move(player, move)

    # -- reading ------------------------------------------------------------------------

    @property
    def table(self) -> Table:
        return self.driver.table

    @property
    def phase(self) -> Phase:
        return self.table.phase

    @property
    def match(self) -> Match:
        return self.table.match

    @property
    def position(self) -> Position:
        """The position the table holds, from White's side."""
        return self.table.position

    @property
    def scene(self) -> Scene:
        return self.driver.scene

    @property
    def frame(self) -> tuple[RGB, ...] | None:
        return self.pixels.last


def dice_rolled(records: Sequence[Record]) -> int:
    """How many dice the records hold: seeded dice resume after them."""
    return sum(
        1 if isinstance(r, OpeningDie) else 2 if isinstance(r, Rolled) else 0 for r in records
    )
