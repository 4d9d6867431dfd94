"""What a hello may make a board send again: a bounded amount, whoever sent the hello.

A hello asks for every message past its ``have``, and each hello bears a new nonce, so the
session answers each one once; but hellos captured on the broker stay valid, and one replayed
after a restart would make a board resend the whole match. So each message goes again at most
once per :data:`GAP` seconds (the other board's next hello, :data:`~bgpi.remote.link.NUDGE`
seconds on, asks again for one lost on the way), at most :data:`MOST` messages in all per
:data:`WINDOW` seconds, and a hello is answered with a hello at most once per :data:`GAP`.
Pure: the time arrives with each call.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Final

GAP: Final = 2.0  # seconds before the same message (or an answering hello) goes again
MOST: Final = 256  # messages resent per window: far more than a reconnection needs
WINDOW: Final = 10.0


class ResendBudget:
    """Which of the messages a hello asks for go again now."""

    def __init__(self, *, gap: float = GAP, most: int = MOST, window: float = WINDOW) -> None:
        self.gap, self.most, self.window = gap, most, window
        self._last: dict[int, float] = {}  # when each message last went again
        self._recent: deque[float] = deque()  # when each resend of the window went
        self._answered = float("-inf")

    def allow(self, seqs: Sequence[int], now: float) -> list[int]:
        """The ones of ``seqs`` (message numbers, in order) to send again now."""
        while self._recent and now - self._recent[0] >= self.window:
            self._recent.popleft()
        chosen = []
        for seq in seqs:
            if len(self._recent) >= self.most:
                break
            if now - self._last.get(seq, float("-inf")) >= self.gap:
                self._last[seq] = now
                self._recent.append(now)
                chosen.append(seq)
        return chosen

    def answer(self, now: float) -> bool:
        """Whether to answer a hello (or ask for a gap) with a hello now."""
        if now - self._answered < self.gap:
            return False
        self._answered = now
        return True
