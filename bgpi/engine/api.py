"""What bgpi asks of a backgammon engine, and what it answers.

Every question is asked about a position from the view of the player it concerns (the player
on roll, or the doubler) together with the match (score, cube, rules); the answers are small
values. A play an engine names is checked against bgpi's own legal plays before anyone sees
it: an engine can be wrong, the rules cannot.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Final, Protocol

from bgpi.base.errors import BgpiError
from bgpi.base.i18n import N_
from bgpi.journal.records import Record
from bgpi.rules import Match, Play, Position
from bgpi.rules.result import GameResult


class EngineError(BgpiError, RuntimeError):
    """The engine could not answer; the message says why, in one line."""


class EngineMissingError(EngineError):
    """The engine's program is not installed."""


class EngineTimeoutError(EngineError, TimeoutError):
    """The engine took longer than its time limit; it has been stopped and will restart."""


class EngineAnswerError(EngineError, ValueError):
    """The engine answered something that is not an answer (an illegal play, garbage)."""


class CubeAnswer(Enum):
    """What the doubled player does."""

    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"


@dataclass(frozen=True, slots=True)
class CubeDecision:
    """The engine's view of the cube in a position, for the player on roll: whether to
    double, and what the opponent should answer if doubled. ``words`` is the engine's own
    phrase (gnubg: ``Double, take``), for people."""

    double: bool
    answer: CubeAnswer
    words: str


# gnubg calls average luck "None", which a player reads as no rating at all.
AVERAGE_LUCK: Final = N_("Average dice")


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """One player's play over a game or a match, rated as gnubg rates it.

    ``error_rate`` is the equity lost per decision in thousandths (mEMG: gnubg's totals in
    cube-normalised equity over its unforced moves and close cube decisions); ``rating`` is
    gnubg's word for it (``World class``); ``luck`` the equity the dice gave in thousandths
    per move, and ``luck_rating`` gnubg's word for that. In a match gnubg's own statistics
    print the rate worked out in match-winning chances and converted, which can differ from
    ``error_rate`` by a point or so; the rating words are the same.
    """

    name: str
    moves: int
    chequer_error: float
    cube_decisions: int
    cube_error: float
    error_rate: float
    rating: str
    luck: float
    luck_rating: str


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    """A game's ratings, player 0 first, and the score before it."""

    number: int
    score: tuple[int, int]
    players: tuple[PlayerRating, PlayerRating]


@dataclass(frozen=True, slots=True)
class MatchAnalysis:
    """Each game's ratings and the whole match's, as one engine at one level rated them."""

    engine: str
    games: tuple[GameAnalysis, ...]
    match: tuple[PlayerRating, PlayerRating]


class Engine(Protocol):
    """A backgammon engine. Every method may raise :class:`EngineError`."""

    @property
    def name(self) -> str:
        """Who plays, for people: ``gnubg expert``."""
        ...

    def choose_play(self, position: Position, dice: tuple[int, int], match: Match) -> Play:
        """The play for ``dice``, from ``position`` as the player on roll sees it; one of
        ``legal_plays(position, dice)``."""
        ...

    def cube_decision(self, position: Position, match: Match) -> CubeDecision:
        """Whether the player on roll (``match.turn``, seeing ``position``) should double,
        and how the opponent should answer. Asked before the roll, also once the double is
        offered (``match.double_offered``), to answer it."""
        ...

    def resignation(self, position: Position, match: Match) -> GameResult | None:
        """What the player on roll would resign (the least the opponent is sure to win), or
        None while the game can still be won or saved."""
        ...

    def accepts(self, position: Position, match: Match, offered: GameResult) -> bool:
        """Whether the player on roll accepts the opponent's resignation of ``offered``."""
        ...

    def analyse(self, records: Sequence[Record]) -> MatchAnalysis:
        """The match of ``records`` (from ``MatchStarted`` on), every play and cube action
        rated."""
        ...

    def close(self) -> None:
        """Stop the engine; idempotent."""
        ...
