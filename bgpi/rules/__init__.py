"""The rules of backgammon: positions, dice, legal plays, notation, cube and match.

Pure functions over immutable values: no I/O, no clock, nothing else of bgpi.
"""

from bgpi.rules.dice import Roll, check_roll, dice_to_move, parse_roll
from bgpi.rules.errors import (
    AmbiguousPlayError,
    IllegalCubeActionError,
    IllegalPlayError,
    InvalidDiceError,
    InvalidMatchError,
    InvalidNotationError,
    InvalidPositionError,
    RulesError,
)
from bgpi.rules.match import GameState, Match, MatchRules
from bgpi.rules.notation import format_moves, format_play, parse_play
from bgpi.rules.plays import Move, Play, apply_move, legal_moves, legal_plays
from bgpi.rules.position import BAR, CHECKERS, OFF, Position
from bgpi.rules.result import GameResult, game_result

__all__ = [
    "BAR",
    "CHECKERS",
    "OFF",
    "AmbiguousPlayError",
    "GameResult",
    "GameState",
    "IllegalCubeActionError",
    "IllegalPlayError",
    "InvalidDiceError",
    "InvalidMatchError",
    "InvalidNotationError",
    "InvalidPositionError",
    "Match",
    "MatchRules",
    "Move",
    "Play",
    "Position",
    "Roll",
    "RulesError",
    "apply_move",
    "check_roll",
    "dice_to_move",
    "format_moves",
    "format_play",
    "game_result",
    "legal_moves",
    "legal_plays",
    "parse_play",
    "parse_roll",
]
