"""The settle filter: act on an observation only once it has held still.

A checker slid across the board closes the switches of every point it passes for a moment,
and reed contacts bounce for a few milliseconds. Neither may count as a placement, so an
observation is passed on only after it has been unchanged for ``settle`` seconds. Pure: time
arrives with each call.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bgpi.sensing.board import Observation

DEFAULT_SETTLE = 0.040


@dataclass(frozen=True, slots=True)
class SettleFilter:
    """The latest raw observation, since when it has held, and the last one passed on."""

    settle: float = DEFAULT_SETTLE
    pending: Observation | None = None
    since: float = 0.0
    settled: Observation | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.settle <= 5:
            raise ValueError(f"settle time {self.settle!r} s is not between 0 and 5 seconds")

    def feed(self, observation: Observation, now: float) -> tuple[SettleFilter, Observation | None]:
        """Take a raw observation at time ``now``; return the new filter and the observation
        that has just settled, if one has."""
        state = self
        if observation != self.pending:
            state = replace(self, pending=observation, since=now)
        return state.poll(now)

    def poll(self, now: float) -> tuple[SettleFilter, Observation | None]:
        """Check the clock: the pending observation settles once it has held ``settle`` s."""
        if self.pending is None or self.pending == self.settled or now - self.since < self.settle:
            return self, None
        return replace(self, settled=self.pending), self.pending

    def deadline(self) -> float | None:
        """When :meth:`poll` may next pass something on, for the shell's timer."""
        if self.pending is None or self.pending == self.settled:
            return None
        return self.since + self.settle
