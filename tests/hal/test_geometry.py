from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bgpi.base.words import (
    BAR_BLACK,
    BAR_WHITE,
    BLACK,
    TRAY_BLACK,
    TRAY_WHITE,
    WHITE,
    bar_zone,
    tray_zone,
    zone_name,
)
from bgpi.hal import Geometry, GeometryError, SensorFrame

DEFAULT = Geometry.default()


def test_the_default_chain_is_152_bits_in_the_documented_order() -> None:
    assert DEFAULT.nbits == 152
    assert DEFAULT.zone_slot(0) == (1, 0)
    assert DEFAULT.zone_slot(5) == (1, 5)
    assert DEFAULT.zone_slot(6) == (2, 0)
    assert DEFAULT.zone_slot(143) == (24, 5)
    assert DEFAULT.zone_slot(144) == (BAR_WHITE, 0)
    assert DEFAULT.zone_slot(148) == (BAR_BLACK, 0)
    assert DEFAULT.zone_slot(151) == (BAR_BLACK, 3)
    assert DEFAULT.unused() == ()


def test_round_trip_bit_to_zone_slot_and_back() -> None:
    for bit in range(DEFAULT.nbits):
        entry = DEFAULT.zone_slot(bit)
        assert entry is not None
        assert DEFAULT.bit_of(*entry) == bit


@given(st.permutations(range(152)), st.sets(st.integers(0, 160), max_size=4))
def test_any_wiring_round_trips_through_from_bits(order: list[int], extra: set[int]) -> None:
    # A builder's chain: the sensors in any order, with spare inputs wired to nothing.
    entries = DEFAULT.entries()
    spare = sorted(extra)
    bits = [b for b in range(152 + len(spare)) if b not in spare][:152]
    unused = [b for b in range(max(bits) + 1) if b not in bits]
    mapping = {bits[i]: entries[order[i]][1:] for i in range(152)}
    geometry = Geometry.from_bits(mapping, unused=unused)
    for bit, (zone, slot) in mapping.items():
        assert geometry.zone_slot(bit) == (zone, slot)
        assert geometry.bit_of(zone, slot) == bit
    assert Geometry.from_bits(geometry.entries(), unused=geometry.unused()) == geometry


def test_counts_per_zone() -> None:
    closed = [DEFAULT.bit_of(6, s) for s in range(5)] + [DEFAULT.bit_of(BAR_BLACK, 0)]
    counts = DEFAULT.counts(SensorFrame.from_closed(closed, 152, 0.0))
    assert len(counts) == 29 and counts[0] == 0
    assert counts[6] == 5 and counts[BAR_BLACK] == 1 and sum(counts) == 6


def test_bits_for_saturates_at_the_slots() -> None:
    bits = DEFAULT.bits_for({1: 9, BAR_WHITE: 2})
    counts = DEFAULT.counts(SensorFrame(bits, 152, 0.0))
    assert counts[1] == 6 and counts[BAR_WHITE] == 2


def test_counts_refuses_a_frame_of_another_chain() -> None:
    with pytest.raises(GeometryError, match="frame of 16 bits"):
        DEFAULT.counts(SensorFrame(0, 16, 0.0))


def test_trays_have_bits_when_configured() -> None:
    geometry = Geometry.default(tray_slots=3)
    assert geometry.nbits == 158
    assert geometry.zone_slot(152) == (TRAY_WHITE, 0)
    assert geometry.bit_of(TRAY_BLACK, 2) == 157


def test_a_duplicated_bit_is_refused_with_the_bit_named() -> None:
    triples = list(DEFAULT.entries())
    triples.append((12, 3, 0))
    with pytest.raises(GeometryError, match=r"bit 12 is given twice") as caught:
        Geometry.from_bits(triples)
    assert caught.value.bit == 12


def test_a_bit_both_used_and_unused_is_refused() -> None:
    with pytest.raises(GeometryError, match=r"bit 7 is given twice: point 2 slot 1 and unused"):
        Geometry.from_bits(DEFAULT.entries(), unused=[7])


def test_a_missing_bit_is_refused_with_the_bit_named() -> None:
    triples = [t for t in DEFAULT.entries() if t[0] != 17]
    with pytest.raises(GeometryError, match=r"bit 17 is missing") as caught:
        Geometry.from_bits([*triples, (152, 24, 5)])
    assert caught.value.bit == 17


def test_two_bits_on_one_sensor_are_refused_with_the_bit_named() -> None:
    mapping = {b: z for b, *z in DEFAULT.entries()}
    mapping[9] = (1, 3)  # bit 3 is already point 1 slot 3
    with pytest.raises(GeometryError, match=r"bits 3 and 9 both name point 1 slot 3") as caught:
        Geometry.from_bits({b: (z[0], z[1]) for b, z in mapping.items()})
    assert caught.value.bit == 9


def test_a_sensor_without_a_bit_is_refused() -> None:
    triples = [t for t in DEFAULT.entries() if t[0] != 151]
    with pytest.raises(GeometryError, match="black bar slot 3 has no bit"):
        Geometry.from_bits(triples)


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ((7, 6), r"bit 0 names point 7 slot 6, but a point has slots 0-5"),
        ((BAR_WHITE, 4), r"bit 0 names white bar slot 4, but a bar has slots 0-3"),
        ((TRAY_BLACK, 0), r"bit 0 names black tray slot 0, but a tray has no slots"),
        ((29, 0), r"bit 0 names zone 29, not a point"),
        ((0, 0), r"bit 0 names zone 0"),
    ],
)
def test_an_impossible_sensor_is_refused_with_the_bit_named(
    entry: tuple[int, int], message: str
) -> None:
    with pytest.raises(GeometryError, match=message) as caught:
        Geometry((entry, *DEFAULT.bits[1:]))
    assert caught.value.bit == 0


def test_negative_bits_and_empty_maps_are_refused() -> None:
    with pytest.raises(GeometryError, match="bit -1 is negative"):
        Geometry.from_bits([(-1, 1, 0)])
    with pytest.raises(GeometryError, match="at least one bit"):
        Geometry.from_bits([])


def test_geometry_errors_are_value_errors() -> None:
    with pytest.raises(ValueError, match="has no sensor"):
        DEFAULT.bit_of(3, 6)
    with pytest.raises(ValueError, match="bit 152 is outside"):
        DEFAULT.zone_slot(152)


def test_zone_helpers() -> None:
    assert bar_zone(WHITE) == BAR_WHITE and bar_zone(BLACK) == BAR_BLACK
    assert tray_zone(WHITE) == TRAY_WHITE and tray_zone(BLACK) == TRAY_BLACK
    assert [zone_name(z) for z in (1, 24, BAR_WHITE, TRAY_BLACK)] == [
        "point 1",
        "point 24",
        "white bar",
        "black tray",
    ]
    with pytest.raises(ValueError, match="colour 2"):
        bar_zone(2)


def test_geometries_are_values() -> None:
    assert Geometry.default() == DEFAULT and hash(Geometry.default()) == hash(DEFAULT)
    assert Geometry.default(point_slots=5) != DEFAULT
