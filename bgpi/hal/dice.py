"""Dice sources. A real game rolls from the operating system's CSPRNG; only tests and
replays use the seeded source, whose name says so."""

from __future__ import annotations

import random
import secrets


class SystemDice:
    """Fair dice from :mod:`secrets` (the OS CSPRNG): unpredictable, so nobody at the table
    can learn the next roll from the last ones."""

    def die(self) -> int:
        """One die, 1 to 6."""
        return secrets.randbelow(6) + 1

    def roll(self) -> tuple[int, int]:
        """Two dice."""
        return self.die(), self.die()

    def __repr__(self) -> str:
        return "SystemDice()"


class SeededDice:
    """Reproducible dice for tests and replays: the same seed gives the same rolls.

    Built on :class:`random.Random`, which is predictable by design: never the dice of a
    real game.
    """

    def __init__(self, seed: int | str | bytes) -> None:
        self.seed = seed
        self._random = random.Random(seed)

    def die(self) -> int:
        """One die, 1 to 6."""
        return self._random.randint(1, 6)

    def roll(self) -> tuple[int, int]:
        """Two dice."""
        return self.die(), self.die()

    def skip(self, count: int) -> None:
        """Pass over ``count`` dice: a replay resumes where the journal stopped."""
        for _ in range(count):
            self.die()

    def __repr__(self) -> str:
        return f"SeededDice({self.seed!r})"
