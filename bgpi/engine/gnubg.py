"""``GnubgEngine``: GNU Backgammon (Debian's ``gnubg``, a separate process) at one of its
predefined levels, behind :class:`bgpi.engine.api.Engine`."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

from bgpi.base.i18n import N_
from bgpi.engine.api import (
    CubeAnswer,
    CubeDecision,
    EngineAnswerError,
    GameAnalysis,
    MatchAnalysis,
    PlayerRating,
)
from bgpi.engine.check import checked_play
from bgpi.engine.levels import Level
from bgpi.engine.process import GnubgProcess
from bgpi.journal.export import export_mat
from bgpi.journal.records import Record
from bgpi.rules import Match, Play, Position
from bgpi.rules.result import GameResult

# gnubg's words for an error rate and for luck (its aszRating and aszLuckRating), indexed by
# what gnubg.errorrating and gnubg.luckrating return; kept in English in the analysis, shown
# in the players' language.
RATINGS: Final = (
    N_("Awful!"),
    N_("Beginner"),
    N_("Casual player"),
    N_("Intermediate"),
    N_("Advanced"),
    N_("Expert"),
    N_("World class"),
    N_("Supernatural"),
)
LUCK_RATINGS: Final = (
    N_("Go to bed"),
    N_("Bad dice, man!"),
    N_("None"),
    N_("Good dice, man!"),
    N_("Go to Las Vegas"),
)
_SURE: Final = 1e-6  # gnubg's 0-ply never says exactly 0 or 1 of a race it has not solved


class GnubgEngine:
    """gnubg at ``level``: plays, cube decisions and resignations as gnubg makes them at that
    level; analysis at ``analysis_level``. ``timeout`` is the longest gnubg may take to start,
    to answer or to end; ``analysis_timeout`` (None: ``timeout``) the longest an analysis may
    take."""

    def __init__(
        self,
        level: Level = Level.EXPERT,
        *,
        analysis_level: Level = Level.EXPERT,
        program: str | None = None,
        timeout: float = 60.0,
        say: Callable[[str], None] | None = None,
        process: GnubgProcess | None = None,
    ) -> None:
        self.level = level
        self.analysis_level = analysis_level
        self.analysis_timeout: float | None = None
        if process is None:
            process = (
                GnubgProcess(program, timeout=timeout)
                if say is None
                else GnubgProcess(program, timeout=timeout, say=say)
            )
        self.process = process

    @property
    def name(self) -> str:
        return f"gnubg {self.level.value}"

    def choose_play(self, position: Position, dice: tuple[int, int], match: Match) -> Play:
        steps = self.process.call("play", position.id(), list(dice), _cube(match), self._at())
        return checked_play(position, dice, _steps(steps, self.name), self.name)

    def cube_decision(self, position: Position, match: Match) -> CubeDecision:
        answer = _mapping(self.process.call("cube", position.id(), _cube(match), self._at()))
        return cube_from_words(str(answer["words"]))

    def resignation(self, position: Position, match: Match) -> GameResult | None:
        win, _, _, lose_gammon, lose_backgammon = self._probabilities(position, match)
        if win > _SURE:
            return None
        if lose_backgammon > 1 - _SURE:
            return GameResult.BACKGAMMON
        if lose_gammon > 1 - _SURE and lose_backgammon < _SURE:
            return GameResult.GAMMON
        return GameResult.SINGLE if lose_gammon < _SURE else None

    def accepts(self, position: Position, match: Match, offered: GameResult) -> bool:
        win, win_g, win_bg, lose_g, lose_bg = self._probabilities(position, match)
        # Cubeless points expected by playing on, against the points offered.
        playing_on = win + win_g + win_bg - (1 - win) - lose_g - lose_bg
        return int(offered) >= playing_on

    def analyse(self, records: Sequence[Record]) -> MatchAnalysis:
        text = export_mat(records)
        with tempfile.TemporaryDirectory(dir=self.process.home) as folder:
            path = Path(folder) / "match.mat"
            path.write_text(text, encoding="utf-8")
            settings = _settings(self.analysis_level)
            answer = _mapping(
                self.process.call("analyse", str(path), settings, timeout=self.analysis_timeout)
            )
        games = tuple(
            GameAnalysis(number, _score(game["score"]), _pair(game["players"]))
            for number, game in enumerate(answer["games"], start=1)
        )
        return MatchAnalysis(f"gnubg {self.analysis_level.value}", games, _pair(answer["match"]))

    def close(self) -> None:
        self.process.close()

    def _at(self) -> dict[str, Any]:
        return _settings(self.level)

    def _probabilities(self, position: Position, match: Match) -> list[float]:
        answer = self.process.call("probabilities", position.id(), _cube(match), self._at())
        if not isinstance(answer, list) or len(answer) < 5:
            raise EngineAnswerError(f"{self.name}: probabilities {answer!r} are not five numbers")
        return [float(value) for value in answer[:5]]


def cube_from_words(words: str) -> CubeDecision:
    """gnubg's recommendation (``Too good to redouble, pass``, ``Never double, take (dead
    cube)``) as a decision: its words are its decision, dead cubes and all."""
    lower = words.lower()
    double = lower.startswith(("double", "redouble", "optional double", "optional redouble"))
    if "beaver" in lower:
        answer = CubeAnswer.BEAVER
    elif "pass" in lower:
        answer = CubeAnswer.DROP
    elif "take" in lower:
        answer = CubeAnswer.TAKE
    else:
        raise EngineAnswerError(f"gnubg's cube decision {words!r} names no answer")
    return CubeDecision(double, answer, words)


def _settings(level: Level) -> dict[str, Any]:
    s = level.settings
    return {"plies": s.plies, "prune": s.prune, "noise": s.noise, "filter": s.movefilter}


def _cube(match: Match) -> dict[str, Any]:
    """gnubg's cube information: whose turn, the cube and its owner (-1 centred), the score."""
    return {
        "cube": match.cube,
        "owner": -1 if match.cube_owner is None else match.cube_owner,
        "move": match.turn or 0,
        "length": match.rules.length,
        "score": list(match.score),
        "crawford": int(match.crawford_game),
        "jacoby": int(match.rules.jacoby),
        "beavers": int(match.rules.beaver),
    }


def _mapping(answer: object) -> dict[str, Any]:
    if not isinstance(answer, dict):
        raise EngineAnswerError(f"gnubg answered {answer!r}, not a set of named values")
    return answer


def _steps(answer: object, who: str) -> list[tuple[int, int]]:
    """The engine's ``[[from, to], ...]``, refused unless it is exactly that."""
    steps: list[tuple[int, int]] = []
    if not isinstance(answer, list) or len(answer) > 4:
        raise EngineAnswerError(f"{who} answered {answer!r}, not a list of checker steps")
    for step in answer:
        ok = isinstance(step, list) and len(step) == 2
        if not ok or not all(isinstance(n, int) and 0 <= n <= 25 for n in step):
            raise EngineAnswerError(f"{who} answered a step {step!r}, not [from, to] points")
        steps.append((step[0], step[1]))
    return steps


def _score(values: Any) -> tuple[int, int]:
    return int(values[0]), int(values[1])


def _rating(raw: dict[str, Any]) -> PlayerRating:
    return PlayerRating(
        name=str(raw["name"]),
        moves=int(raw["moves"]),
        chequer_error=1000 * float(raw["chequer_error"]),
        cube_decisions=int(raw["cube_decisions"]),
        cube_error=1000 * float(raw["cube_error"]),
        error_rate=1000 * float(raw["error_rate"]),
        rating=RATINGS[int(raw["rating"])],
        luck=1000 * float(raw["luck"]),
        luck_rating=LUCK_RATINGS[int(raw["luck_rating"])],
    )


def _pair(raw: Any) -> tuple[PlayerRating, PlayerRating]:
    return _rating(raw[0]), _rating(raw[1])
