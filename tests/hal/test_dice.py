from __future__ import annotations

import random
from collections import Counter

import pytest

from bgpi.hal import SeededDice, SystemDice
from bgpi.hal import dice as dice_module


def test_system_dice_roll_one_to_six() -> None:
    dice = SystemDice()
    seen = Counter(dice.die() for _ in range(3000))
    assert set(seen) == {1, 2, 3, 4, 5, 6}
    first, second = dice.roll()
    assert 1 <= first <= 6 and 1 <= second <= 6


def test_system_dice_come_from_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    draws = iter([4, 0, 5, 2])
    asked: list[int] = []

    def randbelow(n: int) -> int:
        asked.append(n)
        return next(draws)

    monkeypatch.setattr(dice_module.secrets, "randbelow", randbelow)
    dice = SystemDice()
    assert dice.roll() == (5, 1)
    assert dice.roll() == (6, 3)
    assert asked == [6, 6, 6, 6]


def test_system_dice_never_touch_random(monkeypatch: pytest.MonkeyPatch) -> None:
    def forbidden(*args: object, **kwargs: object) -> int:
        raise AssertionError("SystemDice used the random module")

    for name in ("random", "randint", "randrange", "choice", "getrandbits"):
        monkeypatch.setattr(random, name, forbidden)
        monkeypatch.setattr(random.Random, name, forbidden)
    dice = SystemDice()
    assert all(1 <= dice.die() <= 6 for _ in range(100))


def test_seeded_dice_are_reproducible() -> None:
    a, b = SeededDice("replay-7"), SeededDice("replay-7")
    rolls = [a.roll() for _ in range(50)]
    assert rolls == [b.roll() for _ in range(50)]
    assert all(1 <= d <= 6 for roll in rolls for d in roll)
    assert rolls != [SeededDice("replay-8").roll() for _ in range(50)]
    assert repr(SeededDice(3)) == "SeededDice(3)"


def test_seeded_dice_are_fair_enough() -> None:
    dice = SeededDice(2024)
    counts = Counter(dice.die() for _ in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    chi2 = sum((c - 1000) ** 2 / 1000 for c in counts.values())
    assert chi2 < 20.5  # p = 0.001 with five degrees of freedom
