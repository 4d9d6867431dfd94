"""Two GoDice read through their own library (``godice``, over ``bleak``): the library
decodes each die's notifications; :class:`~bgpi.sensing.godice.PairReading` judges them.

:class:`GoDicePair` takes the two BLE clients (bleak's on a board; :class:`FakeBleClient`
in the simulator and the tests, which notifies a real die's bytes, so only the radio is
replaced). A die that disconnects or runs low is a fault the table falls back on entered
dice for (:data:`bgpi.table.core.GODICE_FAULT`), until it is back.
"""

from __future__ import annotations

import struct
from collections.abc import Awaitable, Callable
from typing import Any, Final

import godice
from godice.xyzinterpret import d6Vectors

from bgpi.sensing.godice import Outcome, PairReading, Rest

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


class FakeBleClient:
    """A BLE client with no radio: the die's side sends what a GoDice D6 notifies (its
    bytes), and the library's own code decodes them."""

    def __init__(self, address: str, battery: int = 90, colour: int = 0) -> None:
        self.address = address
        self.battery = battery
        self.colour = colour
        self.is_connected = False
        self.written: list[bytes] = []
        self.disconnected: Callable[[FakeBleClient], None] | None = None
        self._notify: Notify | None = None

    # -- what the library calls ---------------------------------------------------------

    async def connect(self) -> bool:
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

    def drop(self) -> None:
        """The link is lost (Wi-Fi and Bluetooth share one chip on a Pi)."""
        self.is_connected = False
        if self.disconnected is not None:
            self.disconnected(self)

    async def _send(self, data: bytes) -> None:
        if self._notify is None or not self.is_connected:
            return
        await self._notify(RX, bytearray(data))


class GoDicePair:
    """Two dice, read through the library: each throw they complete, in ``outcomes``."""

    def __init__(self, clients: tuple[Any, Any], count: int = 2) -> None:
        self.dice = tuple(godice.Dice(client) for client in clients)
        for die in self.dice:
            godice.set_shell(die, godice.Shell.D6)
        self.reading = PairReading(count)
        self.outcomes: list[Outcome] = []

    async def connect(self) -> None:
        for index, die in enumerate(self.dice):
            await die.connect()
            await die.subscribe_number_notification(self._heard(index))

    async def batteries(self) -> tuple[int, int]:
        return (await self.dice[0].get_battery_level(), await self.dice[1].get_battery_level())

    def expect(self, count: int) -> None:
        """The next throw is of ``count`` dice (one in the opening roll)."""
        self.reading = PairReading(count)

    def _heard(self, index: int) -> Callable[[int, Any], Awaitable[None]]:
        async def heard(number: int, stability: Any) -> None:
            if stability is None:
                return  # a notification the library does not know: ignored
            self.reading, outcome = self.reading.feed(index, Rest[stability.name], number)
            if outcome is not None:
                self.outcomes.append(outcome)

        return heard
