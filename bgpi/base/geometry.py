"""Which reed switch is which: bit index of the sensor chain -> (zone, slot).

Zones are the places a checker can sit, in the board's printed numbering: points 1-24
(White's home 1-6, Black's home 19-24), a bar zone per colour and an optional tray per colour
for borne-off checkers. Slot 0 is the base of a point (nearest the board's edge). Every builder
wires the chain differently, so the map is configuration; :meth:`Geometry.default` is the
order described in ``hardware/geometry.md``.

This is pure data, at the bottom of the house beside :mod:`bgpi.base.words`: the sensing core reads
frames through it, and the hardware layer (:mod:`bgpi.base.geometry` re-exports it) wires
backends by it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from bgpi.base.errors import BgpiError
from bgpi.base.frame import SensorFrame
from bgpi.base.words import (
    BAR_BLACK,
    BAR_WHITE,
    POINTS,
    TRAY_BLACK,
    TRAY_WHITE,
    ZONE_INDEX_SIZE,
    ZONES,
    Zone,
    zone_name,
)

Entry = tuple[Zone, int]


class GeometryError(BgpiError, ValueError):
    """A sensor geometry that cannot be wired: a bit missing, doubled or out of range.

    ``bit`` is the offending bit index, or ``None`` when the fault is a sensor with no bit.
    """

    def __init__(self, message: str, bit: int | None = None) -> None:
        super().__init__(message)
        self.bit = bit


def _sensor_name(entry: Entry) -> str:
    return f"{zone_name(entry[0])} slot {entry[1]}"


@dataclass(frozen=True, slots=True)
class Geometry:
    """The sensor map: ``bits[i]`` is the (zone, slot) of switch ``i``, or ``None`` for a chain
    input that is wired to nothing. Every slot of every zone has exactly one bit.

    Build one with :meth:`default` or :meth:`from_bits` (which also refuses doubled and missing
    bits); the constructor checks the rest and names the bit at fault.
    """

    bits: tuple[Entry | None, ...]
    point_slots: int = 6
    bar_slots: int = 4
    tray_slots: int = 0
    _lookup: dict[Entry, int] = field(init=False, repr=False, compare=False)
    _masks: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name in ("point_slots", "bar_slots", "tray_slots"):
            if getattr(self, name) < 0:
                raise GeometryError(f"{name} is {getattr(self, name)}, not zero or more")
        if self.point_slots < 1:
            raise GeometryError("a point needs at least one slot")
        if not self.bits:
            raise GeometryError("a geometry needs at least one bit")
        lookup: dict[Entry, int] = {}
        masks = [0] * ZONE_INDEX_SIZE
        for bit, entry in enumerate(self.bits):
            if entry is None:
                continue
            self._check_entry(bit, entry)
            if entry in lookup:
                raise GeometryError(
                    f"bits {lookup[entry]} and {bit} both name {_sensor_name(entry)}", bit
                )
            lookup[entry] = bit
            masks[entry[0]] |= 1 << bit
        for zone in ZONES:
            for slot in range(self.slots(zone)):
                if (zone, slot) not in lookup:
                    raise GeometryError(f"{_sensor_name((zone, slot))} has no bit")
        object.__setattr__(self, "_lookup", lookup)
        object.__setattr__(self, "_masks", tuple(masks))

    def _check_entry(self, bit: int, entry: Entry) -> None:
        zone, slot = entry
        if zone not in ZONES:
            raise GeometryError(
                f"bit {bit} names zone {zone}, not a point (1-{POINTS}), "
                f"a bar ({BAR_WHITE}, {BAR_BLACK}) or a tray ({TRAY_WHITE}, {TRAY_BLACK})",
                bit,
            )
        slots = self.slots(zone)
        if not 0 <= slot < slots:
            kind = "point" if zone <= POINTS else zone_name(zone).split()[1]
            have = f"slots 0-{slots - 1}" if slots else "no slots"
            raise GeometryError(
                f"bit {bit} names {_sensor_name(entry)}, but a {kind} has {have}", bit
            )

    @classmethod
    def default(cls, *, point_slots: int = 6, bar_slots: int = 4, tray_slots: int = 0) -> Geometry:
        """The default chain: points 1 to 24, each from slot 0 up, then the white bar, the
        black bar, the white tray and the black tray. With the default slots: 152 bits."""
        order = [(point, slot) for point in range(1, POINTS + 1) for slot in range(point_slots)]
        for zone, slots in (
            (BAR_WHITE, bar_slots),
            (BAR_BLACK, bar_slots),
            (TRAY_WHITE, tray_slots),
            (TRAY_BLACK, tray_slots),
        ):
            order.extend((zone, slot) for slot in range(slots))
        return cls(tuple(order), point_slots, bar_slots, tray_slots)

    @classmethod
    def from_bits(
        cls,
        entries: Mapping[int, Entry] | Iterable[tuple[int, Zone, int]],
        *,
        unused: Iterable[int] = (),
        point_slots: int = 6,
        bar_slots: int = 4,
        tray_slots: int = 0,
    ) -> Geometry:
        """A geometry from ``{bit: (zone, slot)}`` or ``(bit, zone, slot)`` triples, as a config
        file gives them. ``unused`` lists chain inputs wired to no sensor. Bits run from 0 to
        the highest given; each must be given exactly once."""
        triples: Iterable[tuple[int, Zone, int]]
        if isinstance(entries, Mapping):
            triples = ((bit, zone, slot) for bit, (zone, slot) in entries.items())
        else:
            triples = entries
        given: dict[int, Entry | None] = {}

        def give(bit: int, entry: Entry | None) -> None:
            if bit < 0:
                raise GeometryError(f"bit {bit} is negative", bit)
            if bit in given:
                first, second = given[bit], entry
                raise GeometryError(
                    f"bit {bit} is given twice: "
                    f"{_sensor_name(first) if first else 'unused'} and "
                    f"{_sensor_name(second) if second else 'unused'}",
                    bit,
                )
            given[bit] = entry

        for bit, zone, slot in triples:
            give(bit, (zone, slot))
        for bit in unused:
            give(bit, None)
        if not given:
            raise GeometryError("a geometry needs at least one bit")
        nbits = max(given) + 1
        for bit in range(nbits):
            if bit not in given:
                raise GeometryError(
                    f"bit {bit} is missing: bits 0-{nbits - 1} must each name a zone and slot "
                    "or be listed as unused",
                    bit,
                )
        return cls(tuple(given[bit] for bit in range(nbits)), point_slots, bar_slots, tray_slots)

    @property
    def nbits(self) -> int:
        """The length of the chain, unused inputs included."""
        return len(self.bits)

    def slots(self, zone: Zone) -> int:
        """How many slots (switches) ``zone`` has."""
        if 1 <= zone <= POINTS:
            return self.point_slots
        if zone in (BAR_WHITE, BAR_BLACK):
            return self.bar_slots
        if zone in (TRAY_WHITE, TRAY_BLACK):
            return self.tray_slots
        raise GeometryError(f"zone {zone} is not a point, a bar or a tray")

    def bit_of(self, zone: Zone, slot: int) -> int:
        """The bit of the switch under ``slot`` of ``zone``."""
        try:
            return self._lookup[zone, slot]
        except KeyError:
            raise GeometryError(f"{_sensor_name((zone, slot))} has no sensor") from None

    def zone_slot(self, bit: int) -> Entry | None:
        """The (zone, slot) of switch ``bit``, or ``None`` for an unused input."""
        if not 0 <= bit < self.nbits:
            raise GeometryError(f"bit {bit} is outside the chain of {self.nbits} bits", bit)
        return self.bits[bit]

    def mask(self, zone: Zone) -> int:
        """The bits of every switch of ``zone``."""
        if zone not in ZONES:
            raise GeometryError(f"zone {zone} is not a point, a bar or a tray")
        return self._masks[zone]

    def entries(self) -> tuple[tuple[int, Zone, int], ...]:
        """``(bit, zone, slot)`` for every used bit: what :meth:`from_bits` reads back."""
        return tuple((bit, e[0], e[1]) for bit, e in enumerate(self.bits) if e is not None)

    def unused(self) -> tuple[int, ...]:
        """The chain inputs wired to no sensor."""
        return tuple(bit for bit, entry in enumerate(self.bits) if entry is None)

    def counts(self, frame: SensorFrame) -> tuple[int, ...]:
        """The number of closed switches per zone, indexed by zone (index 0 unused): what the
        sensing layer observes. A point's count saturates at its slots."""
        if frame.nbits != self.nbits:
            raise GeometryError(f"a frame of {frame.nbits} bits for a chain of {self.nbits}")
        return tuple((frame.bits & mask).bit_count() for mask in self._masks)

    def bits_for(self, counts: Mapping[Zone, int]) -> int:
        """The switches a settled board closes with ``counts[zone]`` checkers on each zone
        (slots from 0 up; above the zone's slots the rest stack unseen)."""
        bits = 0
        for zone, count in counts.items():
            if count < 0:
                raise ValueError(f"{zone_name(zone)} has {count} checkers")
            for slot in range(min(count, self.slots(zone))):
                bits |= 1 << self._lookup[zone, slot]
        return bits
