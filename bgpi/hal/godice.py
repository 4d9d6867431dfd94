"""Two GoDice read through their own library (``godice``, over ``bleak``): the library
decodes each die's notifications, and each one is handed on as a :class:`DieEvent` (the
table judges the throw: :mod:`bgpi.table.thrown`).

:class:`GoDicePair` takes the two BLE clients (bleak's on a board; :class:`FakeBleClient`
in the simulator and the tests, which notifies a real die's bytes, so only the radio is
replaced). :mod:`bgpi.hal.godicelink` keeps the pair connected on an event loop of its own
and says when a die is gone or low, a fault the table falls back on entered dice for.
"""

from __future__ import annotations

import struct
from collections.abc import Awaitable, Callable
from typing import Any, Final

import godice
from godice.xyzinterpret import d6Vectors

from bgpi.hal.api import DieEvent
from bgpi.hal.errors import HalError
from bgpi.sensing.godice import Rest

LOW_BATTERY: Final = 15  # per cent: the die is named on the page, entered dice meanwhile
RX: Final = "6e400003-b5a3-f393-e0a9-e50e24dcca9e"  # the die's notifications (the library's)
# A rest's first bytes, as a die sends them (before the 3 bytes of its x, y, z).
PREFIX: Final = {
    Rest.STABLE: b"S",
    Rest.TILT_STABLE: b"TS",
    Rest.MOVE_STABLE: b"MS",
    Rest.FAKE_STABLE: b"FS",
}
Notify = Callable[[Any, bytearray], Awaitable[None]]


class FakeConnectError(HalError, TimeoutError):
    """The fake die did not answer a connect (as a die out of reach or switched off)."""


class FakeBleClient:
    """A BLE client with no radio: the die's side sends what a GoDice D6 notifies (its
    bytes), and the library's own code decodes them. ``refusals`` connects fail first (a
    die out of reach), as bleak's do."""

    def __init__(self, address: str, battery: int = 90, colour: int = 0) -> None:
        self.address = address
        self.battery = battery
        self.colour = colour
        self.is_connected = False
        self.refusals = 0
        self.attempts = 0
        self.written: list[bytes] = []
        self.disconnected: Callable[[FakeBleClient], None] | None = None
        self._notify: Notify | None = None

    # -- what the library calls ---------------------------------------------------------

    async def connect(self) -> bool:
        self.attempts += 1
        if self.refusals:
            self.refusals -= 1
            raise FakeConnectError(f"{self.address} did not answer")
        self.is_connected = True
        return True

    async def disconnect(self) -> bool:
        self.is_connected = False
        return True

    @property
    def services(self) -> FakeBleClient:
        return self

    def get_characteristic(self, uuid: str) -> str:
        return uuid

    async def start_notify(self, char: str, callback: Notify) -> None:
        self._notify = callback

    async def write_gatt_char(self, char: str, data: bytearray) -> None:
        self.written.append(bytes(data))
        if data[0] == 3:  # the battery level asked
            await self._send(b"Bat" + bytes([self.battery]))
        elif data[0] == 23:  # the colour asked
            await self._send(b"Col" + bytes([self.colour]))

    # -- the die's side -----------------------------------------------------------------

    async def rolling(self) -> None:
        await self._send(b"R")

    async def rest(self, value: int, rest: Rest = Rest.STABLE) -> None:
        """The die comes to rest showing ``value`` (a D6's face up), as ``rest``."""
        await self._send(PREFIX[rest] + struct.pack(">bbb", *d6Vectors[value]))

    def drop(self, refusals: int = 0) -> None:
        """The link is lost (Wi-Fi and Bluetooth share one chip on a Pi); the next
        ``refusals`` connects fail."""
        self.is_connected = False
        self.refusals = refusals
        if self.disconnected is not None:
            self.disconnected(self)

    async def _send(self, data: bytes) -> None:
        if self._notify is None or not self.is_connected:
            return
        await self._notify(RX, bytearray(data))


class GoDicePair:
    """Two dice, read through the library: each die's word to ``heard`` as a
    :class:`DieEvent`, stamped by ``clock``."""

    def __init__(
        self,
        clients: tuple[Any, Any],
        heard: Callable[[DieEvent], Awaitable[None]],
        clock: Callable[[], float],
    ) -> None:
        self.clients = clients
        self.dice = tuple(godice.Dice(client) for client in clients)
        for die in self.dice:
            godice.set_shell(die, godice.Shell.D6)
        self.heard = heard
        self.clock = clock

    async def connect(self, index: int) -> None:
        """Connect die ``index`` and hear it (again, after a loss)."""
        die = self.dice[index]
        await die.connect()
        await die.subscribe_number_notification(self._heard(index))

    async def battery(self, index: int) -> int:
        """Die ``index``'s battery, per cent, as the library asks it."""
        return int(await self.dice[index].get_battery_level())

    async def colour(self, index: int) -> str:
        """Die ``index``'s colour (its dots), as the library names it: ``red``."""
        return str((await self.dice[index].get_color()).name).lower()

    async def close(self) -> None:
        for die, client in zip(self.dice, self.clients, strict=True):
            if client.is_connected:
                await die.disconnect()

    def _heard(self, index: int) -> Callable[[int, Any], Awaitable[None]]:
        async def heard(number: int, stability: Any) -> None:
            if stability is None:
                return  # a notification the library does not know: ignored
            await self.heard(DieEvent(index, Rest[stability.name], number, self.clock()))

        return heard
