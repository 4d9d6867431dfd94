from __future__ import annotations

import queue

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgpi.base.words import BAR_BLACK, BAR_WHITE, BLACK, WHITE, bar_zone
from bgpi.hal import ButtonEvent, Event, Geometry, SensorEvent
from bgpi.hal.errors import BackendClosedError, HalError, PixelFrameError
from bgpi.hal.sim import ManualClock, SimBoard, SimButtons, SimPixels

G = Geometry.default()


def bit(zone: int, slot: int) -> int:
    return G.bit_of(zone, slot)


def frames(events: list[Event]) -> list[tuple[float, tuple[int, ...]]]:
    return [
        (e.frame.timestamp, e.frame.closed_bits()) for e in events if isinstance(e, SensorEvent)
    ]


def sensed(board: SimBoard, zone: int) -> int:
    return G.counts(board.read())[zone]


def started(board: SimBoard) -> list[Event]:
    events: list[Event] = []
    board.start(events.append)
    return events


def test_start_emits_the_current_frame_first() -> None:
    board = SimBoard()
    board.setup({1: (WHITE, 2)})
    events = started(board)
    assert frames(events) == [(0.0, (bit(1, 0), bit(1, 1)))]


def test_lifting_the_seventh_checker_of_a_point_changes_nothing() -> None:
    board = SimBoard()
    board.setup({6: (WHITE, 7)})
    events = started(board)
    before = board.read()
    assert board.lift(6) == WHITE
    assert len(events) == 1  # only the first frame
    assert board.read().bits == before.bits
    assert board.counts()[6] == 6 and sensed(board, 6) == 6
    board.lift(6)  # the sixth was on slot 5
    assert frames(events)[-1][1] == tuple(bit(6, s) for s in range(5))
    assert sensed(board, 6) == 5


def test_a_checker_goes_to_the_lowest_free_slot_and_the_seventh_is_unseen() -> None:
    board = SimBoard()
    events = started(board)
    for _ in range(7):
        board.place(3, BLACK)
    seen = [closed for _, closed in frames(events)]
    assert seen[1] == (bit(3, 0),)
    assert seen[-1] == tuple(bit(3, s) for s in range(6))
    assert len(seen) == 7  # the first frame and six changes: the seventh checker is not seen
    assert board.counts()[3] == 7 and board.checkers(3) == (BLACK,) * 7


def test_a_checker_on_the_bar_sits_in_its_colours_zone() -> None:
    board = SimBoard()
    board.place(bar_zone(WHITE), WHITE)
    board.place(bar_zone(BLACK), BLACK)
    board.place(bar_zone(BLACK), BLACK)
    counts = G.counts(board.read())
    assert (counts[BAR_WHITE], counts[BAR_BLACK]) == (1, 2)
    assert board.read().closed_bits() == tuple(
        sorted((bit(BAR_WHITE, 0), bit(BAR_BLACK, 0), bit(BAR_BLACK, 1)))
    )
    for _ in range(3):
        board.place(BAR_BLACK, BLACK)
    assert G.counts(board.read())[BAR_BLACK] == 4 and board.counts()[BAR_BLACK] == 5


def test_a_hit_in_progress_holds_both_colours() -> None:
    board = SimBoard()
    board.setup({5: (BLACK, 1)})
    board.place(5, WHITE)  # the hitter is set down first, beside the blot
    assert sensed(board, 5) == 2
    assert board.lift(5, BLACK) == BLACK  # the blot is picked out from under it
    assert board.read().closed_bits() == (bit(5, 1),)
    assert board.checkers(5) == (WHITE,)
    board.place(bar_zone(BLACK), BLACK)
    assert G.counts(board.read())[BAR_BLACK] == 1


def test_lifting_from_an_empty_zone_is_refused() -> None:
    board = SimBoard()
    with pytest.raises(HalError, match="point 9"):
        board.lift(9)
    board.setup({9: (WHITE, 1)})
    with pytest.raises(HalError, match="black checker on point 9"):
        board.lift(9, BLACK)


def test_a_slide_passes_over_the_points_between() -> None:
    board = SimBoard()
    board.setup({13: (WHITE, 5), 8: (WHITE, 3)})
    events = started(board)
    base = set(board.read().closed_bits())
    assert board.slide(13, 8) == WHITE
    board.advance(1.0)
    got = [(t, set(closed) ^ base) for t, closed in frames(events)[1:]]
    lifted = bit(13, 4)
    assert got == [
        (0.0, {lifted}),
        (pytest.approx(0.05), {lifted, bit(12, 0)}),
        (pytest.approx(0.10), {lifted, bit(11, 0)}),
        (pytest.approx(0.15), {lifted, bit(10, 0)}),
        (pytest.approx(0.20), {lifted, bit(9, 0)}),
        (pytest.approx(0.25), {lifted, bit(8, 3)}),
    ]
    assert board.counts()[13] == 4 and board.counts()[8] == 4
    assert not board.pending


def test_a_slide_over_a_full_point_closes_nothing_there() -> None:
    board = SimBoard()
    board.setup({3: (BLACK, 1), 2: (WHITE, 6)})
    events = started(board)
    board.slide(3, 1)
    board.settle()
    assert board.read().bits == G.bits_for({2: 6, 1: 1})
    assert len(events) == 3  # first frame, the lift, the arrival: point 2 had no free switch


def test_a_slide_can_be_told_what_it_passes() -> None:
    board = SimBoard()
    board.setup({BAR_WHITE: (WHITE, 1)})
    events = started(board)
    board.slide(BAR_WHITE, 20, over=(24, 23, 22, 21))
    board.settle()
    passed = [closed for _, closed in frames(events)[2:-1]]
    assert passed == [(bit(p, 0),) for p in (24, 23, 22, 21)]
    assert board.read().closed_bits() == (bit(20, 0),)


def test_a_knock_moves_a_checker_along_its_point() -> None:
    board = SimBoard()
    board.setup({4: (BLACK, 2)})
    events = started(board)
    board.knock(4)
    assert frames(events)[-1][1] == (bit(4, 0), bit(4, 2))
    assert len(events) == 2  # both switches changed in one frame
    assert sensed(board, 4) == 2


def test_a_knocked_over_checker_is_unseen_until_straightened() -> None:
    board = SimBoard()
    board.setup({4: (BLACK, 2)})
    board.knock(4, 0, by=None)
    assert board.read().closed_bits() == (bit(4, 1),)
    assert board.counts()[4] == 2 and sensed(board, 4) == 1
    board.knock(4, 1, by=5)  # off the end of the point
    assert sensed(board, 4) == 0
    board.straighten(4)
    assert board.read().closed_bits() == (bit(4, 0), bit(4, 1))
    with pytest.raises(HalError, match="slot 3"):
        board.knock(4, 3)


def test_bounce_settles_to_the_right_frame() -> None:
    def run(seed: int) -> list[tuple[float, tuple[int, ...]]]:
        board = SimBoard(bounce=0.004, seed=seed)
        board.setup({7: (WHITE, 2)})
        board.settle()
        events = started(board)
        board.place(7, WHITE)
        board.settle()
        assert not board.pending
        assert board.read().bits == G.bits_for({7: 3})
        return frames(events)

    seen = run(seed=3)
    assert seen == run(seed=3)  # the same seed, the same chatter
    settled = (bit(7, 0), bit(7, 1), bit(7, 2))
    assert seen[-1][1] == settled
    assert len(seen) >= 4  # the first frame, then closed, open, closed at least
    assert {closed for _, closed in seen} == {settled, settled[:2]}  # only that switch bounced
    times = [t for t, _ in seen]
    assert times == sorted(times) and times[-1] - times[1] <= 0.004


def test_jitter_splits_one_movement_into_several_frames() -> None:
    board = SimBoard(jitter=0.002, seed=1)
    board.setup({4: (BLACK, 2)})
    board.settle()
    events = started(board)
    board.knock(4)
    board.settle()
    seen = frames(events)
    assert len(seen) == 3  # first frame, then one switch and the other at separate times
    assert seen[-1][1] == (bit(4, 0), bit(4, 2))


def test_a_newer_hand_supersedes_a_pending_arrival() -> None:
    board = SimBoard()
    board.setup({13: (WHITE, 1)})
    board.slide(13, 10)
    assert board.lift(10) == WHITE  # snatched before it got there
    board.settle()
    assert board.read().bits == 0 and board.counts()[10] == 0


@settings(max_examples=60, deadline=None)
@given(
    bounce=st.sampled_from([0.0, 0.003]),
    jitter=st.sampled_from([0.0, 0.002]),
    seed=st.integers(0, 1000),
    actions=st.lists(
        st.tuples(
            st.sampled_from(["place", "lift", "slide", "wait"]),
            st.integers(1, 26),
            st.integers(1, 26),
            st.sampled_from([WHITE, BLACK]),
        ),
        max_size=25,
    ),
)
def test_switches_always_settle_to_the_checkers(
    bounce: float, jitter: float, seed: int, actions: list[tuple[str, int, int, int]]
) -> None:
    board = SimBoard(bounce=bounce, jitter=jitter, seed=seed)
    events = started(board)
    for action, zone, other, colour in actions:
        if action == "place":
            board.place(zone, colour)
        elif action == "wait":
            board.advance(0.001 * zone)
        elif board.counts()[zone]:
            if action == "lift":
                board.lift(zone)
            else:
                board.slide(zone, other)
    final = board.settle()
    counts = board.counts()
    assert final.bits == G.bits_for({zone: counts[zone] for zone in range(1, 27)})
    assert frames(events)[-1][1] == final.closed_bits()
    times = [t for t, _ in frames(events)]
    assert times == sorted(times)


def test_events_go_into_a_queue() -> None:
    events: queue.Queue[Event] = queue.Queue()
    board = SimBoard()
    board.start(events.put)
    board.place(1, WHITE)
    assert events.get_nowait().frame.bits == 0  # type: ignore[union-attr]
    assert events.get_nowait().frame.closed_bits() == (bit(1, 0),)  # type: ignore[union-attr]
    assert events.empty()


def test_time_comes_from_the_clock() -> None:
    board = SimBoard()
    board.advance(2.5)
    assert board.read().timestamp == 2.5
    now = [10.0]
    live = SimBoard(clock=lambda: now[0])
    assert live.read().timestamp == 10.0
    events = started(live)
    live.place(13, WHITE)
    live.slide(13, 11)
    now[0] = 10.06
    live.pump()
    assert frames(events)[-1] == (pytest.approx(10.05), (bit(12, 0),))
    with pytest.raises(HalError, match="ManualClock"):
        live.advance(1.0)


def test_a_closed_board_refuses_to_work() -> None:
    board = SimBoard()
    board.close()
    board.close()
    with pytest.raises(BackendClosedError):
        board.read()
    with pytest.raises(BackendClosedError):
        board.place(1, WHITE)
    with SimBoard() as other:
        other.place(1, WHITE)
    with pytest.raises(BackendClosedError):
        other.start(lambda event: None)


def test_setup_saturates_what_the_switches_see() -> None:
    board = SimBoard()
    board.setup({1: (WHITE, 9), 24: (BLACK, 2)})
    assert board.counts()[1] == 9
    assert G.counts(board.read())[1] == 6 and G.counts(board.read())[24] == 2
    board.clear()
    assert board.read().bits == 0 and sum(board.counts()) == 0
    with pytest.raises(ValueError, match="zone 30"):
        board.setup({30: (WHITE, 1)})


def test_a_smaller_geometry_is_honoured() -> None:
    geometry = Geometry.default(point_slots=3, bar_slots=2, tray_slots=1)
    board = SimBoard(geometry)
    board.setup({2: (WHITE, 4), 27: (WHITE, 1)})
    assert board.nbits == 24 * 3 + 2 * 2 + 2
    assert geometry.counts(board.read())[2] == 3
    assert geometry.counts(board.read())[27] == 1


def test_sim_buttons_press_release_and_click() -> None:
    clock = ManualClock(5.0)
    buttons = SimButtons(clock=clock)
    events: list[Event] = []
    buttons.start(events.append)
    buttons.press(WHITE, "roll")
    assert buttons.down == {(WHITE, "roll")}
    clock.advance(0.8)
    buttons.release(WHITE, "roll")
    buttons.click(BLACK, "cube")
    assert events == [
        ButtonEvent(WHITE, "roll", True, 5.0),
        ButtonEvent(WHITE, "roll", False, 5.8),
        ButtonEvent(BLACK, "cube", True, 5.8),
        ButtonEvent(BLACK, "cube", False, 5.8),
    ]
    with pytest.raises(HalError, match="already up"):
        buttons.release(BLACK, "cube")
    with pytest.raises(ValueError, match="player"):
        buttons.press(2, "roll")
    buttons.close()
    with pytest.raises(BackendClosedError):
        buttons.press(WHITE, "roll")


def test_sim_pixels_keep_what_was_shown() -> None:
    pixels = SimPixels(3, history=2)
    assert len(pixels) == 3 and pixels.last is None
    pixels.show([(1, 2, 3), (0, 0, 0), (255, 255, 255)])
    pixels.show([(9, 9, 9)] * 3)
    pixels.show([(8, 8, 8)] * 3)
    assert list(pixels.frames) == [((9, 9, 9),) * 3, ((8, 8, 8),) * 3]
    with pytest.raises(PixelFrameError, match="3 pixels, got 2"):
        pixels.show([(0, 0, 0)] * 2)
    with pytest.raises(ValueError, match="pixel 1"):
        pixels.show([(0, 0, 0), (0, 0, 256), (0, 0, 0)])
    pixels.close()
    assert pixels.last == ((0, 0, 0),) * 3
    with pytest.raises(BackendClosedError):
        pixels.show([(0, 0, 0)] * 3)
