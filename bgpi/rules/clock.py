"""The backgammon clock: each player's reserve, a delay per move, whose clock runs.

The standard setting is the U.S. Backgammon Clock Rules (March 2013): at the start of each
game each player's reserve is 2 minutes per match point less 1 minute per point already
scored by either player, and each move has a simple delay of 12 seconds (the reserve is
touched only after the delay has run out). The other settings, named as such: a Bronstein
delay (the reserve runs at once, and the time used, up to the delay, is given back at the
press), and a plain per-move limit (no reserve: each move within the limit).

Pure: time arrives as the timestamps of the table's events. A clock whose running time
started before a restart is not known to have run while the power was off, so a resumed
clock starts again at the first event after it (:meth:`Clock.resumed`). A clock paused
(:meth:`Clock.pause`: the table stops it while the board's sensors are down, as a director
stops the clocks when the equipment fails) counts nothing until :meth:`Clock.run_on`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, Final

from bgpi.base.words import Player
from bgpi.rules.errors import InvalidMatchError


class ClockMode(StrEnum):
    """How the clock counts a move's time."""

    OFF = "off"
    USBGF = "usbgf"  # U.S. Backgammon Clock Rules: a reserve and a simple delay per move
    BRONSTEIN = "bronstein"  # the same reserve; the time used up to the delay given back
    PER_MOVE = "per-move"  # no reserve: a plain limit on each move


@dataclass(frozen=True, slots=True)
class ClockRules:
    """The clock chosen for a match: ``per_move`` is the delay in seconds (simple or
    Bronstein), or the whole limit of a move; ``overtime`` the seconds a player whose flag
    falls is given once, after which a second fall ends the match (0: the first fall does)."""

    mode: ClockMode = ClockMode.OFF
    per_move: float = 12.0
    overtime: float = 0.0
    per_point: float = 120.0  # seconds of reserve per match point
    per_scored: float = 60.0  # less this per point already scored by either player

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "mode", ClockMode(self.mode))
        except ValueError:
            modes = ", ".join(ClockMode)
            raise InvalidMatchError(f"clock {self.mode!r} is not one of {modes}") from None
        for name in ("per_move", "overtime", "per_point", "per_scored"):
            value = getattr(self, name)
            if not isinstance(value, int | float) or isinstance(value, bool) or value < 0:
                raise InvalidMatchError(f"clock {name} {value!r} is not 0 seconds or more")

    @classmethod
    def read(cls, value: Any) -> ClockRules:
        """The rules from a record's JSON form (a mapping), or as they are."""
        if isinstance(value, ClockRules):
            return value
        if not isinstance(value, dict):
            raise InvalidMatchError(f"clock {value!r} is not a mapping of its settings")
        return cls(**value)

    @property
    def on(self) -> bool:
        return self.mode is not ClockMode.OFF

    def reserve(self, length: int, score: tuple[int, int]) -> float:
        """Each player's reserve at the start of a game at ``score`` in a match to
        ``length``: none under a per-move limit."""
        if self.mode is ClockMode.PER_MOVE:
            return 0.0
        return max(0.0, self.per_point * length - self.per_scored * sum(score))


NO_CLOCK: Final = ClockRules()
"""A match played without a clock (and money play, which has none)."""


@dataclass(frozen=True, slots=True)
class Clock:
    """Both players' reserves (seconds), whose clock runs (None: stopped) and since when
    (None: since the next event, after a restart, or not while paused), with the time the
    move had used before a restart or a pause (``carried``). ``paused``: stopped where it
    stood, the running player's move suspended, until :meth:`run_on`."""

    rules: ClockRules
    reserve: tuple[float, float] = (0.0, 0.0)
    running: Player | None = None
    since: float | None = None
    overtime_given: tuple[bool, bool] = (False, False)
    carried: float = 0.0
    paused: bool = False

    def new_game(self, length: int, score: tuple[int, int]) -> Clock:
        """Set for a game: both reserves as the rules give them at this score, stopped."""
        reserve = self.rules.reserve(length, score)
        return replace(self, reserve=(reserve, reserve), running=None, since=None)

    def used(self, t: float) -> float:
        """How long the running clock has run on this move."""
        if self.running is None:
            return 0.0
        return self.carried + (0.0 if self.since is None else max(0.0, t - self.since))

    def delay_left(self, t: float) -> float:
        """What is left of the running player's delay (or limit) on this move."""
        if self.running is None or self.rules.mode is ClockMode.BRONSTEIN:
            return 0.0
        return max(0.0, self.rules.per_move - self.used(t))

    def _charge(self, t: float) -> float:
        """What the move so far takes from the running player's reserve."""
        used = self.used(t)
        if self.rules.mode is ClockMode.BRONSTEIN:
            return used
        return max(0.0, used - self.rules.per_move)

    def left(self, player: Player, t: float) -> float:
        """``player``'s reserve as the clock shows it at ``t`` (below 0: the flag fell)."""
        if player != self.running:
            return self.reserve[player]
        return self.reserve[player] - self._charge(t)

    def fallen(self, t: float) -> Player | None:
        """The player whose time has run out at ``t``, if any."""
        if self.running is None or self.left(self.running, t) >= 0:
            return None
        return self.running

    def deadline(self) -> float | None:
        """When the running player's flag falls, if nothing is pressed before."""
        if self.running is None or self.since is None:
            return None
        start = self.since - self.carried
        reserve = self.reserve[self.running]
        if self.rules.mode is ClockMode.BRONSTEIN:
            return start + reserve
        return start + self.rules.per_move + reserve

    def hit(self, t: float, to: Player | None) -> Clock:
        """The running player's press at ``t``: their move's time charged (a Bronstein delay
        given back), and ``to``'s clock started (None: both stopped)."""
        reserve = list(self.reserve)
        if self.running is not None:
            reserve[self.running] = max(0.0, self.left(self.running, t))
            if self.rules.mode is ClockMode.BRONSTEIN:
                reserve[self.running] += min(self.used(t), self.rules.per_move)
        return replace(
            self,
            reserve=(reserve[0], reserve[1]),
            running=to,
            # Paused, the next player's move waits too: it starts when the clock runs on.
            since=None if to is None or self.paused else t,
            carried=0.0,
        )

    def give_overtime(self, player: Player, t: float) -> Clock:
        """``player``'s flag fell and the rules give overtime: once, as a new reserve, and
        their move starts again at ``t``."""
        reserve = list(self.reserve)
        reserve[player] = self.rules.overtime
        given = list(self.overtime_given)
        given[player] = True
        return replace(
            self,
            reserve=(reserve[0], reserve[1]),
            since=t,
            overtime_given=(given[0], given[1]),
            carried=0.0,
        )

    def started(self, t: float) -> Clock:
        """A resumed clock runs again from ``t``, the first event after the restart (a
        paused one waits for :meth:`run_on`)."""
        if self.running is not None and self.since is None and not self.paused:
            return replace(self, since=t)
        return self

    def resumed(self, reserve: tuple[float, float], running: Player | None, used: float) -> Clock:
        """The clock as the journal last left it: the reserves, whose clock ran and how long
        that move had run; it runs again from the next event, so a power cut neither adds
        nor takes any time."""
        return replace(self, reserve=reserve, running=running, since=None, carried=used)

    def pause(self, t: float) -> Clock:
        """Stopped at ``t`` where it stood: the running move keeps the time it has used and
        counts nothing more, so no flag can fall, until :meth:`run_on`."""
        if self.paused:
            return self
        return replace(self, since=None, carried=self.used(t), paused=True)

    def run_on(self, t: float) -> Clock:
        """A paused clock running again from ``t``: the move goes on with the time it had
        used (its delay, counted in that time, is not given again)."""
        if not self.paused:
            return self
        return replace(self, since=None if self.running is None else t, paused=False)
