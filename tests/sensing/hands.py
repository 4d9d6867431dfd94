"""Hands on the simulated board for the tracker's tests: a turn set up on a SimBoard, whose
frames go through the geometry and the settle filter into the tracker, as in the shell."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bgpi.base.geometry import Geometry
from bgpi.base.words import WHITE, Player
from bgpi.hal.api import SensorEvent
from bgpi.hal.sim import SimBoard
from bgpi.rules import BAR, OFF, Move, Play, Position, apply_move, legal_moves
from bgpi.sensing.board import Observation, capacities, zone_of
from bgpi.sensing.settle import SettleFilter
from bgpi.sensing.tracker import Kind, Reading, TurnTracker

SETTLE = 0.04
TICK = 0.005


def layout(pos: Position, mover: Player, geometry: Geometry) -> dict[int, tuple[Player, int]]:
    """{zone: (colour, count)} for a position, the mover being ``mover``."""
    board: dict[int, tuple[Player, int]] = {}
    for colour, side in ((mover, pos.player), (mover.other, pos.opponent)):
        for index, count in enumerate(side):
            zone = zone_of(colour, index)
            if count and (index != OFF or geometry.tray_slots):
                board[zone] = (colour, count)
    return board


def position_on(board: SimBoard, mover: Player) -> Position | None:
    """The position the checkers on ``board`` really stand in (None if it is no position:
    two colours on a point, a checker on the wrong bar)."""
    sides = []
    for colour in (mover, mover.other):
        side = [0] * 26
        for index in range(1, BAR + 1):
            side[index] = board.checkers(zone_of(colour, index)).count(colour)
        if board.checkers(zone_of(colour.other, BAR)).count(colour):
            return None
        side[OFF] = 15 - sum(side)
        sides.append(tuple(side))
    try:
        return Position(sides[0], sides[1])
    except ValueError:
        return None


@dataclass
class Turn:
    """One turn at the simulated board: act with hands, read what the tracker says."""

    start: Position
    roll: tuple[int, int]
    mover: Player = WHITE
    geometry: Geometry = field(default_factory=Geometry.default)
    bounce: float = 0.0
    jitter: float = 0.0
    seed: int = 0
    slide_step: float = 0.02

    def __post_init__(self) -> None:
        self.board = SimBoard(
            self.geometry,
            bounce=self.bounce,
            jitter=self.jitter,
            seed=self.seed,
            slide_step=self.slide_step,
        )
        self.events: list[SensorEvent] = []
        self.board.setup(layout(self.start, self.mover, self.geometry))
        self.board.start(self.events.append)  # type: ignore[arg-type]
        self.tracker = TurnTracker(self.start, self.roll, self.mover, capacities(self.geometry))
        self.filter = SettleFilter(SETTLE)
        self.near = 0
        self.readings: list[Reading] = []
        self.reading = self.wait()

    @property
    def mover_zone(self) -> Callable[[int], int]:
        return lambda index: zone_of(self.mover, index)

    def wait(self, seconds: float = 0.2) -> Reading:
        """Let time pass as the shell would, feeding every frame through the settle filter;
        the latest settled reading."""
        end = self.board.clock() + seconds
        while True:
            for event in self.events:
                obs = self.geometry.counts(event.frame)
                self.filter, settled = self.filter.feed(obs, event.frame.timestamp)
                self._take(settled)
            self.events.clear()
            now = self.board.clock()
            self.filter, settled = self.filter.poll(now)
            self._take(settled)
            if now >= end and not self.board.pending:
                return self.reading
            self.board.advance(TICK)

    def _take(self, settled: Observation | None) -> None:
        if settled is None:
            return
        self.reading = self.tracker.read(settled, self.near)
        if self.reading.kind is Kind.AT_NODE:
            self.near = self.reading.nodes[0]
        self.readings.append(self.reading)

    # -- hands, in the rules' numbering ---------------------------------------------------

    def lift(self, index: int) -> Reading:
        self.board.lift(self.mover_zone(index), self.mover)
        return self.wait()

    def place(self, index: int) -> Reading:
        zone = self._landing(index)
        if zone is not None:
            self.board.place(zone, self.mover)
        return self.wait()

    def move(self, src: int, dst: int) -> Reading:
        self.board.lift(self.mover_zone(src), self.mover)
        return self.place(dst)

    def lift_blot(self, index: int) -> Reading:
        """Lift the opponent's checker on the mover's point ``index``."""
        self.board.lift(self.mover_zone(index), self.mover.other)
        return self.wait()

    def blot_to_bar(self) -> Reading:
        self.board.place(zone_of(self.mover.other, BAR), self.mover.other)
        return self.wait()

    def _landing(self, index: int) -> int | None:
        if index == OFF and not self.geometry.tray_slots:
            return None  # borne off with no tray sensor: the checker just leaves the board
        return self.mover_zone(index)

    def play(self, moves: Sequence[Move], rng: random.Random | None = None) -> Reading:
        """Make the moves by hand; with ``rng``, each in a random manner (slid or lifted and
        placed; a hit's blot moved first, last, or with both hands)."""
        for move in moves:
            self.hand_move(move, rng)
        return self.reading

    def hand_move(self, move: Move, rng: random.Random | None = None) -> None:
        board, mover = self.board, self.mover
        src, dst = self.mover_zone(move.src), self._landing(move.dst)
        style = rng.randrange(3) if rng and move.hit else 0
        if move.hit and style == 1:  # the blot goes to the bar first
            self.lift_blot(move.dst)
            self.blot_to_bar()
        if move.hit and style == 2:  # both hands: the hitter and the blot lifted together
            board.lift(src, mover)
            board.lift(self.mover_zone(move.dst), mover.other)
            self.wait()
            assert dst is not None
            board.place(dst, mover)
            self.blot_to_bar()
            return
        if rng and rng.random() < 0.5 and dst is not None and 1 <= move.src <= 24:
            board.slide(src, dst, colour=mover)
            self.wait()
        else:
            self.move(move.src, move.dst)
        if move.hit and style == 0:  # the hitter lands on the blot, then the blot is lifted
            self.lift_blot(move.dst)
            self.blot_to_bar()


def rule_order(pos: Position, play: Play, rng: random.Random) -> list[Move]:
    """The moves of ``play`` in a random order that the rules allow step by step (the hits
    fall to whichever checker lands first)."""
    for _ in range(50):
        pending = list(play.moves)
        rng.shuffle(pending)
        order, step = [], pos
        while pending:
            for move in pending:
                legal = [m for m in legal_moves(step, move.die) if m.src == move.src]
                if legal and legal[0].dst == move.dst:
                    order.append(legal[0])
                    pending.remove(move)
                    step = apply_move(step, legal[0])
                    break
            else:
                break
        if not pending and step == play.result:
            return order
    return list(play.moves)
