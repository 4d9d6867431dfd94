"""A club's results in one place: each finished match, retained on the club's topic.

A result is published retained at ``bgpi/club/NAME/results/ID``, where ID is a hash of the
match file's game lines (its ``; [Key "value"]`` header lines left out, so the two boards of
one remote match, whose headers name each its own board, publish the same ID and it is listed
once). Anyone who can read the broker reads the results (they are not secret); the broker's
accounts decide who may publish there, and nothing signs a result. So a result read back is
bounded and checked like a match's message (its size, its JSON's depth, its shape, each
field's type and range), and its words are shown as plain text. A field a board of an older
version did not write is absent (None), not an error.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import logging
import math
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any, Final, TypeVar

from bgpi.base.errors import BgpiError
from bgpi.base.i18n import N_
from bgpi.base.words import Player, check_colour
from bgpi.journal.export import MatHeader, export_mat
from bgpi.journal.records import (
    FlagFell,
    Forfeit,
    GameEnded,
    MatchStarted,
    Record,
    too_late,
)
from bgpi.remote.broker import Broker
from bgpi.remote.transport import Message, Transport
from bgpi.remote.untrusted import UntrustedJsonError, loads, printable
from bgpi.rules.clock import ClockRules

log = logging.getLogger("bgpi")
_T = TypeVar("_T")
RESULT_BYTES: Final = 65_536  # a 25-point match's result is about 20 KB; the broker's limit
MAX_NAME: Final = 100  # characters of a player's or a board's name
MAX_LINK: Final = 300  # characters of a link
MAX_POINTS: Final = 10_000  # a length or a score: far past any match, short of any overflow
MAX_SECONDS: Final = 86_400.0  # a clock's setting: a day
LAST_START: Final = 4_102_444_800.0  # 2100-01-01: a start after it is nobody's match
_LINK: Final = re.compile(r"https?://[!-~]+")  # no blank, no control character, ASCII only
_HEADER_LINE: Final = re.compile(r'; \[[A-Za-z0-9 ]+ ".*"\]')


class BadResultError(BgpiError, ValueError):
    """Bytes on a club's topic that are no result this board reads: says what is wrong."""


class ResultTooBigError(BgpiError, ValueError):
    """A result bigger than a reader takes (:data:`RESULT_BYTES`): not published."""


class Ending(StrEnum):
    """How a match ended: its last game played out (borne off, or a double dropped), a
    resignation accepted, a flag that fell, or a forfeit (the other board fell silent)."""

    PLAYED_OUT = N_("played out")
    RESIGNED = N_("resigned")
    FLAG_FALL = N_("flag fall")
    FORFEIT = N_("forfeit")


def club_topic(club: str) -> str:
    """The club's results topic; ``ValueError`` for a name MQTT cannot carry."""
    if not club or any(ch in club for ch in "/+#\0") or len(club) > 64:
        raise ValueError(f"club name {club!r}: 1 to 64 characters, none of / + #")
    return f"bgpi/club/{club}/results"


def match_key(mat: str) -> str:
    """The match's ID: a hash of its ``.mat`` without XG's header lines, which each board
    writes its own (and a board of an older version did not write at all)."""
    lines = [line for line in mat.split("\n") if not _HEADER_LINE.fullmatch(line)]
    body = "\n".join(lines).lstrip("\n")  # the blank line after the header goes with it
    return hashlib.sha256(body.encode()).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class ClubResult:
    """One finished match (``forfeit``: won by that player by forfeit, whatever the score).
    ``date`` is the ISO date (UTC) the match started (the day it was published, from a board
    of an older version, which also leaves the fields after ``forfeit`` absent)."""

    players: tuple[str, str]
    score: tuple[int, int]
    length: int
    date: str
    mat: str
    board: str = ""
    forfeit: Player | None = None
    started_at: float | None = None  # seconds since the epoch
    clock: ClockRules | None = None
    ending: Ending | None = None
    link: str | None = None  # the board's page's .mat, where the club's network reaches it

    @classmethod
    def of(
        cls, records: Sequence[Record], header: MatHeader, *, link: str | None = None
    ) -> ClubResult:
        """The result of the match ``records`` hold, its ``.mat`` headed by ``header``
        (whose site is the board's name)."""
        start = records[0]
        if not isinstance(start, MatchStarted):
            raise ValueError("a result needs the match's records from its start")
        when = header.started_at if header.started_at is not None else time.time()
        day = datetime.datetime.fromtimestamp(when, datetime.UTC).date().isoformat()
        return cls(
            start.names,
            score_of([r for i, r in enumerate(records) if i not in too_late(records)]),
            start.length,
            day,
            export_mat(records, header),
            header.site,
            next((r.winner for r in reversed(records) if isinstance(r, Forfeit)), None),
            header.started_at,
            start.clock,
            ending_of(records),
            link,
        )

    @property
    def id(self) -> str:
        return match_key(self.mat)

    def to_json(self) -> bytes:
        data: dict[str, Any] = {
            "players": list(self.players),
            "score": list(self.score),
            "length": self.length,
            "date": self.date,
            "mat": self.mat,
            "board": self.board,
            "forfeit": self.forfeit,
        }
        news = {
            "started_at": self.started_at,
            "clock": None if self.clock is None else asdict(self.clock),
            "ending": self.ending,
            "link": self.link,
        }
        data.update((key, value) for key, value in news.items() if value is not None)
        return json.dumps(data, separators=(",", ":")).encode()

    @classmethod
    def from_json(cls, raw: bytes) -> ClubResult:
        """``BadResultError`` naming what is wrong: anyone on the broker may have written it."""
        if len(raw) > RESULT_BYTES:
            raise BadResultError(f"not a match result: {len(raw)} bytes, more than {RESULT_BYTES}")
        try:
            data = loads(raw)
            if not isinstance(data, dict):
                raise TypeError("not an object")
            return cls(
                _pair(data["players"], lambda v: _text(v, MAX_NAME)),
                _pair(data["score"], _points),
                _points(data["length"]),
                _date(data["date"]),
                _text(data["mat"], RESULT_BYTES),
                _text(data.get("board", ""), MAX_NAME),
                None if data.get("forfeit") is None else check_colour(data["forfeit"]),
                _optional(data, "started_at", _start),
                _optional(data, "clock", _clock),
                _optional(data, "ending", Ending),
                _optional(data, "link", _link),
            )
        except UntrustedJsonError as exc:
            raise BadResultError(f"not a match result: {exc}") from None
        except (ValueError, KeyError, TypeError, IndexError, OverflowError) as exc:
            raise BadResultError(f"not a match result: {printable(str(exc))}") from None


def score_of(records: Sequence[Record]) -> tuple[int, int]:
    """The points each player won: a flag fall gives the opponent the match, as the table
    replays it (``table/timing.py``'s ``flag_fell``)."""
    start = records[0]
    assert isinstance(start, MatchStarted)
    score = [0, 0]
    for record in records:
        if isinstance(record, GameEnded):
            score[record.winner] += record.points
        elif isinstance(record, FlagFell) and not record.overtime:
            winner = record.player.other
            score[winner] = max(score[winner], start.length)
    return score[0], score[1]


def ending_of(records: Sequence[Record]) -> Ending:
    """How the match ``records`` hold ended: the last of its ends decides."""
    for record in reversed(records):
        if isinstance(record, Forfeit):
            return Ending.FORFEIT
        if isinstance(record, FlagFell) and not record.overtime:
            return Ending.FLAG_FALL
        if isinstance(record, GameEnded):
            return Ending.RESIGNED if record.resigned else Ending.PLAYED_OUT
    return Ending.PLAYED_OUT


def _pair(value: object, read: Callable[[object], _T]) -> tuple[_T, _T]:
    if not isinstance(value, list) or len(value) != 2:
        raise TypeError(f"{printable(repr(value), 40)} is not a pair")
    return read(value[0]), read(value[1])


def _text(value: object, limit: int) -> str:
    if not isinstance(value, str) or len(value) > limit:
        raise TypeError(f"{printable(repr(value), 40)} is not text of {limit} characters")
    return value


def _points(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_POINTS:
        raise TypeError(f"{printable(repr(value), 40)} is not 0 to {MAX_POINTS} points")
    return value


def _date(value: object) -> str:
    return datetime.date.fromisoformat(_text(value, 10)).isoformat()


def _seconds(value: object, high: float) -> float:
    number = value if isinstance(value, int | float) and not isinstance(value, bool) else None
    if number is None or not math.isfinite(number) or not 0 <= number <= high:
        raise TypeError(f"{printable(repr(value), 40)} is not 0 to {high:g} seconds")
    return float(number)


def _start(value: object) -> float:
    return _seconds(value, LAST_START)


def _clock(value: object) -> ClockRules:
    if not isinstance(value, dict):
        raise TypeError("the clock is not an object")
    settings = {key: value[key] for key in value if key != "mode"}
    return ClockRules.read(
        {"mode": value.get("mode")}
        | {key: _seconds(seconds, MAX_SECONDS) for key, seconds in settings.items()}
    )


def _link(value: object) -> str:
    text = _text(value, MAX_LINK)
    if not _LINK.fullmatch(text):
        raise ValueError(f"{printable(repr(text), 60)} is not an http(s) link")
    return text


def _optional(data: Mapping[str, object], key: str, read: Any) -> Any:
    """A field a board of an older version did not write: None, and checked when there."""
    value = data.get(key)
    return None if value is None else read(value)


def publish_result(
    broker: Broker, club: str, records: Sequence[Record], header: MatHeader, *, link: str | None
) -> ClubResult:
    """Publish the match's result, retained, to the club; the result published.
    ``ResultTooBigError`` for one too big for a reader (a match far longer than 25 points),
    ``ValueError`` for one a reader would refuse otherwise (a player's name too long)."""
    result = ClubResult.of(records, header, link=link)
    payload = result.to_json()
    if len(payload) > RESULT_BYTES:
        raise ResultTooBigError(
            f"the result is {len(payload)} bytes, more than the {RESULT_BYTES} a reader takes: "
            "not published (bgpi export writes the match)"
        )
    ClubResult.from_json(payload)  # what no reader would take (a name too long) is not sent
    transport = Transport(broker, persistent=False).open()
    try:
        transport.publish(f"{club_topic(club)}/{result.id}", payload, retain=True)
        transport.flush()
    finally:
        transport.close()
    return result


def fetch_results(
    broker: Broker, club: str, *, quiet: float = 0.5, timeout: float = 10.0
) -> list[ClubResult]:
    """The club's retained results, oldest first: read until the broker has said nothing
    for ``quiet`` seconds (it sends every retained message right after subscribing)."""
    topics = (f"{club_topic(club)}/#",)
    transport = Transport(broker, topics=topics, persistent=False, limit=RESULT_BYTES).open()
    results: dict[str, ClubResult] = {}
    try:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            arrivals = transport.poll(quiet)
            for arrival in arrivals:
                if isinstance(arrival, Message):
                    _add(results, arrival)
            if not arrivals and transport.subscribed:
                break
    finally:
        transport.close()
    return sorted(results.values(), key=_when)


def _when(result: ClubResult) -> tuple[str, float, tuple[str, str], str]:
    return (result.date, result.started_at or 0.0, result.players, result.id)


def _add(results: dict[str, ClubResult], message: Message) -> None:
    try:
        result = ClubResult.from_json(message.payload)
    except ValueError as exc:
        log.warning("%s: %s", printable(message.topic), exc)
        return
    results[result.id] = result
