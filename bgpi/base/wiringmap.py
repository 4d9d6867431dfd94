"""The builder's wiring map as the config file gives it: ``[[sensors.map]]`` entries of
``bit``, ``zone`` (by name) and ``slot``, plus ``[sensors] unused``, the chain inputs wired
to nothing. Reading it checks each entry and names the one at fault; writing it gives the
TOML that reads back to the same :class:`~bgpi.base.geometry.Geometry`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from bgpi.base.errors import BgpiError
from bgpi.base.geometry import Geometry, GeometryError
from bgpi.base.words import zone_name, zone_named

ENTRY_KEYS: Final = ("bit", "zone", "slot")


@dataclass(frozen=True, slots=True)
class SlotCounts:
    """How many switches each kind of zone has (the ``[sensors]`` slots)."""

    point_slots: int = 6
    bar_slots: int = 4
    tray_slots: int = 0


class WiringMapError(BgpiError, ValueError):
    """A wiring map that cannot be wired: ``where`` names the entry (``sensors.map entry 5
    (bit 17)``, ``sensors.unused``) and the message says why."""

    def __init__(self, where: str, why: str) -> None:
        super().__init__(why)
        self.where, self.why = where, why


def _entry_name(index: int, bit: Any = None) -> str:
    named = f" (bit {bit})" if isinstance(bit, int) and not isinstance(bit, bool) else ""
    return f"sensors.map entry {index + 1}{named}"


def _int(value: Any, where: str, key: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise WiringMapError(where, f"{key} is {value!r}, expected a whole number")
    if value < 0:
        raise WiringMapError(where, f"{key} is {value}, expected 0 or more")
    return value


def _entry(index: int, entry: Any) -> tuple[int, int, int]:
    where = _entry_name(index, entry.get("bit") if isinstance(entry, dict) else None)
    if not isinstance(entry, dict):
        raise WiringMapError(where, "must be a table with bit, zone and slot")
    for key in entry:
        if key not in ENTRY_KEYS:
            raise WiringMapError(where, f"unknown key {key!r}; known: {', '.join(ENTRY_KEYS)}")
    for key in ENTRY_KEYS:
        if key not in entry:
            raise WiringMapError(where, f"has no {key}")
    bit = _int(entry["bit"], where, "bit")
    if not isinstance(entry["zone"], str):
        raise WiringMapError(where, f"zone is {entry['zone']!r}, expected a name like 'point 3'")
    try:
        zone = zone_named(entry["zone"])
    except ValueError as exc:
        raise WiringMapError(where, str(exc)) from None
    return bit, zone, _int(entry["slot"], where, "slot")


def parse_map(entries: Any, unused: Any, slots: SlotCounts) -> Geometry | None:
    """The geometry of ``[[sensors.map]]`` and ``[sensors] unused``; ``None`` when the file
    gives no map (the default order then holds). Raises :class:`WiringMapError`."""
    if entries is None:
        if unused:
            raise WiringMapError("sensors.unused", "is given without a [[sensors.map]]")
        return None
    if not isinstance(entries, list) or not entries:
        raise WiringMapError("sensors.map", "must be [[sensors.map]] tables, one per switch")
    if unused is None:
        unused = []
    if not isinstance(unused, list):
        raise WiringMapError("sensors.unused", f"is {unused!r}, expected a list of bits")
    triples = [_entry(index, entry) for index, entry in enumerate(entries)]
    spare = [_int(bit, "sensors.unused", "a bit") for bit in unused]
    try:
        return Geometry.from_bits(
            triples,
            unused=spare,
            point_slots=slots.point_slots,
            bar_slots=slots.bar_slots,
            tray_slots=slots.tray_slots,
        )
    except GeometryError as exc:
        raise WiringMapError(_culprit(exc, triples, spare), str(exc)) from None


def _culprit(exc: GeometryError, triples: Sequence[tuple[int, int, int]], spare: list[int]) -> str:
    """The entry a geometry error is about: a doubled bit is named at its second giving
    (entries first, then the unused list), any other bit at the entry giving it."""
    if exc.bit is None:
        return "sensors.map"
    givings = [index for index, triple in enumerate(triples) if triple[0] == exc.bit]
    doubled = "given twice" in str(exc)
    if doubled and len(givings) >= 2:
        return _entry_name(givings[1], exc.bit)
    if givings and not (doubled and exc.bit in spare):
        return _entry_name(givings[0], exc.bit)
    return "sensors.unused" if exc.bit in spare else "sensors.map"


def map_toml(geometry: Geometry, *, header: str = "[[sensors.map]]") -> str:
    """``[[sensors.map]]`` tables for every used bit of ``geometry``, in bit order."""
    blocks = [
        f'{header}\nbit = {bit}\nzone = "{zone_name(zone)}"\nslot = {slot}\n'
        for bit, zone, slot in geometry.entries()
    ]
    return "\n".join(blocks)


def unused_toml(geometry: Geometry) -> str:
    """The ``unused = [...]`` line of ``[sensors]``."""
    return f"unused = [{', '.join(str(bit) for bit in geometry.unused())}]"
