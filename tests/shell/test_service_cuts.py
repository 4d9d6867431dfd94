"""The service under SIGKILL: ``bgpi run --self-play`` (its own event loop, journal, dice
and hands) killed at chosen points of a match and at random instants around them, and
restarted each time, ends with exactly the journal of an uninterrupted run: no record lost,
no resume wedged, no traceback. ``scripts/power_cuts.py`` runs the larger campaign."""

from __future__ import annotations

import random
from pathlib import Path

from tests.shell.cuts import Tally, campaign


def test_the_service_survives_sigkill_at_any_instant(tmp_path: Path) -> None:
    tally = Tally()
    campaign(tmp_path, length=3, seed=11, rng=random.Random(13), tally=tally, most=20)
    assert tally.problems == []
    assert (tally.lost, tally.diverged, tally.wedged, tally.tracebacks) == (0, 0, 0, 0)
    assert tally.matches == 1
    assert tally.mid_match >= 8, str(tally)
