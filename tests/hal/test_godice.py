"""Two GoDice through the ``godice`` library's own code, over a fake BLE client that sends a
real die's notification bytes, kept connected by the link's own event loop: each die's word
decoded as the library decodes it; a roll counts only when both dice rest flat after a roll
motion, a cocked or moved die means roll again, a pick-up is not a roll (the reducer fed
with what the dice said); the battery asked after each throw; a die lost and tried again
with backoff, each try logged once, the fault cleared once it is back."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Iterator

import pytest

from bgpi.hal.api import DieEvent, FaultEvent
from bgpi.hal.godice import FakeBleClient
from bgpi.hal.godicelink import Backoff, GoDiceLink
from bgpi.sensing.godice import Again, Outcome, PairReading, Rest, Thrown

QUICK = Backoff(first=0.001, most=0.004, attempts=3, pause=0.01)


class Pair:
    """A link over two fake dice (the second at 12 % battery unless told), what it emitted."""

    def __init__(self, second_battery: int = 60) -> None:
        self.fakes = (
            FakeBleClient("C0:00:00:00:00:01", colour=1),
            FakeBleClient("C0:00:00:00:00:02", second_battery, colour=3),
        )
        self.said: list[DieEvent | FaultEvent] = []
        self.link = GoDiceLink(self._client, lambda: 1.0, backoff=QUICK)

    def _client(self, index: int, lost: object) -> FakeBleClient:
        fake = self.fakes[index]
        fake.disconnected = lost  # type: ignore[assignment]
        return fake

    def run(self, *steps: Awaitable[None]) -> None:
        async def all_of() -> None:
            for step in steps:
                await step

        self.link.run(all_of())

    def outcomes(self, count: int = 2) -> list[Outcome]:
        """What the pair's words amount to, as the table judges them."""
        reading, found = PairReading(count), []
        for event in self.said:
            if isinstance(event, DieEvent):
                reading, outcome = reading.feed(event.die, event.rest, event.value)
                if outcome is not None:
                    found.append(outcome)
        return found

    @property
    def faults(self) -> list[str | None]:
        return [event.message for event in self.said if isinstance(event, FaultEvent)]


@pytest.fixture
def pair() -> Iterator[Pair]:
    made = Pair()
    made.link.start(made.said.append)
    made.link.ready()
    yield made
    made.link.close()


def test_a_roll_counts_once_both_dice_rest_flat_after_a_roll_motion(pair: Pair) -> None:
    first, second = pair.fakes
    pair.run(first.rolling(), second.rolling(), first.rest(6))
    assert pair.outcomes() == []  # one die still rolling
    pair.run(second.rest(5))
    assert pair.outcomes() == [Thrown((6, 5))]
    assert pair.said[-1] == DieEvent(1, Rest.STABLE, 5, 1.0)


def test_every_face_is_read_as_the_library_decodes_it(pair: Pair) -> None:
    first, second = pair.fakes
    for a in range(1, 7):
        for b in range(1, 7):
            pair.run(first.rolling(), second.rolling(), second.rest(b), first.rest(a))
    assert [o.dice for o in pair.outcomes() if isinstance(o, Thrown)] == [
        (a, b) for a in range(1, 7) for b in range(1, 7)
    ]


def test_a_cocked_or_moved_die_means_roll_again_and_the_other_die_with_it(pair: Pair) -> None:
    first, second = pair.fakes
    pair.run(first.rolling(), second.rolling(), first.rest(4), second.rest(3, Rest.TILT_STABLE))
    assert pair.outcomes() == [Again(1, Rest.TILT_STABLE, 3)]
    pair.run(second.rest(2))  # no roll motion since: not a roll
    pair.run(first.rolling(), second.rolling(), first.rest(1, Rest.MOVE_STABLE))
    assert pair.outcomes()[-1] == Again(0, Rest.MOVE_STABLE, 1)
    pair.run(first.rolling(), second.rolling(), first.rest(2), second.rest(2))
    assert pair.outcomes()[-1] == Thrown((2, 2))


def test_a_die_picked_up_and_put_down_is_not_a_roll(pair: Pair) -> None:
    first, second = pair.fakes
    pair.run(first.rest(6), second.rest(6), first.rest(3, Rest.FAKE_STABLE))
    assert pair.outcomes() == []


def test_the_opening_die_is_one_die_at_rest(pair: Pair) -> None:
    first, _second = pair.fakes
    pair.run(first.rolling(), first.rest(5))
    assert pair.outcomes(count=1) == [Thrown((5,))]


def test_the_battery_is_asked_after_each_throw_and_a_low_die_is_a_fault_until_charged() -> None:
    pair = Pair(second_battery=12)
    pair.link.start(pair.said.append)
    pair.link.ready()
    first, second = pair.fakes
    assert first.written[:2] == [b"\x17", b"\x03"]  # its colour, its battery: the library's
    assert pair.faults == ["die 2 (blue) is low on battery (12%)"]
    second.battery = 17  # charged a little: not yet enough to count as charged (no flicker)
    pair.run(second.rolling(), second.rest(4))
    assert pair.faults == ["die 2 (blue) is low on battery (12%)"]
    second.battery = 80
    pair.run(second.rolling(), second.rest(4))
    assert pair.faults[-1] is None
    assert first.written.count(b"\x03") == 1 and second.written.count(b"\x03") == 3
    pair.link.close()


def test_a_lost_die_is_tried_again_with_backoff_each_try_logged_once(
    pair: Pair, caplog: pytest.LogCaptureFixture
) -> None:
    first, second = pair.fakes
    caplog.set_level(logging.INFO, "bgpi.hal.godicelink")
    pair.run(first.rolling(), second.rolling(), first.rest(3))
    second.drop(refusals=2)  # gone mid-throw; its first two tries fail
    pair.link.quiet()
    assert pair.faults == ["die 2 (blue) is gone", None]
    tries = [r.getMessage() for r in caplog.records if "did not connect" in r.getMessage()]
    assert tries == [
        "godice: die 2 did not connect (try 1 of 3): C0:00:00:00:00:02 did not answer",
        "godice: die 2 did not connect (try 2 of 3): C0:00:00:00:00:02 did not answer",
    ]
    assert second.attempts == 4  # the first connect, two refused, the one that came back
    pair.run(second.rolling(), second.rest(4))
    assert DieEvent(1, Rest.STABLE, 4, 1.0) in pair.said  # heard again once back


def test_a_die_not_back_after_a_round_is_said_once_and_tried_in_the_next_round(
    pair: Pair, caplog: pytest.LogCaptureFixture
) -> None:
    first, _second = pair.fakes
    first.drop(refusals=QUICK.attempts + 1)
    pair.link.quiet()
    rounds = [r.getMessage() for r in caplog.records if "not back" in r.getMessage()]
    assert rounds == ["godice: die 1 not back after 3 tries: trying again in 0 s"]
    assert pair.faults == ["die 1 (red) is gone", None]


def test_a_die_that_never_answers_is_a_fault_from_the_start_and_nothing_crashes() -> None:
    pair = Pair()
    pair.fakes[1].refusals = 100
    pair.link.start(pair.said.append)
    pair.link.ready()
    assert pair.faults == ["die 2 (?) is gone"]
    pair.link.close()
    pair.link.close()  # closing twice is harmless
    assert pair.link.closed
