"""The diagnosis of a wrong board: each kind of mistake on a board built by hand, read by the
real tracker, named with the printed point numbers and White/Black."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from bgpi.base.geometry import Geometry
from bgpi.base.words import BAR_BLACK, BAR_WHITE, BLACK, TRAY_WHITE, WHITE
from bgpi.rules import BAR, Position
from bgpi.sensing.board import Observation, capacities, observe
from bgpi.sensing.mistakes import Mistake, MistakeKind, diagnose, mistake_words, refusal
from bgpi.sensing.tracker import Kind, TurnTracker

CAPS = capacities(Geometry.default())  # six slots a point, no tray switches
TRAY_CAPS = tuple(15 if zone == TRAY_WHITE else cap for zone, cap in enumerate(CAPS))

# Black on roll (its view): a White blot on printed 19 (Black's 6), Black's three on its 8.
BLOT = Position.from_points({24: 2, 13: 5, 8: 3, 7: 5}, {6: 5, 8: 3, 13: 5, 19: 1, 24: 1})
HOME_BUT_ONE = Position.from_points({8: 1, 6: 4, 5: 4, 3: 3, 2: 3}, {24: 2, 13: 5, 8: 3, 6: 5})
ALL_HOME = Position.from_points({5: 3, 4: 3, 3: 3, 2: 3, 1: 3}, {13: 5, 12: 5, 11: 5})
ON_BAR = Position.from_points({BAR: 1, 13: 5, 8: 3, 6: 5, 24: 1}, {24: 2, 13: 5, 8: 3, 6: 5})


def board(
    start: Position, mover: int, changes: Mapping[int, int], caps: Observation = CAPS
) -> Observation:
    """What the switches read of ``start`` (the mover's view) with checkers added to or
    taken from printed zones."""
    seen = list(observe(start, mover, caps))
    for zone, change in changes.items():
        seen[zone] += change
    return tuple(seen)


def found(
    start: Position,
    roll: tuple[int, int],
    mover: int,
    changes: Mapping[int, int],
    caps: Observation = CAPS,
) -> Mistake | None:
    tracker = TurnTracker(start, roll, mover, caps)
    seen = board(start, mover, changes, caps)
    return diagnose(tracker, seen, tracker.read(seen))


def refused(
    start: Position,
    roll: tuple[int, int],
    mover: int,
    changes: Mapping[int, int],
    caps: Observation = CAPS,
) -> Mistake:
    tracker = TurnTracker(start, roll, mover, caps)
    seen = board(start, mover, changes, caps)
    reading = tracker.read(seen)
    near = reading.nodes[0] if reading.kind is Kind.AT_NODE else 0
    return refusal(tracker, seen, reading, near)


def test_a_hitter_on_a_blot_still_there_says_put_it_on_the_bar() -> None:
    # Black plays 17/19 with the 2 onto White's blot and leaves it there: legal so far (in
    # flight), but the blot must go to White's bar, which the LEDs show with the point.
    mistake = found(BLOT, (2, 1), BLACK, {17: -1, 19: +1})
    assert mistake == Mistake(MistakeKind.HIT_UNDONE, WHITE, (19, BAR_WHITE))
    assert mistake_words(mistake) == "a hit: put White's checker from 19 on the bar"


def test_a_hit_left_undone_then_another_move_is_still_the_hit() -> None:
    # ...and then plays 1/2 with the 1: the blot must still go to the bar.
    tracker = TurnTracker(BLOT, (2, 1), BLACK, CAPS)
    seen = board(BLOT, BLACK, {17: -1, 19: +1, 1: -1, 2: +1})
    mistake = diagnose(tracker, seen, tracker.read(seen))
    assert mistake is not None and mistake.kind is MistakeKind.HIT_UNDONE
    assert mistake.zones == (19, BAR_WHITE)


def test_the_hit_made_is_no_mistake() -> None:
    assert found(BLOT, (2, 1), BLACK, {17: -1, BAR_WHITE: +1}) is None  # in flight: legal


def test_a_wrong_distance_names_the_pips_and_the_dice() -> None:
    mistake = found(Position.initial(), (6, 1), WHITE, {8: -1, 5: +1})
    assert mistake == Mistake(MistakeKind.DISTANCE, WHITE, (8, 5), count=3, dice=(6, 1))
    assert mistake_words(mistake) == "3 pips, but the dice are 6 and 1"


def test_black_distances_are_counted_in_its_own_direction() -> None:
    # Black's 13 is printed 12; 12 -> 16 is four pips for Black.
    mistake = found(Position.initial(), (6, 1), BLACK, {12: -1, 16: +1})
    assert mistake is not None and mistake.kind is MistakeKind.DISTANCE
    assert (mistake.zones, mistake.count) == ((12, 16), 4)


@pytest.mark.parametrize("src", [24, 13, 8, 6])
def test_every_distance_no_die_gives_is_named_as_such(src: int) -> None:
    start = Position.initial()
    dice = (5, 2)
    legal = {5, 2, 7}
    for dst in range(1, src):
        if dst in (1, 12, 17, 19) or src - dst in legal:
            continue  # Black's points, and the distances the dice give
        mistake = found(start, dice, WHITE, {src: -1, dst: +1})
        assert mistake is not None
        assert (mistake.kind, mistake.count, mistake.zones) == (
            MistakeKind.DISTANCE,
            src - dst,
            (src, dst),
        ), (src, dst)


def test_the_opponents_checker_moved() -> None:
    # White on roll moves a Black checker from printed 1 to 3.
    mistake = found(Position.initial(), (6, 1), WHITE, {1: -1, 3: +1})
    assert mistake == Mistake(MistakeKind.NOT_YOURS, BLACK, (1,))
    assert mistake_words(mistake) == "that is Black's checker: put it back on 1"


def test_a_checker_moved_while_one_waits_on_the_bar() -> None:
    mistake = found(ON_BAR, (6, 1), WHITE, {13: -1, 7: +1})
    assert mistake == Mistake(MistakeKind.BAR_FIRST, WHITE, (BAR_WHITE, 13))
    assert mistake_words(mistake) == "White's checker on the bar must enter first"


def test_a_bear_off_before_all_are_home_with_tray_switches() -> None:
    mistake = found(HOME_BUT_ONE, (6, 3), WHITE, {3: -1, TRAY_WHITE: +1}, TRAY_CAPS)
    assert mistake == Mistake(MistakeKind.EARLY_BEAR_OFF, WHITE, (3,))
    assert mistake_words(mistake) == "bear-off only with all fifteen home"


def test_a_bear_off_before_all_are_home_without_tray_switches() -> None:
    # No die moves the checker on 3 yet, so it is not in a hand on its way: it is off.
    mistake = found(HOME_BUT_ONE, (6, 3), WHITE, {3: -1})
    assert mistake == Mistake(MistakeKind.EARLY_BEAR_OFF, WHITE, (3,))
    # With 6-1 it could be on its way to 2 (in flight) until ROLL says the play is made.
    assert found(HOME_BUT_ONE, (6, 1), WHITE, {3: -1}) is None
    assert refused(HOME_BUT_ONE, (6, 1), WHITE, {3: -1}).kind is MistakeKind.EARLY_BEAR_OFF


def test_three_borne_off_with_two_one_is_over_full() -> None:
    # Without tray switches: two off and one in a hand is legal so far; on ROLL it is not.
    changes = {1: -1, 2: -1, 3: -1}
    assert found(ALL_HOME, (2, 1), WHITE, changes) is None
    mistake = refused(ALL_HOME, (2, 1), WHITE, changes)
    assert mistake == Mistake(MistakeKind.OVERFULL_BEAR_OFF, WHITE, (1, 2, 3), count=3, dice=(2,))
    assert mistake_words(mistake) == "3 checkers borne off, but this roll bears off at most 2"
    # With tray switches the tray says it at once.
    sensed = found(ALL_HOME, (2, 1), WHITE, {**changes, TRAY_WHITE: +3}, TRAY_CAPS)
    assert sensed is not None and sensed.kind is MistakeKind.OVERFULL_BEAR_OFF


def test_roll_on_half_a_play_names_the_die_still_to_play() -> None:
    mistake = refused(Position.initial(), (6, 1), WHITE, {13: -1, 7: +1})
    assert mistake.kind is MistakeKind.INCOMPLETE and mistake.dice == (1,)
    assert mistake.example is not None
    src, dst = mistake.example
    assert src - dst == 1
    assert mistake_words(mistake) == (
        f"the play is not complete: the 1 can still be played (e.g. {src}/{dst})"
    )


def test_black_example_moves_use_the_printed_numbers() -> None:
    mistake = refused(Position.initial(), (6, 1), BLACK, {12: -1, 18: +1})
    assert mistake.kind is MistakeKind.INCOMPLETE and mistake.example is not None
    src, dst = mistake.example
    assert dst - src == 1  # Black moves up the printed numbers


def test_anything_else_is_the_per_zone_difference_in_words() -> None:
    mistake = found(Position.initial(), (6, 1), WHITE, {20: +1})
    assert mistake is not None and mistake.kind is MistakeKind.BOARD
    assert mistake.zones == (20,)
    assert mistake_words(mistake) == "point 20 has one checker too many"


def test_the_per_zone_words_count_and_name_bars() -> None:
    mistake = found(ON_BAR, (6, 1), WHITE, {BAR_BLACK: +2})
    assert mistake is not None and mistake.kind is MistakeKind.BOARD
    assert mistake_words(mistake) == "Black's bar has 2 checkers too many"


def test_a_board_at_a_legal_node_has_no_mistake() -> None:
    assert found(Position.initial(), (6, 1), WHITE, {13: -1, 7: +1}) is None
