"""A config edited while ``bgpi run`` runs gives the next match's rules once the match is
over, never mid-match; a file that no longer checks keeps the rules in force."""

from __future__ import annotations

import logging
import os
from dataclasses import replace
from pathlib import Path

import pytest

from bgpi.base.words import BLACK, WHITE
from bgpi.journal.records import MatchStarted
from bgpi.service.app import App, table_config
from bgpi.service.config import load
from bgpi.service.reload import ConfigWatch
from bgpi.sim.simtable import SimTable
from bgpi.table import MatchOver, Phase


def edit(path: Path, text: str) -> None:
    """Write ``text`` and make sure the file's time moves on, as an editor's save does."""
    before = path.stat().st_mtime_ns if path.exists() else 0
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(before + 1_000_000_000, before + 1_000_000_000))


def test_an_edit_is_seen_once_and_a_bad_one_keeps_the_rules(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "config.toml"
    edit(path, "[rules]\nlength = 5\n")
    watch = ConfigWatch(str(path))
    assert watch.changed() is None  # as it was read at start
    edit(path, "[rules]\nlength = 7\n")
    changed = watch.changed()
    assert changed is not None and changed.rules.length == 7
    assert watch.changed() is None  # seen once
    with caplog.at_level(logging.ERROR, logger="bgpi"):
        edit(path, "[rules]\nlength = 'seven'\n")
        assert watch.changed() is None
    assert "rules.length" in caplog.text and "the rules in force stay" in caplog.text
    assert ConfigWatch(None).changed() is None  # the defaults: nothing to watch


def test_the_service_offers_the_edited_rules_after_the_match_never_during_it(
    tmp_path: Path,
) -> None:
    path = tmp_path / "config.toml"
    edit(path, "[rules]\nlength = 5\n")
    config = load(path)
    app = App(config, tmp_path / "state")
    sim = SimTable(MatchStarted(5))
    sim.driver.table = replace(sim.table, config=table_config(config))
    edit(path, "[rules]\nlength = 11\n")
    playing = sim.table
    app._between_matches(sim.driver)
    assert sim.table is playing  # mid-match: the edit waits
    sim.driver.table = replace(sim.table, at=MatchOver())
    app._between_matches(sim.driver)
    sim.roll(WHITE)  # after the match, ROLL opens the options: the edited rules' defaults
    assert sim.phase is Phase.CHOOSING
    assert sim.table.at.draft.length == 11  # type: ignore[union-attr]


def test_a_roster_added_between_matches_offers_the_players_at_the_next_choosing(
    tmp_path: Path,
) -> None:
    path = tmp_path / "config.toml"
    edit(path, "")
    config = load(path)
    app = App(config, tmp_path / "state")
    sim = SimTable(MatchStarted(5))
    sim.driver.table = replace(sim.table, config=table_config(config), at=MatchOver())
    edit(path, '[players]\nroster = ["Anna", "Ben"]\n')
    app._between_matches(sim.driver)
    sim.roll(WHITE)
    assert sim.table.at.named == (WHITE, BLACK)  # type: ignore[union-attr]
    assert sim.table.at.names == ("White", "Black")  # type: ignore[union-attr]
