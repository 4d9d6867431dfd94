"""``bgpi diagnose``: the self-test a builder runs at the board, on the real hardware or the
simulator.

Four steps, each printing what it sees as it sees it:

1. **sensors**: the backend, how many switches, how fast the chain can be read, read errors,
   and switches that flicker while nothing moves (a loose wire, a floating input);
2. **LEDs**: every pixel lights in turn, in strip order, with the name of what it should light
   ("pixel 6: point 2, tip (6 of 6)"), then the whole strip red, green and blue;
3. **switches**: every reed switch that closes or opens is printed live ("point 7 slot 2
   closed") and lit on its LED, so a miswired slot shows up as the wrong name the moment a
   checker lands on it; at the end, the switches never seen closed;
4. **buttons**: each button is asked for in turn, and every press seen is printed.

The hardware arrives as backends and time as a clock and a sleep function, so a test drives a
:class:`~bgpi.hal.sim.SimBoard` on a manual clock and reads the lines printed.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Iterable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Final

from bgpi.base.words import (
    BUTTONS,
    COLOUR_NAMES,
    PLAYERS,
    POINTS,
    RGB,
    ZONES,
    ButtonName,
    Player,
    Zone,
    zone_name,
)
from bgpi.hal.api import ButtonEvent, Clock, Event, SensorEvent
from bgpi.hal.errors import one_line
from bgpi.lights.ledmap import target_name
from bgpi.lights.render import limit_power
from bgpi.service.app import Hardware, open_hardware
from bgpi.service.config import Config

STEPS: Final = ("sensors", "leds", "switches", "buttons")
SCAN_READS: Final = 200
POLL: Final = 0.02  # how often a waiting step looks for events: quick enough to seem live
DARK: Final[RGB] = (0, 0, 0)
WALK: Final[RGB] = (96, 96, 96)
CLOSED: Final[RGB] = (0, 96, 0)
ASK: Final[RGB] = (0, 0, 128)
PRIMARIES: Final = (("red", (64, 0, 0)), ("green", (0, 64, 0)), ("blue", (0, 0, 64)))
PLAYER_NAMES: Final = ("White", "Black")
# Counters of a backend's stats() that count work done, not faults.
HEALTHY_COUNTERS: Final = frozenset({"packets", "frames", "connects"})

Out = Callable[[str], None]
Sleep = Callable[[float], None]


def button_name(player: Player, button: ButtonName) -> str:
    """``"White ROLL"``: as the button is labelled on the board."""
    return f"{PLAYER_NAMES[player]} {button.upper()}"


@dataclass
class Findings:
    """What went wrong, step by step; nothing means the board passed."""

    problems: list[str] = field(default_factory=list)
    closed_seen: set[int] = field(default_factory=set)

    def fail(self, problem: str) -> None:
        self.problems.append(problem)


class Diagnose:
    """The self-test on ``hardware`` as ``config`` describes it (geometry, LED map, style).

    ``out`` prints a line; ``clock`` gives monotonic seconds and ``sleep`` waits, so a test
    can run the steps on a manual clock (its ``sleep`` moving the clock and the checkers).
    """

    def __init__(
        self,
        hardware: Hardware,
        config: Config,
        *,
        out: Out = print,
        clock: Clock = time.monotonic,
        sleep: Sleep = time.sleep,
    ) -> None:
        self.hardware = hardware
        self.geometry = config.geometry
        self.ledmap = config.ledmap
        self.style = config.style
        self.out = out
        self.clock = clock
        self.sleep = sleep
        self.findings = Findings()
        self._events: queue.Queue[Event] = queue.Queue()
        self._sensing = False
        self._listening = False
        self._frame = [DARK] * self.ledmap.length

    # -- the whole test --------------------------------------------------------------------

    def run(self, steps: Iterable[str] = STEPS, *, seconds: float = 60.0, step: float = 0.2) -> int:
        """Run ``steps`` (of :data:`STEPS`, in that order); 0 when nothing failed, else 1.
        ``seconds``: how long the switches are watched and each button awaited; ``step``:
        how long each pixel stays lit."""
        chosen = set(steps)
        unknown = chosen - set(STEPS)
        if unknown:
            raise ValueError(f"unknown steps {sorted(unknown)}: the steps are {', '.join(STEPS)}")
        if "sensors" in chosen:
            self.sensors()
        if "leds" in chosen:
            self.leds(step)
        if "switches" in chosen:
            self.switches(seconds)
        if "buttons" in chosen:
            self.buttons(seconds)
        self._show_all(DARK)
        self.out("")
        if self.findings.problems:
            self.out(f"{len(self.findings.problems)} problem(s):")
            for problem in self.findings.problems:
                self.out(f"  - {problem}")
            return 1
        self.out("no problems found")
        return 0

    # -- 1. sensors ------------------------------------------------------------------------

    def sensors(self, reads: int = SCAN_READS) -> None:
        """Read the chain ``reads`` times with nothing moving: rate, errors, flicker."""
        sensors = self.hardware.sensors
        chips = (sensors.nbits + 7) // 8
        self.out(f"sensors: {type(sensors).__name__}, {sensors.nbits} inputs ({chips} chips of 8)")
        self.out("  keep your hands off the board for a moment")
        scan_hz = _scan_hz(sensors)
        if scan_hz:
            self.out(f"  the backend scans the chain {scan_hz:g} times a second")
        else:
            self.out("  the backend does not say how often it scans")
        frames: list[int] = []
        errors: list[str] = []
        start = self.clock()
        for _ in range(reads):
            try:
                frames.append(sensors.read().bits)
            except Exception as exc:  # the report is the point: count it and go on
                errors.append(one_line(exc))
        elapsed = self.clock() - start
        if elapsed > 0:
            self.out(f"  {reads} reads in {elapsed:.3f} s: up to {reads / elapsed:.0f} a second")
        else:
            self.out(f"  {reads} reads in no measurable time")
        if scan_hz and elapsed > 0 and reads / elapsed < scan_hz:
            self.findings.fail(
                f"the chain reads only {reads / elapsed:.0f} times a second, "
                f"slower than the {scan_hz:g} the backend wants"
            )
        if errors:
            self.out(f"  read errors: {len(errors)} of {reads}, the first: {errors[0]}")
            self.findings.fail(f"{len(errors)} of {reads} sensor reads failed: {errors[0]}")
        else:
            self.out("  read errors: none")
        if frames:
            self._report_flicker(frames)
            self.out(f"  closed now: {self._names(_bits(frames[-1])) or 'none'}")
        self._report_counters()

    def _report_counters(self) -> None:
        """The backend's own counters, where it keeps them (the serial link does): any count
        of a fault is a problem."""
        stats = getattr(self.hardware.sensors, "stats", None)
        if not callable(stats):
            return
        counts = dict(stats())
        shown = ", ".join(f"{name} {count}" for name, count in sorted(counts.items()))
        self.out(f"  backend counters: {shown or 'none yet'}")
        for name, count in sorted(counts.items()):
            if count and name not in HEALTHY_COUNTERS:
                self.findings.fail(f"the sensor backend counted {count} x {name}")

    def _report_flicker(self, frames: Sequence[int]) -> None:
        changes: dict[int, int] = {}
        for before, after in pairwise(frames):
            for bit in _bits(before ^ after):
                changes[bit] = changes.get(bit, 0) + 1
        if not changes:
            self.out("  steady: no switch changed while nothing moved")
            return
        for bit, count in sorted(changes.items()):
            what = self._name(bit)
            self.out(f"  unsteady: {what} changed {count} times while nothing moved")
            self.findings.fail(
                f"{what} flickers (a loose wire, a cracked reed, or an input with no pull-up)"
            )

    # -- 2. LEDs ---------------------------------------------------------------------------

    def leds(self, step: float) -> None:
        """Light each pixel in strip order for ``step`` seconds, naming it; then the whole
        strip in each primary colour."""
        length = self.ledmap.length
        self.out(f"LEDs: {length} pixels, one at a time in strip order; each should light")
        self.out("  what its line names (Ctrl-C skips the rest)")
        missing = [name for name, pixels in self.ledmap.areas if not pixels]
        if missing:
            # Not a fault: what has no pixels is not shown (a board laid before the clocks).
            self.out(
                f"  no pixels for {', '.join(missing)}: not shown on this board "
                "(hardware/leds.md says how to add them)"
            )
        try:
            for pixel in range(length):
                self._frame = [DARK] * length
                self._frame[pixel] = WALK
                self._show()
                self.out(f"  pixel {pixel}: {self.pixel_name(pixel)}")
                self.sleep(step)
            for name, colour in PRIMARIES:
                self._show_all(colour)
                self.out(f"  every pixel {name}: another colour means a wrong leds.pixel_order")
                self.sleep(step * 5)
        except KeyboardInterrupt:
            self.out("  (skipped)")
        self._show_all(DARK)

    def pixel_name(self, pixel: int) -> str:
        """What ``pixel`` lights: ``"point 1, base (1 of 6)"``, ``"button.white.roll"``."""
        owner = self.ledmap.owner(pixel)
        if owner is None:
            return "unused"
        pixels = self.ledmap.pixels(owner)
        index, count = pixels.index(pixel), len(pixels)
        name = target_name(owner)
        if count == 1:
            return name
        ends = ("base", "tip") if isinstance(owner, int) else ("first", "last")
        where = f"{index + 1} of {count}"
        if index == 0:
            where = f"{ends[0]} ({where})"
        elif index == count - 1:
            where = f"{ends[1]} ({where})"
        return f"{name}, {where}"

    # -- 3. switches -----------------------------------------------------------------------

    def switches(self, seconds: float) -> None:
        """Print every switch that changes for ``seconds`` (or until Ctrl-C), lighting the
        LED of each closed one; then the switches never seen closed."""
        self.out("switches: put checkers on the points and bars, slot by slot; every change")
        self.out(f"  is printed and lit (for {seconds:g} s; Ctrl-C stops)")
        self._frame = [DARK] * self.ledmap.length
        self._show()
        last = self._start_sensors()
        self.out(f"  closed now: {self._names(_bits(last)) or 'none'}")
        self.findings.closed_seen.update(_bits(last))
        self._light_closed(last)
        end = self.clock() + seconds
        try:
            while self.clock() < end:
                event = self._next_event()
                if event is None:
                    self.sleep(min(POLL, max(0.0, end - self.clock())))
                elif isinstance(event, SensorEvent):
                    last = self._switch_changes(last, event.frame.bits)
        except KeyboardInterrupt:
            self.out("  (stopped)")
        self._report_coverage()
        self._report_counters()

    def _start_sensors(self) -> int:
        """Start the sensors; the frame they start with."""
        if self._sensing:
            return self.hardware.sensors.read().bits
        self.hardware.sensors.start(self._events.put)
        self._sensing = True
        # A backend emits the current frame first, from start() itself.
        first = self._next_event()
        if isinstance(first, SensorEvent):
            return first.frame.bits
        if first is not None:
            self._events.put(first)
        return self.hardware.sensors.read().bits

    def _switch_changes(self, before: int, after: int) -> int:
        for bit in _bits(before ^ after):
            closed = bool(after >> bit & 1)
            self.out(f"  {self._name(bit)} {'closed' if closed else 'open'}")
            entry = self.geometry.zone_slot(bit)
            if entry is None and closed:
                self.findings.fail(f"input {bit}, wired to no switch, closed")
            if closed:
                self.findings.closed_seen.add(bit)
        self._light_closed(after)
        return after

    def _light_closed(self, bits: int) -> None:
        self._frame = [DARK] * self.ledmap.length
        for bit in _bits(bits):
            entry = self.geometry.zone_slot(bit)
            if entry is None:
                continue
            pixels = self.ledmap.pixels(entry[0])
            if entry[1] < len(pixels):
                self._frame[pixels[entry[1]]] = CLOSED
        self._show()

    def _report_coverage(self) -> None:
        entries = self.geometry.entries()
        seen = [bit for bit, _, _ in entries if bit in self.findings.closed_seen]
        self.out(f"  seen closed: {len(seen)} of {len(entries)} switches")
        missing: dict[Zone, list[int]] = {}
        for bit, zone, slot in entries:
            if bit not in self.findings.closed_seen:
                missing.setdefault(zone, []).append(slot)
        if not missing:
            self.out("  every switch closed at least once")
            return
        # A switch never seen closed is a fault until a checker has closed it: unwired,
        # soldered to the wrong input, or broken. "No problems" would be untrue then.
        never = len(entries) - len(seen)
        self.findings.fail(
            f"{never} of {len(entries)} switches never closed (listed above): put a checker "
            "on each slot once; one that never closes is unwired, on the wrong input or broken"
        )
        self.out("  never closed:")
        whole = [
            zone
            for zone in ZONES
            if zone in missing and len(missing[zone]) == self.geometry.slots(zone)
        ]
        if whole:
            self.out(f"    every slot of {_zones(whole)}")
        for zone in ZONES:
            if zone in missing and zone not in whole:
                self.out(f"    {zone_name(zone)} slot {_ranges(sorted(missing[zone]))}")

    # -- 4. buttons ------------------------------------------------------------------------

    def buttons(self, seconds: float) -> None:
        """Ask for each button in turn, waiting up to ``seconds`` for it; print every press
        and release seen."""
        self.out(f"buttons: press each one when asked (up to {seconds:g} s each; Ctrl-C stops)")
        if not self._listening:
            self.hardware.buttons.start(self._events.put)
            self._listening = True
        try:
            for player in PLAYERS:
                for button in BUTTONS:
                    if not self._await_button(player, button, seconds):
                        name = button_name(player, button)
                        self.out(f"  {name}: no press within {seconds:g} s")
                        self.findings.fail(f"{name} was not seen")
        except KeyboardInterrupt:
            self.out("  (stopped)")
            self.findings.fail("the button test was stopped before every button was seen")

    def _await_button(self, player: Player, button: ButtonName, seconds: float) -> bool:
        wanted = button_name(player, button)
        area = f"button.{COLOUR_NAMES[player]}.{button}"
        self._frame = [DARK] * self.ledmap.length
        for pixel in self.ledmap.pixels(area):
            self._frame[pixel] = ASK
        self._show()
        self.out(f"  press {wanted}")
        end = self.clock() + seconds
        while self.clock() < end:
            event = self._next_event()
            if event is None:
                self.sleep(min(POLL, max(0.0, end - self.clock())))
            elif isinstance(event, ButtonEvent):
                name = button_name(event.player, event.button)
                if not event.pressed:
                    self.out(f"  {name} released")
                elif name == wanted:
                    self.out(f"  {name} pressed")
                    return True
                else:
                    self.out(f"  {name} pressed (asked for {wanted}: are they swapped?)")
                    self.findings.fail(f"{name} pressed when {wanted} was asked for")
        return False

    # -- inside ----------------------------------------------------------------------------

    def _next_event(self) -> Event | None:
        try:
            return self._events.get_nowait()
        except queue.Empty:
            return None

    def _name(self, bit: int) -> str:
        entry = self.geometry.zone_slot(bit)
        if entry is None:
            return f"input {bit} (wired to no switch)"
        return f"{zone_name(entry[0])} slot {entry[1]}"

    def _names(self, bits: Iterable[int]) -> str:
        return ", ".join(self._name(bit) for bit in bits)

    def _show(self) -> None:
        self.hardware.pixels.show(limit_power(self._frame, self.style))

    def _show_all(self, colour: RGB) -> None:
        self._frame = [colour] * self.ledmap.length
        self._show()


def _scan_hz(sensors: object) -> float | None:
    """How often the backend scans the chain, where it says: the scanner's own report (the
    serial link's hello), else the backend's settings (the gpio chain's)."""
    for owner in (getattr(sensors, "hello", None), getattr(sensors, "settings", None), sensors):
        value = getattr(owner, "scan_hz", None)
        if isinstance(value, int | float) and value > 0:
            return float(value)
    return None


def _bits(value: int) -> list[int]:
    """The set bits of ``value``, lowest first."""
    found = []
    while value:
        low = value & -value
        found.append(low.bit_length() - 1)
        value ^= low
    return found


def _zones(zones: Sequence[Zone]) -> str:
    """``[1, 2, 3, 7, 25]`` -> ``"points 1-3, 7, white bar"``."""
    points = [zone for zone in zones if zone <= POINTS]
    names = [zone_name(zone) for zone in zones if zone > POINTS]
    if points:
        names.insert(0, ("points " if len(points) > 1 else "point ") + _ranges(points))
    return ", ".join(names)


def _ranges(numbers: Sequence[int]) -> str:
    """``[0, 1, 2, 4]`` -> ``"0-2, 4"``."""
    parts: list[str] = []
    start = prev = numbers[0]
    for number in [*numbers[1:], None]:
        if number is not None and number == prev + 1:
            prev = number
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if number is not None:
            start = prev = number
    return ", ".join(parts)


def diagnose(config: Config, only: str | None = None, *, seconds: float, step: float) -> int:
    """``bgpi diagnose``: every step (the sensor report first), or the one named by ``only``,
    on the hardware that ``config`` names; 0 when nothing failed."""
    steps = STEPS if only is None else ("sensors", only) if only == "switches" else (only,)
    if "sim" in (config.sensors.backend, config.buttons.backend, config.leds.backend):
        # The easy mistake on the Pi: no --config, so the defaults, so the simulator.
        print(f"note: {config.source} puts (part of) the board on the simulator; on a Pi set")
        print("  up by scripts/install.sh: bgpi diagnose --config /etc/bgpi/config.toml")
    with ExitStack() as stack:
        hardware = open_hardware(config, stack)
        return Diagnose(hardware, config).run(steps, seconds=seconds, step=step)
