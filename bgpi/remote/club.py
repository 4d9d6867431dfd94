"""A club's results in one place: each finished match, retained on the club's topic.

A result is published retained at ``bgpi/club/NAME/results/ID``, where ID is a hash of the
match file: the two boards of one remote match publish the same result under the same ID, so
it is listed once. Anyone who can read the broker reads the results (they are not secret);
the broker's accounts decide who may publish there. So a result read back is bounded and
checked like a match's message (its size, its JSON's depth, its shape), and its words are
shown as plain text.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass

from bgpi.base.words import Player, check_colour
from bgpi.journal.export import export_mat
from bgpi.journal.records import Forfeit, GameEnded, MatchStarted, Record
from bgpi.remote.broker import Broker
from bgpi.remote.transport import Message, Transport
from bgpi.remote.untrusted import UntrustedJsonError, loads, printable

log = logging.getLogger("bgpi")
RESULT_BYTES = 65_536  # a 25-point match's result is about 20 KB; the broker's limit in docs


def club_topic(club: str) -> str:
    """The club's results topic; ``ValueError`` for a name MQTT cannot carry."""
    if not club or any(ch in club for ch in "/+#\0") or len(club) > 64:
        raise ValueError(f"club name {club!r}: 1 to 64 characters, none of / + #")
    return f"bgpi/club/{club}/results"


@dataclass(frozen=True, slots=True)
class ClubResult:
    """One finished match (``forfeit``: won by that player by forfeit, whatever the score)."""

    players: tuple[str, str]
    score: tuple[int, int]
    length: int
    date: str  # ISO date, UTC
    mat: str
    board: str = ""
    forfeit: Player | None = None

    @classmethod
    def of(cls, records: Sequence[Record], *, board: str = "", date: str = "") -> ClubResult:
        start = records[0]
        if not isinstance(start, MatchStarted):
            raise ValueError("a result needs the match's records from its start")
        score, forfeit = [0, 0], None
        for record in records:
            if isinstance(record, GameEnded):
                score[record.winner] += record.points
            elif isinstance(record, Forfeit):
                forfeit = record.winner
        today = date or datetime.datetime.now(datetime.UTC).date().isoformat()
        mat = export_mat(records)
        return cls(start.names, (score[0], score[1]), start.length, today, mat, board, forfeit)

    @property
    def id(self) -> str:
        return hashlib.sha256(self.mat.encode()).hexdigest()[:16]

    def to_json(self) -> bytes:
        data = {
            "players": list(self.players),
            "score": list(self.score),
            "length": self.length,
            "date": self.date,
            "mat": self.mat,
            "board": self.board,
            "forfeit": self.forfeit,
        }
        return json.dumps(data, separators=(",", ":")).encode()

    @classmethod
    def from_json(cls, raw: bytes) -> ClubResult:
        """``ValueError`` naming what is wrong."""
        try:
            data = loads(raw)
            white, black = data["players"]
            won = data["score"]
            result = cls(
                (str(white), str(black)),
                (int(won[0]), int(won[1])),
                int(data["length"]),
                str(data["date"]),
                str(data["mat"]),
                str(data.get("board", "")),
                None if data.get("forfeit") is None else check_colour(data["forfeit"]),
            )
        except UntrustedJsonError as exc:
            raise ValueError(f"not a match result: {exc}") from None
        except (ValueError, KeyError, TypeError, IndexError, OverflowError) as exc:
            raise ValueError(f"not a match result: {printable(str(exc))}") from None
        return result

    def line(self) -> str:
        """The result on one line, as plain text (anyone may have published it)."""
        (white, black), (one, two) = (printable(name, 40) for name in self.players), self.score
        kind = f"{self.length}-point match" if self.length else "money"
        if self.forfeit is not None:
            kind += f", {(white, black)[self.forfeit]} by forfeit"
        return f"{printable(self.date, 10)}  {white} {one} - {two} {black}  ({kind})"


def publish_result(broker: Broker, club: str, records: Sequence[Record], *, board: str) -> None:
    result = ClubResult.of(records, board=board)
    transport = Transport(broker, persistent=False).open()
    try:
        transport.publish(f"{club_topic(club)}/{result.id}", result.to_json(), retain=True)
        transport.flush()
    finally:
        transport.close()


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
    return sorted(results.values(), key=lambda r: (r.date, r.players, r.id))


def _add(results: dict[str, ClubResult], message: Message) -> None:
    try:
        result = ClubResult.from_json(message.payload)
    except ValueError as exc:
        log.warning("%s: %s", printable(message.topic), exc)
        return
    results[result.id] = result
