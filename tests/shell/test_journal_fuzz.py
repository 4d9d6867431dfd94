"""A slice of the damaged-journal fuzz (``scripts/fuzz_journals.py`` runs the whole of it):
on 30 damaged journals, ``bgpi status`` and ``bgpi export`` give no traceback, no silent wrong
answer, and change no file; a sound journal among them is never refused."""

from __future__ import annotations

from pathlib import Path

from tests.shell.journal_fuzz import DAMAGES, campaign


def test_thirty_damaged_journals_are_named_never_shown_as_a_match(tmp_path: Path) -> None:
    tally = campaign(tmp_path, count=30, seed=1)
    assert tally.problems == []
    assert (tally.wrong, tally.tracebacks, tally.changed, tally.false_alarms) == (0, 0, 0, 0)
    assert tally.runs == 60
    assert tally.refused >= 30  # most of the damage is read, and named
    assert len(tally.by_damage) >= len(DAMAGES) - 2
