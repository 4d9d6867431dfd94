"""A club's results on a real mosquitto: published retained, listed once per match, and a
message there that is not a result is skipped with a warning; a result read back from its
JSON, from a board of an older version, and refused when a stranger's field is malformed."""

from __future__ import annotations

import json
import logging
from dataclasses import replace
from pathlib import Path

import pytest

from bgpi.base.words import WHITE
from bgpi.journal.export import MatHeader, export_mat
from bgpi.journal.records import FlagFell, MatchStarted
from bgpi.journal.store import Journal
from bgpi.remote.broker import Broker
from bgpi.remote.club import (
    RESULT_BYTES,
    BadResultError,
    ClubResult,
    Ending,
    ResultTooBigError,
    club_topic,
    fetch_results,
    match_key,
    publish_result,
)
from bgpi.remote.clubpost import ClubPoster
from bgpi.remote.transport import Transport
from bgpi.rules.clock import ClockMode, ClockRules
from bgpi.sim.demo import play_match
from tests.remote.conftest import Mosquitto, free_port

WHEN = 1_795_000_000.0  # 2026-11-18, 09:46 UTC


def test_results_are_listed_once_each_and_garbage_is_skipped(
    mosquitto: Mosquitto, caplog: pytest.LogCaptureFixture
) -> None:
    broker = Broker.parse(mosquitto.url)
    records = play_match(MatchStarted(1), seed=3, say=lambda _: None).driver.log
    # The two boards of one match head their files each with its own name and start.
    publish_result(broker, "Hinterhof", records, MatHeader("white's", 4, WHEN), link=None)
    publish_result(broker, "Hinterhof", records, MatHeader("black's", 9, WHEN + 1), link=None)
    other = play_match(MatchStarted(1, names=("Anna", "Ben")), seed=4, say=lambda _: None)
    publish_result(broker, "Hinterhof", other.driver.log, MatHeader("x"), link=None)
    stray = Transport(broker, persistent=False).open()
    stray.publish(f"{club_topic('Hinterhof')}/junk", b"{not json", retain=True)
    stray.flush()
    stray.close()
    with caplog.at_level(logging.WARNING, logger="bgpi"):
        results = fetch_results(broker, "Hinterhof")
    assert sorted(r.players for r in results) == [("Anna", "Ben"), ("White", "Black")]
    mine = next(r for r in results if r.players == ("White", "Black"))
    # One topic for both: the broker retains the last published, black's.
    assert mine.board == "black's"
    assert mine.mat == export_mat(records, MatHeader("black's", 9, WHEN + 1))
    assert mine.id == match_key(export_mat(records))  # as a board of an older version had it
    assert mine.length == 1 and max(mine.score) >= 1
    (warning,) = caplog.messages  # one line for the stranger's junk
    assert warning.startswith("bgpi/club/Hinterhof/results/junk: not a match result")
    assert fetch_results(broker, "Elsewhere") == []


def test_a_result_carries_the_headed_mat_the_clock_and_how_it_ended() -> None:
    clock = ClockRules(ClockMode.USBGF)
    start = MatchStarted(3, names=("Ann Lee", "Bo"), clock=clock)
    records = play_match(start, seed=5, say=lambda _: None).driver.log
    link = "http://192.0.2.7:8421/match.mat"
    result = ClubResult.of(records, MatHeader("board 3", 7, WHEN), link=link)
    assert result.mat == export_mat(records, MatHeader("board 3", 7, WHEN))
    assert result.mat.startswith('; [Site "board 3"]\n; [Match ID "7"]\n; [Player 1 "Ann_Lee"]')
    assert '; [Clock "usbgf, 12 s a move"]' in result.mat
    assert (result.board, result.started_at, result.clock, result.link) == (
        "board 3",
        WHEN,
        clock,
        link,
    )
    assert result.date == "2026-11-18" and result.ending in (Ending.PLAYED_OUT, Ending.RESIGNED)
    assert ClubResult.from_json(result.to_json()) == result


def test_a_flag_fall_gives_the_opponent_the_match() -> None:
    start = MatchStarted(5, clock=ClockRules(ClockMode.USBGF))
    played = play_match(start, seed=5, games=1, say=lambda _: None).driver.log
    records = [*played, FlagFell(WHITE)]
    result = ClubResult.of(records, MatHeader("b", None, WHEN))
    assert result.ending is Ending.FLAG_FALL and result.score[1] == 5


def test_a_result_from_a_board_of_an_older_version_reads_with_its_new_fields_absent() -> None:
    records = play_match(MatchStarted(1), seed=5, say=lambda _: None).driver.log
    old = {
        "players": ["White", "Black"],
        "score": [1, 0],
        "length": 1,
        "date": "2026-11-23",
        "mat": export_mat(records),
        "board": "bgpi-0123456789ab-white",
        "forfeit": None,
    }
    result = ClubResult.from_json(json.dumps(old).encode())
    assert (result.started_at, result.clock, result.ending, result.link) == (None,) * 4
    assert result.id == match_key(export_mat(records, MatHeader("x", 1, WHEN)))


def good() -> dict[str, object]:
    records = play_match(MatchStarted(1), seed=5, say=lambda _: None).driver.log
    result = ClubResult.of(
        records, MatHeader("b", None, WHEN), link="http://b.local:8421/match.mat"
    )
    data: dict[str, object] = json.loads(result.to_json())
    return data


MALFORMED = [
    ("players", ["A", "B", "C"]),
    ("players", ["A", 3]),
    ("players", ["A" * 101, "B"]),
    ("score", [1, -1]),
    ("score", [1, 10**30]),
    ("length", True),
    ("length", 2.5),
    ("length", "3"),
    ("date", "tomorrow"),
    ("mat", ["not", "text"]),
    ("forfeit", 2),
    ("started_at", "NaN"),
    ("started_at", -1),
    ("started_at", 1e20),
    ("clock", {"mode": "sundial"}),
    ("clock", {"mode": "usbgf", "per_move": 1e300}),
    ("clock", {"mode": "usbgf", "tz": 1}),
    ("clock", "usbgf"),
    ("ending", "won"),
    ("link", "javascript:alert(1)"),
    ("link", "http://x/\x1b]0;owned\x07"),
    ("link", "http://x/" + "a" * 400),
]


@pytest.mark.parametrize(("field", "value"), MALFORMED)
def test_a_malformed_field_from_a_stranger_is_refused(field: str, value: object) -> None:
    data = good()
    ClubResult.from_json(json.dumps(data).encode())  # the rest is well formed
    data[field] = value
    with pytest.raises(BadResultError, match=r"^not a match result: ") as refused:
        ClubResult.from_json(json.dumps(data).encode())
    assert "\x1b" not in str(refused.value) and len(str(refused.value)) < 200


@pytest.mark.parametrize(
    "raw",
    [
        b'{"players": ["A"]}',
        b"[1, 2]",
        b"[" * 5000,
        b'{"started_at": NaN}',
        b'{"players": ["A", "B"], "score": [Infinity, 0]}',
        b" " * (RESULT_BYTES + 1),
    ],
)
def test_bytes_that_are_no_result_are_refused_in_words(raw: bytes) -> None:
    with pytest.raises(BadResultError, match=r"^not a match result: "):
        ClubResult.from_json(raw)


def test_a_non_finite_number_in_a_result_is_refused() -> None:
    data = good()
    text = json.dumps(data).replace(f'"started_at": {WHEN}', '"started_at": Infinity')
    assert "Infinity" in text
    with pytest.raises(ValueError, match="is not 0 to"):
        ClubResult.from_json(text.encode())
    clock = replace(ClockRules(ClockMode.USBGF), per_move=12.0)
    assert (
        ClubResult.from_json(json.dumps(good() | {"clock": {"mode": "usbgf"}}).encode()).clock
        == clock
    )


def test_a_board_whose_broker_is_gone_says_so_once_and_plays_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with Journal.open(tmp_path / "journal.sqlite") as journal:
        sim = play_match(MatchStarted(1), seed=3, journal=journal, say=lambda _: None)
        poster = ClubPoster(
            Broker.parse(f"mqtt://127.0.0.1:{free_port()}"), "Hinterhof", board="b", link=None
        )
        with caplog.at_level(logging.WARNING, logger="bgpi"):
            poster.watch(sim.table, journal)
            poster.watch(sim.table, journal)  # the same phase: nothing read, nothing sent
            poster.close()
    (said,) = [m for m in caplog.messages if "not published" in m]
    assert said.startswith("club Hinterhof: the result was not published: broker mqtt://127.0.0.1:")


def test_a_result_no_reader_would_take_is_not_published() -> None:
    long_names = MatchStarted(1, names=("A" * 40_000, "B" * 40_000))
    session = play_match(long_names, seed=3, say=lambda _: None).driver.log
    nowhere = Broker.parse(f"mqtt://127.0.0.1:{free_port()}")  # refused before it is asked
    with pytest.raises(ResultTooBigError, match=r"more than the 65536 a reader takes"):
        publish_result(nowhere, "Hinterhof", session, MatHeader("b"), link=None)


def test_a_result_a_reader_would_refuse_is_not_published() -> None:
    start = MatchStarted(1, names=("A" * 101, "B"))
    records = play_match(start, seed=3, say=lambda _: None).driver.log
    nowhere = Broker.parse(f"mqtt://127.0.0.1:{free_port()}")
    with pytest.raises(ValueError, match=r"is not text of 100 characters"):
        publish_result(nowhere, "Hinterhof", records, MatHeader("b"), link=None)
