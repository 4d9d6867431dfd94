"""A simulated GoDice pair and the hands that throw it: ``bgpi sim --dice godice`` and
``bgpi demo --dice godice``.

The pair is two :class:`~bgpi.hal.godice.FakeBleClient` under the real link
(:class:`~bgpi.hal.godicelink.GoDiceLink`, its own event loop and all) and the ``godice``
library's own decoding: only the radio is replaced. The hands throw what the table's seeded
dice say (so a resumed match throws on as the board's dice would have rolled); now and then
(:data:`UNFIT`, from a seed of its own) a die lands cocked or is caught moving, and the
throw is made again, as the rule sheets say.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from typing import Any, Final

from bgpi.hal.api import DieEvent, FaultEvent
from bgpi.hal.godice import FakeBleClient
from bgpi.hal.godicelink import Backoff, GoDiceLink
from bgpi.hal.sim import ManualClock
from bgpi.sensing.godice import Rest
from bgpi.table import Rolling, Table

UNFIT: Final = 0.15  # the share of throws where a die lands cocked or is caught moving
COCKED: Final = 0.7  # of those, the share cocked (the rest: a hand moved it as it settled)
ADDRESSES: Final = ("C0:DE:00:00:00:01", "C0:DE:00:00:00:02")
COLOURS: Final = (1, 3)  # the library's colours: red, blue
THROW_TIME: Final = 1.2  # simulated seconds from a throw to the dice at rest
QUICK: Final = Backoff(first=0.01, most=0.05, attempts=4, pause=0.1)  # the fake answers at once


class SimGoDice:
    """Two fake dice, connected through the real link; their words and faults to ``emit``."""

    def __init__(self, clock: ManualClock, emit: Callable[[DieEvent | FaultEvent], None]) -> None:
        self.fakes = tuple(
            FakeBleClient(address, colour=colour)
            for address, colour in zip(ADDRESSES, COLOURS, strict=True)
        )
        self.link = GoDiceLink(self._client, clock, backoff=QUICK)
        self.link.start(emit)
        self.link.ready()  # the simulator's dice answer at once: connected before play

    def _client(self, index: int, lost: Callable[[Any], None]) -> FakeBleClient:
        fake = self.fakes[index]
        fake.disconnected = lost
        return fake

    def say(self, *words: Awaitable[None]) -> None:
        """The dice send ``words`` (their notifications) in turn, on the link's loop."""

        async def all_of() -> None:
            for word in words:
                await word

        self.link.run(all_of())

    def drop(self, die: int, refusals: int = 0) -> None:
        """Die ``die``'s link is lost; its next ``refusals`` connects fail."""
        self.link.run(_dropped(self.fakes[die], refusals))

    def quiet(self) -> None:
        """Wait until no die is being tried again."""
        self.link.quiet()

    def close(self) -> None:
        self.link.close()


async def _dropped(fake: FakeBleClient, refusals: int) -> None:
    fake.drop(refusals)


def throw(
    dice: SimGoDice,
    values: tuple[int, ...],
    player: int,
    rng: random.Random,
    unfit: Rest | None = None,
) -> None:
    """The hands throw the dice, which come to rest showing ``values`` (one value:
    ``player``'s opening die, die 1 White's and die 2 Black's), in an order of ``rng``'s;
    with ``unfit``, one of them comes to rest so (cocked, or moved) and the throw ends there."""
    thrown = (player,) if len(values) == 1 else (0, 1)
    fakes = [dice.fakes[index] for index in thrown]
    words: list[Awaitable[None]] = [fake.rolling() for fake in fakes]
    order = list(range(len(fakes)))
    rng.shuffle(order)  # the dice come to rest in either order
    bad = rng.choice(order) if unfit is not None else None
    for n in order:
        words.append(fakes[n].rest(values[n], unfit if n == bad and unfit else Rest.STABLE))
        if n == bad:
            break  # the throw does not count: the other die is thrown again with it
    dice.say(*words)


def throw_asked(
    dice: SimGoDice, table: Table, roll: Callable[[int], tuple[int, ...]], rng: random.Random
) -> bool:
    """If the table waits for a throw of GoDice, the hands throw them: the seeded dice
    (``roll`` gives them for a count) for a throw that counts, any faces for one that lands
    unfit (now and then, from ``rng``), so a resumed match throws on as the board's dice
    would have rolled. Whether they threw."""
    at = table.at
    if not isinstance(at, Rolling) or not at.thrown:
        return False
    unfit = None
    if rng.random() < UNFIT:
        unfit = Rest.TILT_STABLE if rng.random() < COCKED else Rest.MOVE_STABLE
        values = tuple(rng.randint(1, 6) for _die in range(at.count))
    else:
        values = roll(at.count)
    throw(dice, values, at.player, rng, unfit)
    return True
