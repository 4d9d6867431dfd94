"""Warnings about what came from the broker, rate-limited: a stranger who floods a match's
topic with garbage must not flood the board's log (and its SD card) as well."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Final

MOST: Final = 5  # lines per period; the rest are counted
PERIOD: Final = 60.0  # seconds


class QuietLog:
    """At most ``most`` warnings per ``period`` seconds; the ones held back are told as one
    line (how many) before the next warning that is shown."""

    def __init__(
        self,
        logger: logging.Logger,
        *,
        most: int = MOST,
        period: float = PERIOD,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.logger, self.most, self.period, self.clock = logger, most, period, clock
        self._start = -period
        self._shown = self.held = 0

    def warning(self, message: str) -> None:
        now = self.clock()
        if now - self._start >= self.period:
            if self.held:
                self.logger.warning("%d more like these in %g s, not shown", self.held, self.period)
            self._start, self._shown, self.held = now, 0, 0
        if self._shown < self.most:
            self._shown += 1
            self.logger.warning("%s", message)
        else:
            self.held += 1
