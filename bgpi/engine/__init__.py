"""Engines that play backgammon: GNU Backgammon (a separate process) and bgpi's simple
deterministic player, behind one small interface; seats that name them."""

from bgpi.engine.api import (
    CubeAnswer,
    CubeDecision,
    Engine,
    EngineAnswerError,
    EngineError,
    EngineMissingError,
    EngineTimeoutError,
    GameAnalysis,
    MatchAnalysis,
    PlayerRating,
)
from bgpi.engine.gnubg import GnubgEngine
from bgpi.engine.levels import Level
from bgpi.engine.seats import Seat, SeatKind, open_engine
from bgpi.engine.simple import SimpleEngine

__all__ = [
    "CubeAnswer",
    "CubeDecision",
    "Engine",
    "EngineAnswerError",
    "EngineError",
    "EngineMissingError",
    "EngineTimeoutError",
    "GameAnalysis",
    "GnubgEngine",
    "Level",
    "MatchAnalysis",
    "PlayerRating",
    "Seat",
    "SeatKind",
    "SimpleEngine",
    "open_engine",
]
