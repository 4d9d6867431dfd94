"""What the table refuses is a :class:`TableError`: one of bgpi's errors and a ValueError,
saying what was wrong and where."""

from __future__ import annotations

import pytest

from bgpi.base.errors import BgpiError
from bgpi.base.words import BLACK, WHITE
from bgpi.journal.records import Cube, CubeAction, GameStarted, MatchStarted, Rolled
from bgpi.table import DiceRolled, Intent, Table
from bgpi.table.errors import RecordMismatchError, TableError
from tests.table.test_buttons import CONFIG, opened, replay


def test_a_record_that_does_not_fit_the_journal_is_a_mismatch_naming_it() -> None:
    records = [*opened(MatchStarted(5)), Rolled(WHITE, (6, 6))]  # it is Black's turn
    with pytest.raises(RecordMismatchError, match=r"^record 5 \(Rolled\(.*player 1's turn$"):
        Table.replay(CONFIG, records)


def test_a_table_error_is_caught_as_bgpis_error_and_as_bad_input() -> None:
    assert issubclass(TableError, BgpiError) and issubclass(TableError, ValueError)
    assert issubclass(RecordMismatchError, TableError)
    with pytest.raises(ValueError, match="must begin with the start of a match"):
        Table.replay(CONFIG, [GameStarted()])


def test_a_record_in_the_wrong_phase_says_which_phases() -> None:
    table = replay(*opened(MatchStarted(5)))
    with pytest.raises(TableError, match="came in phase before roll, not doubled"):
        table.apply(CubeAction(WHITE, Cube.TAKE))


def test_an_intent_outside_its_rows_phase_is_refused_as_a_bug() -> None:
    table = replay(*opened(MatchStarted(5)))  # before Black's roll: nothing to confirm
    with pytest.raises(TableError, match="no confirm in phase before roll"):
        table.intend(BLACK, Intent.CONFIRM)


def test_dice_nobody_asked_for_are_refused() -> None:
    table = replay(*opened(MatchStarted(5)))
    with pytest.raises(TableError, match=r"dice \(6,\) were not asked for in phase before roll"):
        table.handle(DiceRolled(BLACK, (6,), 30.0))
