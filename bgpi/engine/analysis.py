"""A match's analysis by the engine, kept beside the match in the journal's database.

gnubg rates both players' plays and cube decisions (error rate per decision, its rating
words, luck). That takes seconds, so the result is stored, keyed by the match, the number of
its records analysed and the engine: a match analysed after its first game is analysed again
once more has been played, never twice for the same records.

The table (``analyses``) is part of the journal's schema since its version 2
(:data:`bgpi.journal.schema.MIGRATIONS`): the journal's records stay append-only and untouched. A
journal of version 1 that only readers have opened since (``bgpi analyse`` opens it
read-only) has no analyses to read yet; the first one stored brings it up to date, as
opening it for writing does.
"""

from __future__ import annotations

import json
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import Any

from bgpi.base.i18n import _
from bgpi.engine.api import (
    AVERAGE_LUCK,
    Engine,
    EngineError,
    GameAnalysis,
    MatchAnalysis,
    PlayerRating,
)
from bgpi.journal.records import Record
from bgpi.journal.store import Journal
from bgpi.present.phrases import player


class AnalysisStore:
    """The analyses in the journal database at ``path`` (already opened, and so checked, as
    a journal)."""

    def __init__(self, path: str | Path, *, clock: Callable[[], float] = time.time) -> None:
        self.path, self.clock = Path(path), clock

    def get(self, match_id: int, records: int, engine: str) -> MatchAnalysis | None:
        return self._one(
            "SELECT analysis FROM analyses WHERE match_id = ? AND records = ? AND engine = ?",
            (match_id, records, engine),
        )

    def latest(self, match_id: int) -> MatchAnalysis | None:
        """The analysis of the most of the match's records, by any engine, if any."""
        return self._one(
            "SELECT analysis FROM analyses WHERE match_id = ? ORDER BY records DESC, at DESC",
            (match_id,),
        )

    def put(self, match_id: int, records: int, engine: str, analysis: MatchAnalysis) -> None:
        if not self._has_table():
            Journal.open(self.path).close()  # a version 1 journal: brought up to date
        with self._connect() as db:
            db.execute(
                "INSERT OR REPLACE INTO analyses VALUES (?, ?, ?, ?, ?)",
                (match_id, records, engine, self.clock(), to_json(analysis)),
            )

    def _one(self, query: str, parameters: tuple[object, ...]) -> MatchAnalysis | None:
        if not self._has_table():
            return None  # a version 1 journal never written since: nothing analysed yet
        with self._connect() as db:
            row = db.execute(query, parameters).fetchone()
        return None if row is None else from_json(row[0])

    def _has_table(self) -> bool:
        with self._connect() as db:
            found = db.execute(
                "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'analyses'"
            ).fetchone()
        return found is not None

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        """One transaction on the database, closed after it."""
        db = sqlite3.connect(self.path)
        try:
            with db:
                yield db
        finally:
            db.close()


def analysed(
    store: AnalysisStore, match_id: int, records: Sequence[Record], engine: Engine
) -> tuple[MatchAnalysis, bool]:
    """The analysis of ``records`` (match ``match_id``) by ``engine``, and whether it was
    computed now (False: it was stored)."""
    name = engine_key(engine)
    kept = store.get(match_id, len(records), name)
    if kept is not None:
        return kept, False
    analysis = engine.analyse(records)
    store.put(match_id, len(records), name, analysis)
    return analysis, True


def engine_key(engine: Engine) -> str:
    """The name an engine's analyses are stored under: its analysis level where it has one."""
    level = getattr(engine, "analysis_level", None)
    return f"gnubg {level.value}" if level is not None else engine.name


def to_json(analysis: MatchAnalysis) -> str:
    return json.dumps(asdict(analysis), sort_keys=True)


def from_json(text: str) -> MatchAnalysis:
    raw = json.loads(text)
    return MatchAnalysis(
        raw["engine"],
        tuple(
            GameAnalysis(game["number"], _pair_int(game["score"]), _players(game["players"]))
            for game in raw["games"]
        ),
        _players(raw["match"]),
    )


def _pair_int(values: Sequence[Any]) -> tuple[int, int]:
    return int(values[0]), int(values[1])


def _players(raw: Sequence[dict[str, Any]]) -> tuple[PlayerRating, PlayerRating]:
    return PlayerRating(**raw[0]), PlayerRating(**raw[1])


def report(analysis: MatchAnalysis) -> list[str]:
    """The analysis as lines for people: per game, then the match."""
    lines = [_("analysed by {engine}").format(engine=analysis.engine)]
    for game in analysis.games:
        white_score, black_score = game.score
        heading = _("game {number} (score {white_score}-{black_score}):")
        lines.append(
            heading.format(number=game.number, white_score=white_score, black_score=black_score)
        )
        lines.extend(f"  {_rated(player)}" for player in game.players)
    lines.append(_("match:"))
    lines.extend(f"  {_rated(player)}" for player in analysis.match)
    return lines


def _rated(p: PlayerRating) -> str:
    line = _(
        "{name}: error rate {error_rate} per decision ({rating}); {plays} plays, {play_loss} "
        "lost; {cube_decisions} cube decisions, {cube_loss} lost; luck {luck} per move "
        "({luck_rating})"
    )
    return line.format(
        name=player(p.name),
        error_rate=f"{p.error_rate:.1f}",
        rating=_(p.rating),
        plays=p.moves,
        play_loss=f"{p.chequer_error:.0f}",
        cube_decisions=p.cube_decisions,
        cube_loss=f"{p.cube_error:.0f}",
        luck=f"{p.luck:+.1f}",
        # gnubg's word for average luck is "None" (kept as gnubg says it, in the analysis).
        luck_rating=_(AVERAGE_LUCK if p.luck_rating == "None" else p.luck_rating),
    )


class Analyst:
    """Analyses matches on a thread of its own, after each game, so the board never waits:
    ``analyse`` queues the match's records, the thread rates them with ``engine`` and stores
    the result beside the match (where ``bgpi analyse`` and the page read it)."""

    def __init__(
        self,
        store: AnalysisStore,
        engine: Engine,
        *,
        say: Callable[[str], None],
    ) -> None:
        self.store, self.engine, self.say = store, engine, say
        self.done: list[tuple[int, int]] = []  # (match, records) analysed, for who waits on it
        self._queue: queue.Queue[tuple[int, list[Record]] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="bgpi-analyst", daemon=True)
        self._thread.start()

    def analyse(self, match_id: int, records: Sequence[Record]) -> None:
        self._queue.put((match_id, list(records)))

    def close(self, timeout: float = 5.0) -> None:
        """Stop after the analysis in hand and close the engine; idempotent."""
        if self._thread.is_alive():
            self._queue.put(None)
            self._thread.join(timeout)
        self.engine.close()

    def _run(self) -> None:
        while (item := self._queue.get()) is not None:
            match_id, records = item
            try:
                analysed(self.store, match_id, records, self.engine)
            except (EngineError, sqlite3.Error, ValueError) as exc:
                self.say(_("match {id} not analysed: {error}").format(id=match_id, error=exc))
            else:
                self.done.append((match_id, len(records)))
