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
from bgpi.hal.api import BLACK, WHITE
from bgpi.records import (
    CubeAction,
    GameEnded,
    GameStarted,
    MatchStarted,
    OpeningRolled,
    Played,
    Record,
    Rolled,
)
from bgpi.rules import BAR, Play, Position, format_moves, legal_plays
from bgpi.rules.result import GameResult
from bgpi.simtable import SimOptions, SimTable
from bgpi.table import Phase

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
    """Prints the journal's new records as a player would read them."""

    def __init__(self, sim: SimTable, say: Callable[[str], None]) -> None:
        self.sim, self.say = sim, say
        self.seen = 0
        self.games_ended = 0
        self.game = 0
        if len(sim.driver.log) > 1:  # resumed: say where, and print only what is new
            self.seen = len(sim.driver.log)
            self.game = sum(isinstance(r, GameStarted) for r in sim.driver.log)
            say(f"resuming: {sim.match}")
        self.names = ("White", "Black")
        self.dice = ""

    def flush(self) -> None:
        records = self.sim.driver.log
        for record in records[self.seen :]:
            line = self._line(record)
            if line:
                self.say(line)
        self.seen = len(records)

    def _line(self, record: Record) -> str | None:  # noqa: PLR0911 (one line per kind)
        names = self.names
        if isinstance(record, MatchStarted):
            self.names = record.names
            kind = "money session" if not record.length else f"{record.length}-point match"
            return f"{record.names[0]} (white) and {record.names[1]} (black): a {kind}"
        if isinstance(record, GameStarted):
            self.game += 1
            score = self.sim.match.score
            crawford = " (Crawford game)" if self.sim.match.crawford_game else ""
            return f"\nGame {self.game}, score {score[0]}-{score[1]}{crawford}"
        if isinstance(record, OpeningRolled):
            self.dice = _dice(record.white, record.black)
            if record.white == record.black:
                return f"  opening roll {record.white}-{record.black}: again"
            first = names[0] if record.white > record.black else names[1]
            return f"  opening roll {record.white}-{record.black}: {first} starts"
        if isinstance(record, Rolled):
            self.dice = _dice(*record.dice)
            return None
        if isinstance(record, Played):
            text = format_moves(record.move_values()) or "no move"
            return f"  {names[record.player]:>6} {self.dice}: {text}"
        if isinstance(record, CubeAction):
            verb = {"double": "doubles", "take": "takes", "drop": "drops", "beaver": "beavers"}
            return f"  {names[record.player]:>6} {verb[record.action]}"
        if isinstance(record, GameEnded):
            self.games_ended += 1
            what = "a drop" if record.dropped else f"a {GameResult(record.result).name.lower()}"
            score = self.sim.match.score
            return (
                f"  {names[record.winner]} wins {record.points} point"
                f"{'s' if record.points != 1 else ''} by {what}; score {score[0]}-{score[1]}"
            )
        return None


def _dice(*dice: int) -> str:
    return "-".join(str(d) for d in sorted(dice, reverse=True))
