"""A frame asks how the board differs from the position several times (the rows' guards,
the scene's guidance, the page's status line): the comparison is made once per
(observation, position), and a new board or position is compared afresh."""

from __future__ import annotations

from bgpi.base.words import BLACK, WHITE
from bgpi.journal.records import MatchStarted
from bgpi.present.leds import scene_of
from bgpi.rules import Position
from bgpi.sensing.board import observe
from bgpi.table import active_rows
from bgpi.table.board import diff_of
from bgpi.web.view import status
from tests.table.test_buttons import CONFIG, opened, replay, settled


def test_a_frame_compares_the_board_with_the_position_once() -> None:
    table = replay(*opened(MatchStarted(5)))  # before Black's roll: every guard reads the board
    diff_of.cache_clear()
    for _ in range(3):  # three frames of the same table
        scene = scene_of(table)
        status(table, scene)
        active_rows(table)
    assert diff_of.cache_info().misses == 1 and diff_of.cache_info().hits > 3
    assert [row.intent.value for player, row in active_rows(table) if player == BLACK] == [
        "roll",
        "double",
        "resign",
    ]


def test_a_board_that_changes_is_compared_afresh() -> None:
    table = replay(*opened(MatchStarted(5)))
    assert table.board_ok()
    wrong = settled(table, observe(Position.initial(), WHITE, CONFIG.caps))
    assert not wrong.board_ok() and table.board_ok()
    diff = wrong.board_diff()
    assert diff is not None and diff.missing and diff.extra
    assert active_rows(wrong) == ()  # a person rolls only once the board shows the position
