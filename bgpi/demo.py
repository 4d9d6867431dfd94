"""``bgpi demo``: two players play a match on the simulated board, hands and all.

Each side is the built-in player (simple on purpose: it counts pips and likes hitting and
making points) or an engine (gnubg at a level). What the demo shows is the table: every roll
comes from the table's dice, every play a side chooses is made by lifting and placing
checkers on the simulated board and ended with the ROLL button, every cube action is a
button press, and what is printed is read back from the journal.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from bgpi.driver import Journal
from bgpi.engine import CubeAnswer, Engine, EngineError, Seat, SeatKind, open_engine
from bgpi.engine.simple import worth
from bgpi.gamelog import GameLog
from bgpi.records import GameEnded, MatchStarted, Record
from bgpi.rules import Match, Play, Position, legal_plays
from bgpi.simtable import SimOptions, SimTable
from bgpi.table import Phase
from bgpi.words import BLACK, WHITE

MAX_ACTIONS = 20_000  # a runaway guard: a 25-point match needs far fewer
_T = TypeVar("_T")
ENGINE_TRIES = 2  # an engine that fails twice running on one question ends the demo


class Side(Protocol):
    """What a side of the demo decides; ``view`` is always that side's own view."""

    def choose(self, view: Position, match: Match, rng: random.Random) -> Play: ...

    def doubles(self, view: Position, match: Match) -> bool: ...

    def answer(self, view: Position, match: Match, beaver_allowed: bool) -> str: ...


@dataclass(frozen=True, slots=True)
class PipPlayer:
    """Picks the play that hits most, makes most points and leaves fewest blots; doubles
    with a clear lead in the race, takes unless far behind."""

    double_lead: float = 0.12
    drop_behind: float = 0.25

    def choose(self, view: Position, match: Match, rng: random.Random) -> Play:
        assert match.dice is not None
        plays = legal_plays(view, match.dice)
        return max(plays, key=lambda play: (worth(play.result), rng.random()))

    def doubles(self, view: Position, match: Match) -> bool:
        mine, theirs = view.pip_count
        return theirs - mine >= self.double_lead * theirs

    def answer(self, view: Position, match: Match, beaver_allowed: bool) -> str:
        mine, theirs = view.pip_count
        if mine - theirs > self.drop_behind * theirs:
            return "drop"
        return "beaver" if beaver_allowed and theirs - mine > 10 else "take"


class EngineSide:
    """A side played by an engine. A failed answer (the engine hung, died, or named an
    illegal play) is said and asked again of the restarted engine; never played."""

    def __init__(self, engine: Engine, say: Callable[[str], None]) -> None:
        self.engine, self.say = engine, say

    def choose(self, view: Position, match: Match, rng: random.Random) -> Play:
        dice = match.dice
        assert dice is not None
        return self._ask(lambda: self.engine.choose_play(view, dice, match))

    def doubles(self, view: Position, match: Match) -> bool:
        return self._ask(lambda: self.engine.cube_decision(view, match)).double

    def answer(self, view: Position, match: Match, beaver_allowed: bool) -> str:
        # The engine judges the double from the doubler's side of the board.
        doubler = Position(view.opponent, view.player)
        reply = self._ask(lambda: self.engine.cube_decision(doubler, match)).answer
        if reply is CubeAnswer.BEAVER and not beaver_allowed:
            reply = CubeAnswer.TAKE
        return reply.value

    def _ask(self, question: Callable[[], _T]) -> _T:
        for attempt in range(1, ENGINE_TRIES + 1):
            try:
                return question()
            except EngineError as exc:
                self.say(f"{self.engine.name}: {exc}")
                if attempt == ENGINE_TRIES:
                    raise
        raise AssertionError("unreachable")


def play_match(
    match: MatchStarted | Sequence[Record],
    *,
    seed: int,
    say: Callable[[str], None] = print,
    journal: Journal | None = None,
    games: int | None = None,
    sides: tuple[Side, Side] | None = None,
) -> SimTable:
    """Play ``match`` on a simulated table until it ends (money: ``games`` games), or resume
    it from a journal's records.

    Every choice depends only on the seed and the records so far, and the seeded dice resume
    after the dice in the records, so an interrupted and resumed match plays on exactly as an
    uninterrupted one would. ``sides`` plays White and Black (default: the built-in player).
    """
    sim = SimTable(match, options=SimOptions(seed=seed), journal=journal)
    players = sides or (PipPlayer(), PipPlayer())
    printer = _Printer(sim, say)
    for _ in range(MAX_ACTIONS):
        printer.flush()
        if sim.phase is Phase.MATCH_OVER or (games is not None and printer.games_ended >= games):
            return sim
        _act(sim, players, random.Random(f"{seed}:{len(sim.driver.log)}"))
    raise RuntimeError(f"the demo made {MAX_ACTIONS} actions without finishing the match")


def _act(sim: SimTable, players: tuple[Side, Side], rng: random.Random) -> None:
    phase, match = sim.phase, sim.match
    turn = match.turn
    if phase is Phase.SETUP:
        sim.setup()
    elif phase is Phase.OPENING:
        for colour in (WHITE, BLACK):
            if sim.table.opening[colour] is None:
                sim.roll(colour)
    elif phase is Phase.BEFORE_ROLL and turn is not None:
        view = sim.table.mover_view_of(turn)
        if match.may_double(turn) and players[turn].doubles(view, match):
            sim.cube(turn)
        else:
            sim.roll(turn)
    elif phase is Phase.DOUBLED and turn is not None:
        other = 1 - turn
        beaver = match.rules.beaver and match.cube * 4 <= match.rules.cube_limit
        answer = players[other].answer(sim.table.mover_view_of(other), match, beaver)
        if answer == "drop":
            sim.cube(other)
        else:
            sim.roll(other) if answer == "take" else sim.press(other, "roll", hold=1.0)
    elif phase is Phase.MOVING and turn is not None and match.dice is not None:
        view = sim.table.mover_view
        choice = players[turn].choose(view, match, rng)
        sim.make_play(turn, choice.moves)
        sim.roll(turn)
        _confirm(sim, turn, choice)
    elif phase in (Phase.GAME_OVER, Phase.MATCH_OVER):
        sim.roll(WHITE)


def _confirm(sim: SimTable, turn: int, choice: Play) -> None:
    """Several plays look the same to the sensors: step to the one made, and confirm it."""
    for _ in range(len(sim.table.candidates)):
        if sim.phase is not Phase.CONFIRM:
            return
        tracker = sim.table.tracker
        assert tracker is not None
        if tracker.play(sim.table.candidates[sim.table.candidate]).result == choice.result:
            sim.roll(turn)
            return
        sim.cube(turn)


class _Printer:
    """Prints the game log's lines as the records come in, each once it is final."""

    def __init__(self, sim: SimTable, say: Callable[[str], None]) -> None:
        self.sim, self.say = sim, say
        self.log = GameLog()
        self.seen = self.printed = 0
        self.games_ended = 0  # in this run: a resumed match counts from where it resumed
        if len(sim.driver.log) > 1:  # resumed: say where, and print only what is new
            for record in sim.driver.log:
                self.log.add(record)
            self.seen, self.printed = len(sim.driver.log), self.log.complete
            say(f"resuming: {sim.match}")

    def flush(self) -> None:
        records = self.sim.driver.log
        for record in records[self.seen :]:
            self.log.add(record)
            self.games_ended += isinstance(record, GameEnded)
        self.seen = len(records)
        for entry in self.log.lines[self.printed : self.log.complete]:
            self.say(f"\n{entry.text}" if entry.kind == "game" else f"  {entry.text}")
        self.printed = self.log.complete


def open_sides(
    seats: tuple[Seat, Seat], *, say: Callable[[str], None], timeout: float = 60.0
) -> tuple[tuple[Side, Side], list[Engine]]:
    """The demo's two sides for ``seats`` (``demo`` or ``gnubg[:LEVEL]``; a person cannot
    play without hands) and the engines opened for them, to close. A gnubg seat where gnubg
    is not installed is said and played by the built-in player."""
    sides: list[Side] = []
    engines: list[Engine] = []
    for seat in seats:
        if seat.kind is SeatKind.PERSON:
            raise ValueError("the demo has no hands for a person: each side is demo or gnubg")
        engine = (
            None
            if seat.kind is SeatKind.DEMO
            else open_engine(seat, say=say, timeout=timeout, instead="the built-in player")
        )
        if engine is None:
            sides.append(PipPlayer())
        else:
            engines.append(engine)
            sides.append(EngineSide(engine, say))
    return (sides[0], sides[1]), engines
