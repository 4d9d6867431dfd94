"""What the page is told of the clock: its setting in words, and each side as a clock beside
the board shows it (a per-move limit's time left, a simple delay beside the reserve, a
Bronstein reserve running at once, overtime), computed here so the page only counts on."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bgpi.base import i18n
from bgpi.base.faults import FaultSource
from bgpi.base.words import BLACK, WHITE
from bgpi.journal.records import MatchStarted
from bgpi.rules.clock import ClockMode, ClockRules
from bgpi.table import Fault, Table
from bgpi.web.view import clock_message
from tests.table.test_buttons import CONFIG, opened


def clocked(rules: ClockRules, **clock: object) -> Table:
    """A 5-point match on ``rules``, Black on roll, its clock set as ``clock`` says."""
    table = Table.replay(CONFIG, opened(MatchStarted(5, clock=rules)))
    assert table.clock is not None
    return replace(table, clock=replace(table.clock, **clock))  # type: ignore[arg-type]


def sides(table: Table) -> list[dict[str, object]]:
    message = clock_message(table)
    assert message is not None
    players = message["players"]
    assert isinstance(players, list)
    return players


def test_a_per_move_limit_shows_the_running_players_time_left_and_the_others_whole_limit() -> None:
    rules = ClockRules(ClockMode.PER_MOVE, per_move=30.0)
    table = clocked(rules, running=BLACK, since=100.0, carried=7.5)
    message = clock_message(table)
    assert message is not None
    assert message["caption"] == "Clock: 30 seconds a move"
    assert message["running"] == BLACK
    assert message["at"] == 100.0  # the figures are as of the move's start, 7.5 s carried
    white, black = sides(table)
    assert white == {"limit": 30.0, "delay": None, "reserve": 0.0, "overtime": False, "low": 7.5}
    assert black == {"limit": 22.5, "delay": None, "reserve": 0.0, "overtime": False, "low": 7.5}
    # Stopped between moves (a game over, say): both sides show the whole limit, and the
    # page has nothing to count on from.
    stopped = sides(clocked(rules))
    assert [side["limit"] for side in stopped] == [30.0, 30.0]
    assert clock_message(clocked(rules))["at"] is None  # type: ignore[index]
    # Resumed after a power cut, the clock runs again from the next event: nothing yet.
    resumed = clocked(rules, running=BLACK, carried=7.5)
    assert clock_message(resumed)["at"] is None  # type: ignore[index]
    assert sides(resumed)[BLACK]["limit"] == 22.5


def test_the_us_rules_show_the_delay_left_beside_the_reserve_while_it_runs() -> None:
    rules = ClockRules(ClockMode.USBGF)
    message = clock_message(clocked(rules))
    assert message is not None
    assert message["caption"] == "Clock: U.S. rules, a 12-second delay"
    white, black = sides(clocked(rules, reserve=(600.0, 590.0), running=BLACK, carried=5.0))
    assert white == {"limit": None, "delay": None, "reserve": 600.0, "overtime": False, "low": 60.0}
    assert black == {"limit": None, "delay": 7.0, "reserve": 590.0, "overtime": False, "low": 60.0}
    # Past the delay the reserve runs: 20 s used is 8 s off it.
    _white, black = sides(clocked(rules, reserve=(600.0, 590.0), running=BLACK, carried=20.0))
    assert (black["delay"], black["reserve"]) == (0.0, 582.0)


def test_a_bronstein_reserve_runs_at_once_and_shows_no_delay() -> None:
    rules = ClockRules(ClockMode.BRONSTEIN)
    table = clocked(rules, reserve=(600.0, 600.0), running=WHITE, since=50.0, carried=5.0)
    message = clock_message(table)
    assert message is not None
    assert message["caption"] == "Clock: Bronstein, a 12-second delay"
    white, black = sides(table)
    assert (white["delay"], white["reserve"]) == (None, 595.0)
    assert (black["delay"], black["reserve"]) == (None, 600.0)


def test_a_player_in_overtime_shows_it_after_the_move_limit() -> None:
    rules = ClockRules(ClockMode.PER_MOVE, per_move=30.0, overtime=60.0)
    table = clocked(
        rules, reserve=(0.0, 60.0), running=BLACK, overtime_given=(False, True), carried=40.0
    )
    message = clock_message(table)
    assert message is not None
    assert message["caption"] == "Clock: 30 seconds a move, 60 seconds' overtime"
    white, black = sides(table)
    assert (white["limit"], white["reserve"], white["overtime"]) == (30.0, 0.0, False)
    assert (black["limit"], black["reserve"], black["overtime"]) == (0.0, 50.0, True)
    usbgf = ClockRules(ClockMode.USBGF, overtime=120.0)
    _white, black = sides(
        clocked(usbgf, reserve=(300.0, 120.0), running=BLACK, overtime_given=(False, True))
    )
    assert (black["delay"], black["reserve"], black["overtime"]) == (12.0, 120.0, True)


def test_a_flag_fallen_shows_no_time_below_nothing() -> None:
    rules = ClockRules(ClockMode.USBGF)
    _white, black = sides(clocked(rules, reserve=(600.0, 10.0), running=BLACK, carried=30.0))
    assert (black["delay"], black["reserve"]) == (0.0, 0.0)


@pytest.mark.parametrize("language", ["fi", "sv", "nb"])
def test_the_caption_is_the_players_language(language: str) -> None:
    rules = ClockRules(ClockMode.USBGF)
    try:
        i18n.use(language)
        message = clock_message(clocked(rules))
        assert message is not None
        words = i18n._("U.S. rules, a {seconds}-second delay").format(seconds=12)
        assert message["caption"] == i18n._("Clock: {clock}").format(clock=words)
        assert message["caption"] != "Clock: U.S. rules, a 12-second delay"
    finally:
        i18n.use("en")


def test_no_clock_is_no_message() -> None:
    assert clock_message(Table.replay(CONFIG, opened(MatchStarted(5)))) is None


def test_a_clock_stopped_while_the_sensors_are_down_has_nothing_to_count_on_from() -> None:
    rules = ClockRules(ClockMode.USBGF)
    table = clocked(rules, reserve=(600.0, 590.0), running=BLACK, since=100.0)
    down = table.handle(Fault(FaultSource.SENSORS, "no answer", 105.0)).table
    message = clock_message(down)
    assert message is not None
    # Black's move stopped 5 s in: the figures stand as they are, true at any time.
    assert (message["running"], message["paused"], message["at"]) == (BLACK, True, None)
    _white, black = sides(down)
    assert (black["delay"], black["reserve"]) == (7.0, 590.0)
    back = down.handle(Fault(FaultSource.SENSORS, None, 400.0)).table
    message = clock_message(back)
    assert message is not None
    # Running on from 400 s, with the 7 s of delay it had left (not 12 again).
    assert (message["running"], message["paused"], message["at"]) == (BLACK, False, 400.0)
    assert sides(back)[BLACK]["delay"] == 7.0
