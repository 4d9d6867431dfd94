"""``bgpi demo``: two built-in players play a match on the simulated board, hands and all.

The players are simple on purpose (they count pips and like hitting and making points); what
the demo shows is the table: every roll comes from the table's dice, every play is made by
lifting and placing checkers on the simulated board and ended with the ROLL button, every
cube action is a button press, and what is printed is read back from the journal.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bgpi.driver import Journal
from bgpi.gamelog import GameLog
from bgpi.records import GameEnded, MatchStarted, Record
from bgpi.rules import BAR, Play, Position, legal_plays
from bgpi.simtable import SimOptions, SimTable
from bgpi.table import Phase
from bgpi.words import BLACK, WHITE

MAX_ACTIONS = 20_000  # a runaway guard: a 25-point match needs far fewer


@dataclass(frozen=True, slots=True)
class PipPlayer:
    """Picks the play that hits most, makes most points and leaves fewest blots; doubles
    with a clear lead in the race, takes unless far behind."""

    double_lead: float = 0.12
    drop_behind: float = 0.25

    def choose(self, plays: list[Play], rng: random.Random) -> Play:
        return max(plays, key=lambda play: (_worth(play.result), rng.random()))

    def doubles(self, view: Position) -> bool:
        mine, theirs = view.pip_count
        return theirs - mine >= self.double_lead * theirs

    def answer(self, view: Position, beaver_allowed: bool) -> str:
        mine, theirs = view.pip_count
        if mine - theirs > self.drop_behind * theirs:
            return "drop"
        return "beaver" if beaver_allowed and theirs - mine > 10 else "take"


def _worth(pos: Position) -> float:
    made = sum(1 for point in range(1, 25) if pos.player[point] >= 2)
    blots = sum(1 for point in range(1, 25) if pos.player[point] == 1)
    return 10 * pos.opponent[BAR] + 3 * made - 2 * blots - pos.pip_count[0] / 50


def play_match(
    match: MatchStarted | Sequence[Record],
    *,
    seed: int,
    say: Callable[[str], None] = print,
    journal: Journal | None = None,
    games: int | None = None,
) -> SimTable:
    """Play ``match`` on a simulated table until it ends (money: ``games`` games), or resume
    it from a journal's records.

    Every choice depends only on the seed and the records so far, and the seeded dice resume
    after the dice in the records, so an interrupted and resumed match plays on exactly as an
    uninterrupted one would.
    """
    sim = SimTable(match, options=SimOptions(seed=seed), journal=journal)
    player = PipPlayer()
    printer = _Printer(sim, say)
    for _ in range(MAX_ACTIONS):
        printer.flush()
        if sim.phase is Phase.MATCH_OVER or (games is not None and printer.games_ended >= games):
            return sim
        _act(sim, player, random.Random(f"{seed}:{len(sim.driver.log)}"))
    raise RuntimeError(f"the demo made {MAX_ACTIONS} actions without finishing the match")


def _act(sim: SimTable, player: PipPlayer, rng: random.Random) -> None:
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
        if match.may_double(turn) and player.doubles(view):
            sim.cube(turn)
        else:
            sim.roll(turn)
    elif phase is Phase.DOUBLED and turn is not None:
        other = 1 - turn
        beaver = match.rules.beaver and match.cube * 4 <= match.rules.cube_limit
        answer = player.answer(sim.table.mover_view_of(other), beaver)
        if answer == "drop":
            sim.cube(other)
        else:
            sim.roll(other) if answer == "take" else sim.press(other, "roll", hold=1.0)
    elif phase is Phase.MOVING and turn is not None and match.dice is not None:
        view = sim.table.mover_view
        choice = player.choose(legal_plays(view, match.dice), rng)
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
