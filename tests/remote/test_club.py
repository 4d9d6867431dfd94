"""A club's results on a real mosquitto: published retained, listed once per match, and a
message there that is not a result is skipped with a warning."""

from __future__ import annotations

import logging

import pytest

from bgpi.journal.export import export_mat
from bgpi.journal.records import MatchStarted
from bgpi.remote.broker import Broker
from bgpi.remote.club import ClubResult, club_topic, fetch_results, publish_result
from bgpi.remote.transport import Transport
from bgpi.sim.demo import play_match
from tests.remote.conftest import Mosquitto


def test_results_are_listed_once_each_and_garbage_is_skipped(
    mosquitto: Mosquitto, caplog: pytest.LogCaptureFixture
) -> None:
    broker = Broker.parse(mosquitto.url)
    records = play_match(MatchStarted(1), seed=3, say=lambda _: None).driver.log
    publish_result(broker, "Hinterhof", records, board="white's")
    publish_result(broker, "Hinterhof", records, board="black's")  # the same match
    other = play_match(MatchStarted(1, names=("Anna", "Ben")), seed=4, say=lambda _: None)
    publish_result(broker, "Hinterhof", other.driver.log, board="x")
    stray = Transport(broker, persistent=False).open()
    stray.publish(f"{club_topic('Hinterhof')}/junk", b"{not json", retain=True)
    stray.flush()
    stray.close()
    with caplog.at_level(logging.WARNING, logger="bgpi"):
        results = fetch_results(broker, "Hinterhof")
    assert sorted(r.players for r in results) == [("Anna", "Ben"), ("White", "Black")]
    mine = next(r for r in results if r.players == ("White", "Black"))
    assert mine.mat == export_mat(records) and mine.length == 1 and max(mine.score) >= 1
    assert "bgpi/club/Hinterhof/results/junk: not a match result" in caplog.text
    assert fetch_results(broker, "Elsewhere") == []


def test_a_result_reads_back_from_its_json() -> None:
    records = play_match(MatchStarted(1), seed=5, say=lambda _: None).driver.log
    result = ClubResult.of(records, board="b", date="2026-11-23")
    assert ClubResult.from_json(result.to_json()) == result
    assert result.line().startswith("2026-11-23  White ")
    with pytest.raises(ValueError, match="not a match result"):
        ClubResult.from_json(b'{"players": ["A"]}')
