"""What the wizard concludes from the switches, with no I/O: the spots to learn in order, what
one change of the chain means for the spot asked for, and what to tell the builder.

A *spot* is a (zone, slot): one reed switch. The chain is read as an int of ``nbits`` bits.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum

from bgpi.base.frame import SensorFrame
from bgpi.base.geometry import Entry, Geometry
from bgpi.base.words import POINTS, ZONES, zone_name

SLOT_WORDS = ("nearest the edge", "second from the edge", "third from the edge")


def spot_name(spot: Entry) -> str:
    """``"point 7, slot 1 (second from the edge)"``."""
    zone, slot = spot
    where = SLOT_WORDS[slot] if slot < len(SLOT_WORDS) else f"{slot + 1}th from the edge"
    return f"{zone_name(zone)}, slot {slot} ({where})"


def input_name(bit: int) -> str:
    """Where bit ``bit`` enters the chain: ``"bit 12 (chip 1, input E)"``, chips counted
    from 0 nearest the Pi as the hardware guides number them (hardware/geometry.md), inputs
    A-H."""
    return f"bit {bit} (chip {bit // 8}, input {'ABCDEFGH'[bit % 8]})"


def bits_of(value: int) -> tuple[int, ...]:
    """The set bits of ``value``, lowest first."""
    found = []
    while value:
        low = value & -value
        found.append(low.bit_length() - 1)
        value ^= low
    return tuple(found)


def spots(geometry: Geometry) -> tuple[Entry, ...]:
    """Every spot to learn, in the order the builder is asked: points 1-24, then the bars
    and trays, each from the edge up (the slots of ``geometry``)."""
    ordered = sorted(ZONES, key=lambda zone: (zone > POINTS, zone))
    return tuple((zone, slot) for zone in ordered for slot in range(geometry.slots(zone)))


class Kind(Enum):
    """What one change of the chain, with a checker set on the spot asked for, means."""

    LEARNED = "learned"  # one new bit closed: this spot's switch
    DEAD = "dead"  # nothing closed in time
    CROSSED = "crossed"  # two or more bits closed at once
    TAKEN = "taken"  # one bit closed, but it already belongs to another spot
    STUCK = "stuck"  # closed with the board empty


@dataclass(frozen=True, slots=True)
class Finding:
    """One conclusion: ``bits`` are the chain inputs concerned; ``other`` the spot a taken
    bit already belongs to."""

    kind: Kind
    spot: Entry | None
    bits: tuple[int, ...] = ()
    other: Entry | None = None

    def message(self) -> str:
        """One line for the builder: what happened, and what to check."""
        inputs = " and ".join(input_name(bit) for bit in self.bits)
        spot = spot_name(self.spot) if self.spot is not None else ""
        if self.kind is Kind.LEARNED:
            return f"{spot}: {inputs}"
        if self.kind is Kind.STUCK:
            return (
                f"stuck bit: {inputs} closed with the board empty: check that no checker or "
                "magnet is left on the board, then the reed switch on that input (stuck "
                "closed) and its wire (touching ground)"
            )
        if self.kind is Kind.DEAD:
            return (
                f"dead bit: nothing closed for {spot}: check that the checker sits on that "
                "spot, then the reed switch under it (broken, or too far from the magnet) "
                "and its wire to the chain"
            )
        if self.kind is Kind.CROSSED:
            return (
                f"crossed bits: {inputs} closed together for {spot}: two wires crossed or "
                "touching, or two switches on one wire; check the wires of those inputs"
            )
        assert self.other is not None
        return (
            f"bit already assigned: {inputs} closed for {spot}, but it is already "
            f"{spot_name(self.other)}: is the checker on the spot asked for? Else two "
            "switches share that wire"
        )


def stuck(empty: int) -> Finding | None:
    """The stuck bits of a chain read with the board empty, if any."""
    closed = bits_of(empty)
    return Finding(Kind.STUCK, None, closed) if closed else None


def classify(spot: Entry, before: int, after: int, learned: Mapping[Entry, int]) -> Finding:
    """What the chain going from ``before`` to ``after`` means with a checker set on
    ``spot``; ``learned`` holds the spots already known."""
    closed = bits_of(after & ~before)
    if not closed:
        return Finding(Kind.DEAD, spot)
    if len(closed) > 1:
        return Finding(Kind.CROSSED, spot, closed)
    owners = {bit: other for other, bit in learned.items()}
    if closed[0] in owners and owners[closed[0]] != spot:
        return Finding(Kind.TAKEN, spot, closed, owners[closed[0]])
    return Finding(Kind.LEARNED, spot, closed)


def geometry_of(learned: Mapping[Entry, int], nbits: int, template: Geometry) -> Geometry:
    """The geometry the learned spots give on a chain of ``nbits``: every other input is
    unused. Raises :class:`~bgpi.base.geometry.GeometryError` if a spot is missing."""
    return Geometry.from_bits(
        ((bit, zone, slot) for (zone, slot), bit in learned.items()),
        unused=sorted(set(range(nbits)) - set(learned.values())),
        point_slots=template.point_slots,
        bar_slots=template.bar_slots,
        tray_slots=template.tray_slots,
    )


def check_filled(geometry: Geometry, zone: int, bits: int) -> str | None:
    """The verification of one zone: with its every slot filled (and nothing else on the
    board) the chain must count exactly those; what is wrong, or ``None``."""
    counts = geometry.counts(SensorFrame(bits, geometry.nbits, 0.0))
    wrong = [
        f"{zone_name(z)} counts {counts[z]}"
        for z in ZONES
        if counts[z] != (geometry.slots(zone) if z == zone else 0)
    ]
    if not wrong:
        return None
    mask = geometry.mask(zone)
    check = [input_name(bit) for bit in bits_of(mask & ~bits)]
    check += [input_name(bit) for bit in bits_of(bits & ~mask)]
    return (
        f"{zone_name(zone)} filled with {geometry.slots(zone)}: {', '.join(wrong)}; "
        f"check the switches and wires of {', '.join(check)}"
    )


def missing(all_spots: Iterable[Entry], learned: Mapping[Entry, int]) -> tuple[Entry, ...]:
    """The spots still to learn, in order."""
    return tuple(spot for spot in all_spots if spot not in learned)
