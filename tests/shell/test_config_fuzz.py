"""The first hundred configs of the fuzz (``scripts/fuzz_configs.py`` runs 2,000 through real
processes): each accepted with a ``config show`` that is valid TOML, or refused with exit
status 2 and one line naming the file; never a traceback."""

from __future__ import annotations

from pathlib import Path

from tests.shell.configfuzz import KINDS, Tally, campaign, case, in_process


def test_a_hundred_mutated_configs_are_each_accepted_or_refused_in_one_line(
    tmp_path: Path,
) -> None:
    tally = campaign(tmp_path, seed=1, numbers=range(100), run=in_process, tally=Tally())
    assert tally.failures == []
    assert tally.outcomes["refused"] > 50 and tally.outcomes["accepted"] > 0
    assert set(tally.kinds) == set(KINDS)  # every kind of mutation was tried


def test_a_case_is_the_same_file_on_every_run() -> None:
    assert case(1, 17) == case(1, 17)
    assert case(1, 17) != case(2, 17)
