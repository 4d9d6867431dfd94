"""``bgpi dice pair``: the two GoDice paired to the board once. The radio is scanned for GoDice
(bleak's ``BleakScanner`` on a board; a fake radio in the tests), each one found is asked its
colour and battery through the ``godice`` library, die 1 and die 2 are chosen by colour or
address, and the config's ``[dice] first`` and ``second`` are written, the rest of the file as
it was (a backup beside it), the new file checked to read back before the old one is touched.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, Protocol

from bgpi.base.errors import BgpiError
from bgpi.base.i18n import _
from bgpi.service.config import parse

NAME_PREFIX: Final = "GoDice"  # how every GoDice names itself when it advertises
COLOURS: Final = ("black", "red", "green", "blue", "yellow", "orange")  # the library's order
ASK: Final = 10.0  # seconds a die found has to connect and answer


class PairingError(BgpiError, RuntimeError):
    """The dice cannot be paired: none found, too few, an unclear choice, no radio."""


class NoAdapterError(PairingError):
    """No Bluetooth adapter answers (none in the machine, or BlueZ not running)."""


@dataclass(frozen=True, slots=True)
class Found:
    """A GoDice the scan found: its address, advertised name, colour (the library's name of
    its dots, lower case) and battery (per cent)."""

    address: str
    name: str
    colour: str
    battery: int

    def words(self) -> str:
        return _("{address} {colour} ({name}, battery {battery}%)").format(
            address=self.address, colour=self.colour, name=self.name, battery=self.battery
        )


class Radio(Protocol):
    """What pairing needs of the radio: the devices advertising, and a client to one."""

    async def discover(self, seconds: float) -> list[tuple[str, str]]:
        """``(address, name)`` of each device heard in ``seconds``; a
        :class:`NoAdapterError` if no adapter answers."""
        ...

    def client(self, address: str) -> Any:
        """A BLE client for the device at ``address`` (the ``godice`` library's to use)."""
        ...


class BleakRadio:
    """The board's radio through bleak (BlueZ over D-Bus on the Pi)."""

    async def discover(self, seconds: float) -> list[tuple[str, str]]:
        from bleak import BleakScanner  # noqa: PLC0415 (the pi extra)
        from bleak.exc import BleakError  # noqa: PLC0415

        try:
            devices = await BleakScanner.discover(timeout=seconds)
        except (OSError, BleakError) as exc:
            # No D-Bus socket, BlueZ not running, or no adapter: each says it its own way.
            why = _(
                "no Bluetooth adapter answers ({error}): this machine has none, or BlueZ is not"
                " running (sudo systemctl start bluetooth)"
            )
            raise NoAdapterError(why.format(error=str(exc) or type(exc).__name__)) from None
        return [(device.address, device.name or "") for device in devices]

    def client(self, address: str) -> Any:
        from bleak import BleakClient  # noqa: PLC0415

        return BleakClient(address, timeout=ASK)


async def find(radio: Radio, seconds: float) -> list[Found]:
    """The GoDice heard in ``seconds``, each asked its colour and battery, by address."""
    import godice  # noqa: PLC0415 (the pi extra)

    heard = await radio.discover(seconds)
    found = []
    for address, name in sorted(heard):
        if not name.startswith(NAME_PREFIX):
            continue
        die = godice.Dice(radio.client(address))
        godice.set_shell(die, godice.Shell.D6)
        try:
            await asyncio.wait_for(die.connect(), ASK)
            colour = await asyncio.wait_for(die.get_color(), ASK)
            battery = await asyncio.wait_for(die.get_battery_level(), ASK)
        finally:
            await die.disconnect()
        found.append(Found(address, name, str(colour.name).lower(), int(battery)))
    return found


def chosen(found: Sequence[Found], first: str | None, second: str | None) -> tuple[Found, Found]:
    """Die 1 and die 2 among ``found``: each named by its address or its colour; with two
    found and neither named, in the library's order of colours."""
    if len(found) < 2:
        why = _("found {count} GoDice, not two: switch both on (shake each one) and pair again")
        raise PairingError(why.format(count=len(found)))
    if first is None and second is None and len(found) == 2:
        one, other = sorted(found, key=lambda die: (_order(die.colour), die.address))
        return one, other
    if first is None or second is None:
        listed = "; ".join(die.words() for die in found)
        why = _("found {count} GoDice ({listed}): say which two with --first and --second")
        raise PairingError(why.format(count=len(found), listed=listed))
    one, other = _named(found, first), _named(found, second)
    if one == other:
        raise PairingError(_("--first and --second name the same die: {die}").format(die=first))
    return one, other


def _order(colour: str) -> int:
    return COLOURS.index(colour) if colour in COLOURS else len(COLOURS)


def _named(found: Sequence[Found], name: str) -> Found:
    matches = [
        die for die in found if name.lower() in (die.address.lower(), die.colour, die.name.lower())
    ]
    if len(matches) != 1:
        listed = "; ".join(die.words() for die in found)
        why = _("{name} names {count} of the GoDice found ({listed}): give an address")
        raise PairingError(why.format(name=name, count=len(matches), listed=listed))
    return matches[0]


def with_dice(text: str, first: str, second: str) -> str:
    """The config ``text`` with ``[dice] first`` and ``second`` set to the addresses given;
    everything else as written (a ``[dice]`` table added if there is none)."""
    lines = text.splitlines()
    wanted = {"first": f'first = "{first}"', "second": f'second = "{second}"'}
    start = next((n for n, line in enumerate(lines) if line.strip() == "[dice]"), None)
    if start is None:
        while lines and not lines[-1].strip():
            lines.pop()
        block = ["", "[dice]", wanted["first"], wanted["second"]]
        return "\n".join([*lines, *block]) + "\n"
    end = next(
        (n for n in range(start + 1, len(lines)) if lines[n].lstrip().startswith("[")), len(lines)
    )
    body = [line for line in lines[start + 1 : end] if _key(line) not in wanted]
    return "\n".join([*lines[: start + 1], *wanted.values(), *body, *lines[end:]]) + "\n"


def _key(line: str) -> str:
    return line.split("=", 1)[0].strip() if "=" in line else ""


def write_pair(config: Path, first: str, second: str, now: datetime | None = None) -> Path:
    """Rewrite ``config`` with the pair's addresses, keeping the old file as a backup beside
    it; the backup's path. The new text must read back to the addresses first."""
    now = now or datetime.now(UTC)
    old = config.read_text(encoding="utf-8") if config.exists() else ""
    new = with_dice(old, first, second)
    if parse(tomllib.loads(new), str(config)).dice.paired != (first, second):
        raise PairingError(f"{config}: the rewritten file would not pair these dice")
    backup = config.with_name(f"{config.name}.before-dice-pair-{now:%Y%m%d-%H%M%S}")
    if config.exists():
        shutil.copy2(config, backup)
    temporary = config.with_name(config.name + ".tmp")
    temporary.write_text(new, encoding="utf-8")
    os.replace(temporary, config)
    return backup


def pair(
    radio: Radio,
    config: Path,
    *,
    first: str | None = None,
    second: str | None = None,
    seconds: float = 10.0,
    say: Callable[[str], None] = print,
) -> tuple[Found, Found]:
    """Scan, list, choose and write: the pair written to ``config``."""
    listening = _("listening for GoDice for {seconds:.0f} s: shake each die to wake it")
    say(listening.format(seconds=seconds))
    found = asyncio.run(find(radio, seconds))
    for die in found:
        say("  " + die.words())
    one, other = chosen(found, first, second)
    write_pair(config, one.address, other.address)
    written = _(
        "die 1 is {first}, die 2 is {second}: written to {config}. Choose GoDice at the board"
        ' between matches, or set [dice] source = "godice".'
    )
    first_words, second_words = f"{one.colour} {one.address}", f"{other.colour} {other.address}"
    say(written.format(first=first_words, second=second_words, config=config))
    return one, other
