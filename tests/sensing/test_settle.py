"""The settle filter: an observation counts once it has held still for the settle time."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bgpi.sensing.settle import SettleFilter

A, B, C = (1,), (2,), (3,)


def test_an_observation_settles_after_the_settle_time() -> None:
    f, out = SettleFilter(0.04).feed(A, 0.0)
    assert out is None and f.deadline() == pytest.approx(0.04)
    f, out = f.poll(0.039)
    assert out is None
    f, out = f.poll(0.04)
    assert out == A
    f, out = f.poll(1.0)
    assert out is None  # passed on once, not again
    assert f.deadline() is None


def test_a_checker_sliding_over_a_point_never_settles_there() -> None:
    f = SettleFilter(0.04)
    f, _ = f.feed(A, 0.0)
    f, _ = f.poll(0.05)
    for t, obs in ((0.10, B), (0.12, C), (0.14, B), (0.16, A)):  # 20 ms over each point
        f, out = f.feed(obs, t)
        assert out is None
        f, out = f.poll(t + 0.019)
        assert out is None
    f, out = f.poll(0.5)
    assert out is None  # back where it was: nothing new to pass on


def test_bounce_resets_the_clock() -> None:
    f = SettleFilter(0.04)
    f, _ = f.feed(A, 0.0)
    f, _ = f.feed(B, 0.03)
    f, out = f.poll(0.05)
    assert out is None
    f, out = f.poll(0.07)
    assert out == B


@given(st.lists(st.tuples(st.sampled_from([A, B, C]), st.floats(0.0, 0.039)), max_size=30))
def test_nothing_shorter_than_the_settle_time_ever_passes(
    steps: list[tuple[tuple[int], float]],
) -> None:
    f, t, last = SettleFilter(0.04), 0.0, None
    for obs, gap in steps:
        if obs == last:
            continue  # the same observation again is no change: its clock runs on
        last = obs
        f, out = f.feed(obs, t)
        assert out is None
        t += gap
        f, out = f.poll(t)
        assert out is None


@pytest.mark.parametrize("settle", [-0.1, 6.0])
def test_a_settle_time_out_of_range_is_refused(settle: float) -> None:
    with pytest.raises(ValueError, match="settle time"):
        SettleFilter(settle)
