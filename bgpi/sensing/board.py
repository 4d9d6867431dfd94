"""What the sensors should see for a position, and how a sensed board differs from it.

An *observation* is the number of closed reed switches per zone, a tuple indexed by zone as
:meth:`bgpi.base.geometry.Geometry.counts` gives it: points 1-24 in the board's printed
numbering, then the white and black bar and the optional trays. The switches cannot tell
colour and a point saturates at its slots, so the expected observation of a position is the
count of checkers of either colour per zone, capped at that zone's slots.

The rules number each side from its own ace point; White's own numbering is the printed one
and Black's point ``p`` is printed ``25 - p``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bgpi.base.geometry import Geometry
from bgpi.base.words import (
    BAR_BLACK,
    BAR_WHITE,
    BLACK,
    POINTS,
    TRAY_BLACK,
    TRAY_WHITE,
    WHITE,
    ZONE_INDEX_SIZE,
    ZONES,
    Player,
    zone_name,
)
from bgpi.rules.position import BAR, OFF, Position

Observation = tuple[int, ...]


def zone_of(colour: Player, index: int) -> int:
    """The zone of ``colour``'s own index (1-24 a point, 25 its bar, 0 its tray)."""
    if index == BAR:
        return (BAR_WHITE, BAR_BLACK)[colour]
    if index == OFF:
        return (TRAY_WHITE, TRAY_BLACK)[colour]
    return index if colour == WHITE else 25 - index


def capacities(geometry: Geometry) -> Observation:
    """Slots per zone, indexed like an observation."""
    return (0, *(geometry.slots(zone) for zone in ZONES))


def counts_of(pos: Position, mover: Player) -> Observation:
    """Checkers per zone in ``pos`` when ``mover`` (WHITE or BLACK) is the player on roll."""
    counts = [0] * ZONE_INDEX_SIZE
    for colour, side in ((mover, pos.player), (mover.other, pos.opponent)):
        for index, count in enumerate(side):
            counts[zone_of(colour, index)] += count
    return tuple(counts)


def saturate(counts: Sequence[int], caps: Sequence[int]) -> Observation:
    """What the switches show of ``counts``: each zone capped at its slots."""
    return tuple(min(count, cap) for count, cap in zip(counts, caps, strict=True))


def observe(pos: Position, mover: Player, caps: Sequence[int]) -> Observation:
    """The observation a settled board in ``pos`` gives."""
    return saturate(counts_of(pos, mover), caps)


@dataclass(frozen=True, slots=True)
class BoardDiff:
    """How a sensed board differs from an expected one, zone by zone: ``extra`` checkers to
    take away and ``missing`` checkers to add, as ``(zone, count)`` pairs."""

    extra: tuple[tuple[int, int], ...] = ()
    missing: tuple[tuple[int, int], ...] = ()

    @property
    def ok(self) -> bool:
        return not self.extra and not self.missing

    def apply(self, observation: Sequence[int]) -> Observation:
        """The observation once the players have fixed what this diff says."""
        fixed = list(observation)
        for zone, count in self.extra:
            fixed[zone] -= count
        for zone, count in self.missing:
            fixed[zone] += count
        return tuple(fixed)

    def __str__(self) -> str:
        if self.ok:
            return "board as expected"
        parts = [f"{zone_name(z)}: {n} too many" for z, n in self.extra]
        parts += [f"{zone_name(z)}: {n} missing" for z, n in self.missing]
        return "; ".join(parts)


def board_diff(observation: Sequence[int], expected: Sequence[int]) -> BoardDiff:
    """The per-zone difference between a sensed observation and the expected one."""
    if len(observation) != len(expected):
        raise ValueError(f"observation has {len(observation)} zones, expected {len(expected)}")
    extra = tuple(
        (z, o - e) for z, (o, e) in enumerate(zip(observation, expected, strict=True)) if o > e
    )
    missing = tuple(
        (z, e - o) for z, (o, e) in enumerate(zip(observation, expected, strict=True)) if o < e
    )
    return BoardDiff(extra, missing)


def check_board(
    observation: Sequence[int], pos: Position, mover: Player, caps: Sequence[int]
) -> BoardDiff:
    """Compare a sensed board with any position: for setting up, and after a restart."""
    return board_diff(observation, observe(pos, mover, caps))


__all__ = [
    "BLACK",
    "POINTS",
    "WHITE",
    "BoardDiff",
    "Observation",
    "board_diff",
    "capacities",
    "check_board",
    "counts_of",
    "observe",
    "saturate",
    "zone_of",
]
