"""Which pixel of the strip lights what: the LED map.

Every builder lays the strip differently, so the map is configuration. It gives, for each zone
of :mod:`bgpi.base.geometry` (points 1-24, 25 white bar, 26 black bar, 27 white tray, 28 black
tray), the pixels along it from its base to its tip, and for each named area (:data:`AREAS`)
its pixels from the first (where bar graphs start) to the last.

The config format, as read by :meth:`LedMap.from_config` (TOML shown)::

    length = 264                       # pixels on the strip, numbered from 0
    [zones]                            # every zone 1-28, each pixel base first
    1 = { first = 0, count = 6 }       # a run: 0, 1, ..., 5
    2 = { first = 11, count = 6, step = -1 }  # laid tip to base: 11, 10, ..., 6
    25 = [144, 145, 146, 147]          # or the pixels one by one, in any order
    27 = []                            # a zone with no pixels is given as empty
    [areas]                            # any of AREAS; an area left out has no pixels
    "cube.white" = { first = 186, count = 6 }

A two-number list is always two pixels, never (start, count): runs are tables, so one glance
tells which is which. Every pixel may belong to one zone or area only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Final

from bgpi.base.words import BAR_BLACK, BAR_WHITE, POINTS, TRAY_BLACK, TRAY_WHITE, ZONES, zone_name
from bgpi.lights.errors import LedMapError
from bgpi.lights.marks import Target

AREAS: Final = (
    "cube.white",
    "cube.centre",
    "cube.black",
    "dice.white",
    "dice.black",
    "score.white",
    "score.black",
    "button.white.roll",
    "button.white.cube",
    "button.black.roll",
    "button.black.cube",
    "turn.white",
    "turn.black",
    "clock.white",
    "clock.black",
)
"""The named areas: the cube at each of its three places (a bar graph of its doublings), each
player's dice (two halves, a die's value is its number of lit pixels), score bar, the pixels
beside each of their two buttons, their turn light, and their clock (a bar of the reserve
left, in a clocked match). An area a board has no pixels for is simply not shown."""

_RUN_KEYS: Final = frozenset({"first", "count", "step"})


def target_name(target: Target) -> str:
    """``"point 7"``, ``"white bar"``, ``"cube.white"``: a zone or area for messages."""
    return zone_name(target) if isinstance(target, int) else str(target)


@dataclass(frozen=True, slots=True)
class LedMap:
    """The pixels of every zone and area on a strip of ``length`` pixels.

    ``zones[z]`` are zone ``z``'s pixels, base first (index 0 is unused and empty);
    ``areas`` pairs names of :data:`AREAS` with their pixels, first first (the value keeps
    every area, in the order of :data:`AREAS`, an area not given having none). Build one with
    :meth:`default`, :meth:`build` or :meth:`from_config`; the constructor refuses pixels that
    are negative, past the strip or claimed twice, naming the zone or area and the pixel.
    """

    length: int
    zones: tuple[tuple[int, ...], ...]
    areas: tuple[tuple[str, tuple[int, ...]], ...]
    _areas: dict[str, tuple[int, ...]] = field(init=False, repr=False, compare=False)
    _owners: tuple[Target | None, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if type(self.length) is not int or self.length < 1:
            raise LedMapError(f"a strip has 1 or more pixels, not length={self.length!r}")
        if len(self.zones) != TRAY_BLACK + 1 or self.zones[0]:
            raise LedMapError(
                f"zones must hold an empty entry 0 and zones 1-{TRAY_BLACK}, "
                f"got {len(self.zones)} entries"
            )
        areas: dict[str, tuple[int, ...]] = dict.fromkeys(AREAS, ())
        for name, pixels in self.areas:
            if name not in areas:
                raise LedMapError(f"unknown area {name!r}: areas are {', '.join(AREAS)}", name)
            areas[name] = pixels
        if len(dict(self.areas)) != len(self.areas):
            raise LedMapError("an area is given twice")
        claims: list[tuple[Target, tuple[int, ...]]] = [(z, self.zones[z]) for z in ZONES]
        claims.extend(areas.items())
        # Every pixel must exist before any can be claimed twice: a run laid the wrong way is
        # reported as running off the strip, not as the overlap it happens to meet first.
        for target, pixels in claims:
            self._check_pixels(target, pixels)
        owners: list[Target | None] = [None] * self.length
        for target, pixels in claims:
            for pixel in pixels:
                owner = owners[pixel]
                if owner is not None:
                    name = target_name(target)
                    raise LedMapError(
                        f"{name} names pixel {pixel} twice"
                        if owner == target
                        else f"pixel {pixel} is claimed by both {target_name(owner)} and {name}",
                        name,
                        pixel,
                    )
                owners[pixel] = target
        object.__setattr__(self, "areas", tuple(areas.items()))
        object.__setattr__(self, "_areas", areas)
        object.__setattr__(self, "_owners", tuple(owners))

    def _check_pixels(self, target: Target, pixels: tuple[int, ...]) -> None:
        name = target_name(target)
        for pixel in pixels:
            if type(pixel) is not int:
                raise LedMapError(f"{name} names pixel {pixel!r}, not an integer", name)
            if pixel < 0:
                raise LedMapError(
                    f"{name} names pixel {pixel}: pixels are numbered from 0", name, pixel
                )
            if pixel >= self.length:
                raise LedMapError(
                    f"{name} names pixel {pixel}, past the strip of {self.length} pixels "
                    f"(0-{self.length - 1})",
                    name,
                    pixel,
                )

    @classmethod
    def build(
        cls,
        length: int,
        zones: Mapping[int, Iterable[int]],
        areas: Mapping[str, Iterable[int]] | None = None,
    ) -> LedMap:
        """A map from ``{zone: pixels}`` (every zone 1-28) and ``{area: pixels}``."""
        for zone in zones:
            if zone not in ZONES:
                raise LedMapError(_unknown_zone(zone), f"zone {zone}")
        for zone in ZONES:
            if zone not in zones:
                raise LedMapError(
                    f"{zone_name(zone)} (zone {zone}) is missing: give its pixels, "
                    "or an empty list if it has none",
                    zone_name(zone),
                )
        zone_pixels = ((), *(tuple(zones[zone]) for zone in ZONES))
        area_pixels = tuple((name, tuple(pixels)) for name, pixels in (areas or {}).items())
        return cls(length, zone_pixels, area_pixels)

    @classmethod
    def from_config(cls, mapping: Mapping[str, object]) -> LedMap:
        """A map from its config table (the format is in this module's docstring)."""
        unknown = sorted(set(mapping) - {"length", "zones", "areas"})
        if unknown:
            raise LedMapError(
                f"unknown LED map key {unknown[0]!r}: the keys are length, zones, areas"
            )
        length = mapping.get("length")
        if type(length) is not int:
            raise LedMapError(f"the LED map's length is {length!r}, not a number of pixels")
        if "zones" not in mapping:
            raise LedMapError("the LED map has no zones table")
        zones_table = _table(mapping["zones"], "zones")
        areas_table = _table(mapping.get("areas", {}), "areas")
        zones: dict[int, tuple[int, ...]] = {}
        for key, spec in zones_table.items():
            zone = _zone_key(key)
            if zone in zones:
                raise LedMapError(f"{zone_name(zone)} is given twice", zone_name(zone))
            zones[zone] = _pixels(spec, zone_name(zone))
        areas: dict[str, tuple[int, ...]] = {}
        for key, spec in areas_table.items():
            if key not in AREAS:
                raise LedMapError(f"unknown area {key!r}: areas are {', '.join(AREAS)}", str(key))
            areas[key] = _pixels(spec, key)
        return cls.build(length, zones, areas)

    def to_config(self) -> dict[str, object]:
        """The config table of this map: :meth:`from_config` reads it back equal."""
        return {
            "length": self.length,
            "zones": {str(zone): _spec(self.zones[zone]) for zone in ZONES},
            "areas": {name: _spec(pixels) for name, pixels in self.areas if pixels},
        }

    @classmethod
    def default(cls) -> LedMap:
        """The default routing of one strip of 264 pixels, in this order:

        - points 1 to 24, six pixels each (one per sensor slot), pixels 0-143. The strip
          snakes: odd points are laid base to tip, even points tip to base, so each jump is the
          few centimetres between two neighbouring tips or bases (and, between points 12 and
          13, along the board's edge);
        - along the bar: the white bar (4), the centred cube (6), the black bar (4), 144-157;
        - the white tray (6) and the black tray (6), 158-169;
        - White's panel, 170-206: turn (2), roll button (1), cube button (1), dice (12: two
          halves of 6), cube on White's side (6), score (15);
        - Black's panel, 207-243, the same;
        - the clocks, 244-263: Black's (10), on from Black's panel, then White's (10). They
          come last so that a board laid before them (244 pixels) keeps every pixel's place:
          its strip ends where theirs would begin, and only the clocks are not shown.

        :meth:`describe` gives it as a table.
        """
        order: list[tuple[Target, int, bool]] = [
            (point, 6, point % 2 == 0) for point in range(1, POINTS + 1)
        ]
        order += [(BAR_WHITE, 4, False), ("cube.centre", 6, False), (BAR_BLACK, 4, False)]
        order += [(TRAY_WHITE, 6, False), (TRAY_BLACK, 6, False)]
        for colour in ("white", "black"):
            order += [
                (f"turn.{colour}", 2, False),
                (f"button.{colour}.roll", 1, False),
                (f"button.{colour}.cube", 1, False),
                (f"dice.{colour}", 12, False),
                (f"cube.{colour}", 6, False),
                (f"score.{colour}", 15, False),
            ]
        order += [("clock.black", 10, False), ("clock.white", 10, False)]
        zones: dict[int, tuple[int, ...]] = {}
        areas: dict[str, tuple[int, ...]] = {}
        start = 0
        for target, count, reverse in order:
            run = tuple(range(start, start + count))
            pixels = run[::-1] if reverse else run
            if isinstance(target, int):
                zones[target] = pixels
            else:
                areas[target] = pixels
            start += count
        return cls.build(start, zones, areas)

    def pixels(self, target: Target) -> tuple[int, ...]:
        """The pixels of a zone (base first) or an area (first first)."""
        if isinstance(target, int):
            if target not in ZONES:
                raise LedMapError(_unknown_zone(target), f"zone {target}")
            return self.zones[target]
        try:
            return self._areas[target]
        except KeyError:
            raise LedMapError(f"unknown area {target!r}: areas are {', '.join(AREAS)}") from None

    def owner(self, pixel: int) -> Target | None:
        """The zone or area that ``pixel`` belongs to, or ``None`` for an unused pixel."""
        if not 0 <= pixel < self.length:
            raise LedMapError(f"pixel {pixel} is outside the strip of {self.length}", pixel=pixel)
        return self._owners[pixel]

    def describe(self) -> str:
        """The map as a Markdown table, one row per run of neighbouring pixels in strip order,
        for the hardware documentation."""
        rows = ["| pixels | zone or area | order |", "| --- | --- | --- |"]
        for first, last, target in self._runs():
            span = str(first) if first == last else f"{first}-{last}"
            rows.append(f"| {span} | {_describe_target(target)} | {self._order(first, last)} |")
        return "\n".join(rows) + "\n"

    def _runs(self) -> list[tuple[int, int, Target | None]]:
        """(first, last, owner) of each run of consecutive pixels that one owner holds in a
        straight line (its own order going steadily up or down the strip)."""
        runs: list[tuple[int, int, Target | None]] = []
        for pixel, owner in enumerate(self._owners):
            if runs and runs[-1][2] == owner and self._continues(runs[-1], pixel):
                runs[-1] = (runs[-1][0], pixel, owner)
            else:
                runs.append((pixel, pixel, owner))
        return runs

    def _continues(self, run: tuple[int, int, Target | None], pixel: int) -> bool:
        first, last, owner = run
        if owner is None:
            return True
        pixels = self.pixels(owner)
        step = pixels.index(pixel) - pixels.index(last)
        if first == last:
            return step in (1, -1)
        return step == pixels.index(last) - pixels.index(last - 1)

    def _order(self, first: int, last: int) -> str:
        owner = self._owners[first]
        if owner is None or first == last:
            return ""
        pixels = self.pixels(owner)
        up = pixels.index(last) > pixels.index(first)
        if isinstance(owner, int):
            return "base to tip" if up else "tip to base"
        return "first to last" if up else "last to first"


def _describe_target(target: Target | None) -> str:
    if target is None:
        return "unused"
    if isinstance(target, int):
        return f"{zone_name(target)} (zone {target})"
    return f"`{target}`"


def _unknown_zone(zone: object) -> str:
    return (
        f"unknown zone {zone!r}: zones are 1-{POINTS} (points), {BAR_WHITE} and {BAR_BLACK} "
        f"(white and black bar), {TRAY_WHITE} and {TRAY_BLACK} (white and black tray)"
    )


def _table(value: object, name: str) -> Mapping[str, object]:
    if not isinstance(value, Mapping):
        raise LedMapError(f"the LED map's {name} is {value!r}, not a table")
    return value


def _zone_key(key: object) -> int:
    if type(key) is int:
        zone = key
    elif isinstance(key, str) and key.strip().isdigit():
        zone = int(key)
    else:
        raise LedMapError(_unknown_zone(key), f"zone {key!r}")
    if zone not in ZONES:
        raise LedMapError(_unknown_zone(key), f"zone {key!r}")
    return zone


def _pixels(spec: object, name: str) -> tuple[int, ...]:
    if isinstance(spec, list | tuple):
        for pixel in spec:
            if type(pixel) is not int:
                raise LedMapError(f"{name} names pixel {pixel!r}, not an integer", name)
        return tuple(spec)
    if not isinstance(spec, Mapping):
        raise LedMapError(
            f"{name} is {spec!r}: give a list of pixels or a run {{first, count, step}}", name
        )
    unknown = sorted(set(spec) - _RUN_KEYS)
    if unknown or not {"first", "count"} <= set(spec):
        raise LedMapError(
            f"{name}'s run {dict(spec)!r} needs first and count (and step 1 or -1), no more",
            name,
        )
    first, count, step = spec["first"], spec["count"], spec.get("step", 1)
    if type(first) is not int or type(count) is not int or count < 0:
        raise LedMapError(f"{name}'s run {dict(spec)!r} needs whole numbers, count 0 or more", name)
    if step not in (1, -1) or type(step) is not int:
        raise LedMapError(f"{name}'s run has step {step!r}, not 1 or -1", name)
    return tuple(first + step * i for i in range(count))


def _spec(pixels: tuple[int, ...]) -> object:
    if len(pixels) >= 2:
        step = pixels[1] - pixels[0]
        if step in (1, -1) and all(b - a == step for a, b in pairwise(pixels)):
            run: dict[str, int] = {"first": pixels[0], "count": len(pixels)}
            if step == -1:
                run["step"] = -1
            return run
    return list(pixels)
