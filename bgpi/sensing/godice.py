"""Reading a pair of GoDice (Particula's Bluetooth LE smart dice) as they come to rest: a
pure reducer over their notifications, as the rule sheets judge a throw.

A die reports a roll motion (*rolling*), then where it rests: *stable* (flat), *tilt-stable*
(resting on an edge: cocked), *move-stable* (held still while moved: in a hand), or
*fake-stable* (a pause in the air). A roll counts only when both dice, each after a roll
motion, rest flat; a die that rests cocked or moved after its roll motion means "roll
again" (both dice, as the sheets say); a die picked up and put down without a roll motion
is not a roll. The shell (:mod:`bgpi.hal.godice`) feeds this from the library's callbacks.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import Final

from bgpi.base.i18n import N_, _

DIE_COLOURS: Final = {
    "black": N_("black"),
    "red": N_("red"),
    "green": N_("green"),
    "blue": N_("blue"),
    "yellow": N_("yellow"),
    "orange": N_("orange"),
}
"""The colours of a GoDice's dots, as the library names them (``godice.Color``, in its
order: the value the config and ``--first`` take), each with the players' word for it."""


def colour_words(colour: str) -> str:
    """A die's colour (the library's name) in the players' language; a name not known (a
    colour added to the library later), as it is."""
    word = DIE_COLOURS.get(colour)
    return colour if word is None else _(word)


class Rest(Enum):
    """How a die reports it is moving or resting (GoDice's ``StabilityDescriptor``)."""

    ROLLING = "rolling"
    STABLE = "stable"
    TILT_STABLE = "tilt-stable"
    FAKE_STABLE = "fake-stable"
    MOVE_STABLE = "move-stable"


@dataclass(frozen=True, slots=True)
class Thrown:
    """Both dice rolled and rest flat: the roll (the first die's value first)."""

    dice: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Again:
    """Die ``die`` (0 or 1) came to rest ``rest`` (cocked, or moved): throw again."""

    die: int
    rest: Rest
    value: int


Outcome = Thrown | Again


@dataclass(frozen=True, slots=True)
class DieState:
    """One die since the last throw counted: whether a roll motion was seen, and the value
    it rests flat on after it."""

    rolled: bool = False
    value: int | None = None


@dataclass(frozen=True, slots=True)
class PairReading:
    """What the pair's notifications say so far; ``count`` dice make a throw (one in the
    opening roll, each player throwing his die)."""

    count: int = 2
    dice: tuple[DieState, DieState] = (DieState(), DieState())

    def feed(self, die: int, rest: Rest, value: int) -> tuple[PairReading, Outcome | None]:
        """The reading after die ``die`` reported ``rest`` with ``value`` (0 while rolling),
        and the throw or the re-throw it completes, if any."""
        state = self.dice[die]
        if rest is Rest.ROLLING:
            return self._with(die, DieState(rolled=True)), None
        if not state.rolled or rest is Rest.FAKE_STABLE:
            return self, None  # a pick-up, a pause in the air: not a roll
        if rest in (Rest.TILT_STABLE, Rest.MOVE_STABLE):
            return PairReading(self.count), Again(die, rest, value)
        reading = self._with(die, DieState(rolled=True, value=value))
        values = tuple(s.value for s in reading.dice if s.value is not None)
        if len(values) >= self.count:
            first = reading.dice[die].value if self.count == 1 else None
            thrown = (first,) if first is not None else values[: self.count]
            return PairReading(self.count), Thrown(tuple(int(v) for v in thrown))
        return reading, None

    def _with(self, die: int, state: DieState) -> PairReading:
        dice = (state, self.dice[1]) if die == 0 else (self.dice[0], state)
        return replace(self, dice=dice)
