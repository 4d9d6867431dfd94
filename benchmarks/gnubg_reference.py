"""The reference the benchmarks measure ``legal_plays`` against: gnubg's C move generator, as
the gnubg-nn package (dev extra) exposes it. Its ``moves(board, die1, die2)`` runs
``GenerateMoves`` and returns a tuple of the distinct resulting positions' keys, nothing more
(as legal_plays returns its plays).

Not the gnubg package: its ``find_best_moves`` evaluates every play as well (some 15x the
time of gnubg-nn's ``moves`` on the heaviest position), and the ``GenerateMoves`` its library
exports (gnubg 1.x's, reachable only through ctypes) takes about 5x gnubg-nn's time there and
about the same elsewhere; of gnubg's two generators the faster is the stricter reference.
Imported by the benchmarks run as scripts (``python benchmarks/goals_bench.py`` puts
benchmarks/ on the path).
"""

from __future__ import annotations

import math
import statistics
import timeit
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType

from bgpi.rules import Position, legal_plays

Roll = tuple[int, int]
Case = tuple[Position, Roll]
HEAVY = Position.from_id("AACAkCRJqqoAAA")  # 2,220 distinct plays with 1-1
ROUND = 0.2e-3  # seconds of calls timed together: short enough to fall between other work
OPENING = [(a, b) for a in range(2, 7) for b in range(1, a)]  # the first roll is never a double


def gnubg_nn() -> ModuleType | None:
    """The gnubg-nn package, or None where it is not installed."""
    try:
        import gnubg_nn  # noqa: PLC0415 (the dev extra's reference)
    except ImportError:
        return None
    return gnubg_nn


def board(pos: Position) -> list[list[int]]:
    """gnubg's board: [the side not on roll, the side on roll], points 1-24 then the bar."""
    return [list(pos.opponent[1:]), list(pos.player[1:])]


def agree(nn: ModuleType, pos: Position, roll: Roll) -> None:
    """Check both generators find the same resulting positions, as gnubg's keys (a roll that
    cannot move gives legal_plays one empty play, the position unchanged, and gnubg none)."""
    ours = [nn.key_of_board(board(play.result)) for play in legal_plays(pos, roll)]
    theirs = nn.moves(board(pos), *roll) or (nn.key_of_board(board(pos)),)
    if len(ours) != len(theirs) or set(ours) != set(theirs):
        raise AssertionError(f"legal_plays and gnubg-nn differ on {pos.id()} {roll}")


@dataclass(frozen=True, slots=True)
class Timing:
    """Seconds per call of each generator on one position and roll."""

    pos: Position
    roll: Roll
    ours: float
    theirs: float

    @property
    def ratio(self) -> float:
        return self.ours / self.theirs


def timing(nn: ModuleType, pos: Position, roll: Roll, rounds: int = 5) -> Timing:
    """Both generators on ``pos`` and ``roll``, checked to agree, then timed: each its best of
    ``rounds`` rounds of about 0.2 ms, the two alternating so that a burst of the machine's
    other load falls on both rather than on one."""
    agree(nn, pos, roll)
    gnubg_board = board(pos)
    calls = (lambda: legal_plays(pos, roll), lambda: nn.moves(gnubg_board, *roll))
    numbers = [max(1, round(ROUND / timeit.timeit(call, number=1))) for call in calls]
    best = [math.inf, math.inf]
    for _ in range(rounds):
        for side, (call, number) in enumerate(zip(calls, numbers, strict=True)):
            best[side] = min(best[side], timeit.timeit(call, number=number) / number)
    return Timing(pos, roll, *best)


def timings(nn: ModuleType, cases: Sequence[Case], rounds: int = 5) -> list[Timing]:
    """``timing`` of each case; then the worst ratio is timed again with 15 more rounds until
    the worst is one so confirmed, since the worst of thousands of short measurements is
    otherwise the one the machine's other load disturbed most."""
    found = [timing(nn, pos, roll, rounds) for pos, roll in cases]
    confirmed: set[int] = set()
    while (worst := max(range(len(found)), key=lambda i: found[i].ratio)) not in confirmed:
        confirmed.add(worst)
        first, again = found[worst], timing(nn, found[worst].pos, found[worst].roll, rounds=15)
        found[worst] = Timing(
            first.pos, first.roll, min(first.ours, again.ours), min(first.theirs, again.theirs)
        )
    return found


def summary(label: str, timings: Sequence[Timing], goal: str = "") -> str:
    """One line: each generator's median time, the ratio's median (and the ``goal`` for it)
    and its worst."""
    worst = max(timings, key=lambda t: t.ratio)
    return (
        f"{label}: legal_plays median {statistics.median(t.ours for t in timings) * 1e6:.1f} us, "
        f"gnubg-nn {statistics.median(t.theirs for t in timings) * 1e6:.1f} us; ratio median "
        f"{statistics.median(t.ratio for t in timings):.1f}x{goal}, worst {worst.ratio:.1f}x "
        f"({worst.pos.id()} {worst.roll[0]}-{worst.roll[1]})"
    )
