"""Two GoDice through the ``godice`` library's own code, over a fake BLE client that sends a
real die's notification bytes: a roll counts only when both dice rest flat after a roll
motion; a cocked or moved die means roll again; a pick-up is not a roll; the battery as the
library asks it; a die lost and back."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable
from typing import TypeVar

from bgpi.hal.godice import FakeBleClient, GoDicePair
from bgpi.sensing.godice import Again, Rest, Thrown

T = TypeVar("T")


def wait(step: Awaitable[T]) -> T:
    """``step`` run to its end on an event loop of its own thread (a test process may have a
    loop running in its main thread already: the browser tests' driver)."""
    result: list[T] = []

    async def main() -> None:
        result.append(await step)

    worker = threading.Thread(target=lambda: asyncio.run(main()))
    worker.start()
    worker.join(10)
    return result[0]


def pair(count: int = 2) -> tuple[GoDicePair, FakeBleClient, FakeBleClient]:
    first, second = FakeBleClient("C0:00:00:00:00:01"), FakeBleClient("C0:00:00:00:00:02", 12)
    dice = GoDicePair((first, second), count)
    wait(dice.connect())
    return dice, first, second


def run(*steps: Awaitable[None]) -> None:
    async def all_of() -> None:
        for step in steps:
            await step

    wait(all_of())


def test_a_roll_counts_once_both_dice_rest_flat_after_a_roll_motion() -> None:
    dice, first, second = pair()
    run(first.rolling(), second.rolling(), first.rest(6))
    assert dice.outcomes == []  # one die still rolling
    run(second.rest(5))
    assert dice.outcomes == [Thrown((6, 5))]


def test_every_face_is_read_as_the_library_decodes_it() -> None:
    dice, first, second = pair()
    for a in range(1, 7):
        for b in range(1, 7):
            run(first.rolling(), second.rolling(), second.rest(b), first.rest(a))
    assert [o.dice for o in dice.outcomes if isinstance(o, Thrown)] == [
        (a, b) for a in range(1, 7) for b in range(1, 7)
    ]


def test_a_cocked_or_moved_die_means_roll_again_and_the_other_die_with_it() -> None:
    dice, first, second = pair()
    run(first.rolling(), second.rolling(), first.rest(4), second.rest(3, Rest.TILT_STABLE))
    assert dice.outcomes == [Again(1, Rest.TILT_STABLE, 3)]
    run(second.rest(2))  # no roll motion since: not a roll
    run(first.rolling(), second.rolling(), first.rest(1, Rest.MOVE_STABLE))
    assert dice.outcomes[-1] == Again(0, Rest.MOVE_STABLE, 1)
    run(first.rolling(), second.rolling(), first.rest(2), second.rest(2))
    assert dice.outcomes[-1] == Thrown((2, 2))


def test_a_die_picked_up_and_put_down_is_not_a_roll() -> None:
    dice, first, second = pair()
    run(first.rest(6), second.rest(6), first.rest(3, Rest.FAKE_STABLE))
    assert dice.outcomes == []


def test_the_opening_die_is_one_die_at_rest() -> None:
    dice, first, _second = pair(count=1)
    run(first.rolling(), first.rest(5))
    assert dice.outcomes == [Thrown((5,))]


def test_the_battery_is_asked_with_the_librarys_command_and_a_lost_die_says_so() -> None:
    dice, first, second = pair()
    assert wait(dice.batteries()) == (90, 12)
    assert first.written == [b"\x03"]
    lost: list[str] = []
    second.disconnected = lambda client: lost.append(client.address)
    second.drop()
    assert lost == ["C0:00:00:00:00:02"]
    run(first.rolling(), second.rolling(), first.rest(3), second.rest(4))
    assert dice.outcomes == []  # the lost die says nothing
    wait(dice.dice[1].connect())  # back
    run(second.rolling(), second.rest(4))
    assert dice.outcomes == [Thrown((3, 4))]
