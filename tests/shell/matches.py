"""Whole matches as the table would journal them, played at random from a seed.

Each game is played with random legal plays and a simple cube strategy (double now and then,
answer take, drop or beaver at random). :class:`Match` keeps the cube, the score and the
Crawford game right, so the records follow the rules exactly as the table writes them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from bgpi.base.words import Player
from bgpi.journal.records import (
    CubeAction,
    GameEnded,
    GameStarted,
    MatchStarted,
    OpeningRolled,
    Played,
    Record,
    Rolled,
)
from bgpi.rules import Match, Position, legal_plays
from bgpi.rules.match import GameState
from bgpi.rules.result import game_result


@dataclass
class _Player:
    """Plays a match at random, appending the records as it goes."""

    rng: random.Random
    start: MatchStarted
    double_rate: float
    records: list[Record] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.match = Match.new(self.start.rules())
        self.records.append(self.start)

    def roll(self) -> tuple[int, int]:
        return self.rng.randint(1, 6), self.rng.randint(1, 6)

    def play_game(self) -> None:
        if self.match.state is not GameState.NONE:
            self.match = self.match.start_game()
        self.records.append(GameStarted())
        while self.match.state is GameState.NONE:
            white, black = self.roll()
            self.records.append(OpeningRolled(white, black))
            self.match = self.match.opening_roll(white, black)
        pos = Position.initial()
        first = True
        while True:
            player = self.match.turn
            assert player is not None
            if not first and self.cube_turn(player):
                return
            if not first:
                dice = self.roll()
                self.records.append(Rolled(player, dice))
                self.match = self.match.roll(dice)
            first = False
            assert self.match.dice is not None
            play = self.rng.choice(legal_plays(pos, self.match.dice))
            self.records.append(Played.of(player, play.moves))
            result = game_result(play.result)
            if result is not None:
                before = self.match.score[player]
                self.match = self.match.win(player, result)
                points = self.match.score[player] - before
                self.records.append(GameEnded(player, int(result), points))
                return
            self.match = self.match.end_turn()
            pos = play.result.swap()

    def cube_turn(self, player: Player) -> bool:
        """Maybe double, and have the other player answer; True if the game ended."""
        if not self.match.may_double(player) or self.rng.random() >= self.double_rate:
            return False
        other = player.other
        self.records.append(CubeAction(player, "double"))
        self.match = self.match.double()
        answer = self.rng.random()
        rules = self.match.rules
        if rules.beaver and self.match.cube * 4 <= rules.cube_limit and answer < 0.2:
            self.records.append(CubeAction(other, "beaver"))
            self.match = self.match.beaver()
        elif answer < 0.7:
            self.records.append(CubeAction(other, "take"))
            self.match = self.match.take()
        else:
            self.records.append(CubeAction(other, "drop"))
            before = self.match.score[player]
            self.match = self.match.drop()
            points = self.match.score[player] - before
            self.records.append(GameEnded(player, 1, points, dropped=True))
            return True
        return False


def play_match(
    seed: int, start: MatchStarted, *, games: int = 3, double_rate: float = 0.04
) -> list[Record]:
    """The records of a match played at random from ``seed``: a match to its end, a money
    session (``start.length`` 0) for ``games`` games."""
    player = _Player(random.Random(seed), start, double_rate)
    played = 0
    while not player.match.match_over and (start.length or played < games):
        player.play_game()
        played += 1
    return player.records


def final_score(records: list[Record]) -> tuple[int, int]:
    """The points each player won, from the records' game ends."""
    score = [0, 0]
    for record in records:
        if isinstance(record, GameEnded):
            score[record.winner] += record.points
    return score[0], score[1]


def crawford_phases(records: list[Record]) -> list[str]:
    """Each game of a match as ``"before"``, ``"crawford"`` or ``"after"`` the Crawford game
    (by the score it began at), to show which situations a set of matches covers."""
    start = records[0]
    assert isinstance(start, MatchStarted)
    phases: list[str] = []
    score = [0, 0]
    for record in records:
        if isinstance(record, GameStarted):
            if phases and phases[-1] in ("crawford", "after"):
                phases.append("after")
            elif start.crawford and start.length - 1 in score:
                phases.append("crawford")
            else:
                phases.append("before")
        elif isinstance(record, GameEnded):
            score[record.winner] += record.points
    return phases
