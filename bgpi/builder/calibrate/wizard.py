"""The wizard's shell: it lights each spot, tells the builder what to do, waits for the
chain to answer, and writes the learned map.

The board (:class:`Board`) and the builder (:class:`Builder`) are interfaces: on a real board
the chain is polled on the wall clock and a person answers at the terminal; on the simulator
(:class:`SimBuilder`) a scrambled board stands in for the builder's, and the wizard plays the
builder's part itself, repairing each fault it was told about as a builder would.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Protocol

from bgpi.base.geometry import Entry, Geometry
from bgpi.base.wiringmap import map_toml, unused_toml
from bgpi.base.words import RGB, WHITE, ZONES, zone_name
from bgpi.builder.calibrate.files import Partial, partial_path, write_map
from bgpi.builder.calibrate.learn import (
    Finding,
    Kind,
    bits_of,
    check_filled,
    classify,
    geometry_of,
    input_name,
    missing,
    spot_name,
    spots,
    stuck,
)
from bgpi.hal.api import Pixels, Sensors
from bgpi.hal.sim import SimBoard, WiringFaults
from bgpi.lights.ledmap import LedMap

SETTLE = 0.15  # seconds the chain must hold still after a change: a set checker's bounce
POLL = 0.01
SPOT: RGB = (255, 255, 255)
PROBLEM: RGB = (255, 0, 0)
DARK: RGB = (0, 0, 0)

Say = Callable[[str], None]


class Choice(Enum):
    """What the builder does about a problem."""

    RETRY = "retry"
    SKIP = "skip"
    QUIT = "quit"


class Board(Protocol):
    """The chain, read as an int of :attr:`nbits` bits."""

    @property
    def nbits(self) -> int: ...

    def read(self) -> int:
        """The chain now."""
        ...

    def wait_for(self, done: Callable[[int], bool], timeout: float) -> int:
        """The settled chain once ``done`` holds of it, or the chain after ``timeout``."""
        ...


class Builder(Protocol):
    """The hands at the board."""

    def place(self, spot: Entry) -> None: ...

    def lift(self, spot: Entry) -> None: ...

    def fill(self, zone: int, count: int) -> None: ...

    def empty(self, zone: int) -> None: ...

    def decide(self, finding: Finding) -> Choice: ...


@dataclass
class ChainBoard:
    """A real chain (gpio or serial sensors), polled on the wall clock."""

    sensors: Sensors
    settle: float = SETTLE

    @property
    def nbits(self) -> int:
        return self.sensors.nbits

    def read(self) -> int:
        return self.sensors.read().bits

    def wait_for(self, done: Callable[[int], bool], timeout: float) -> int:
        deadline = time.monotonic() + timeout
        bits = self.read()
        while not done(bits) and time.monotonic() < deadline:
            time.sleep(POLL)
            bits = self.read()
        if not done(bits):
            return bits
        # Held still for SETTLE: a second input of crossed wires shows by then too.
        stable_since, last = time.monotonic(), bits
        while time.monotonic() - stable_since < self.settle:
            time.sleep(POLL)
            bits = self.read()
            if bits != last:
                stable_since, last = time.monotonic(), bits
        return last


@dataclass
class SimChain:
    """A simulated board's chain: every change has played out when it is read."""

    board: SimBoard

    @property
    def nbits(self) -> int:
        return self.board.nbits

    def read(self) -> int:
        return self.board.settle().bits

    def wait_for(self, done: Callable[[int], bool], timeout: float) -> int:
        return self.read()


@dataclass
class SimBuilder:
    """The builder's part on the simulator: places and lifts checkers on ``board``, and
    mends a fault once the wizard names it (knowing the board's true ``wiring``)."""

    board: SimBoard
    wiring: Geometry
    say: Say

    def place(self, spot: Entry) -> None:
        self.board.put_on(spot[0], spot[1], WHITE)

    def lift(self, spot: Entry) -> None:
        self.board.lift(spot[0])

    def fill(self, zone: int, count: int) -> None:
        for _ in range(count):
            self.board.place(zone, WHITE)

    def empty(self, zone: int) -> None:
        while self.board.checkers(zone):
            self.board.lift(zone)

    def decide(self, finding: Finding) -> Choice:
        faults = self.board.faults
        bits = set(finding.bits)
        if finding.spot is not None:
            bits.add(self.wiring.bit_of(*finding.spot))
        mended = WiringFaults(
            faults.dead - bits,
            faults.stuck - bits,
            tuple(pair for pair in faults.crossed if not bits & set(pair)),
        )
        if mended == faults:
            self.say("  (the simulated builder finds nothing to mend and stops)")
            return Choice.QUIT
        self.board.faults = mended
        self.say("  (the simulated builder mends it and tries again)")
        return Choice.RETRY


@dataclass
class Terminal:
    """A person at the board, answering at the terminal: the wizard's prompts say where to
    put each checker; a problem asks whether to retry (after fixing it), skip or quit."""

    say: Say
    ask: Callable[[str], str] = input

    def place(self, spot: Entry) -> None:
        pass  # the prompt said where; the chain tells when

    def lift(self, spot: Entry) -> None:
        self.say("  lift it again")

    def fill(self, zone: int, count: int) -> None:
        self.say(f"fill {zone_name(zone)} with {count} checkers, from the edge up")

    def empty(self, zone: int) -> None:
        self.say(f"take the checkers off {zone_name(zone)}")

    def decide(self, finding: Finding) -> Choice:
        while True:
            try:
                answer = self.ask("  [r]etry after fixing it, [s]kip, or [q]uit? ")
            except EOFError:  # no one at the terminal: stop, keeping what was learned
                return Choice.QUIT
            answer = answer.strip().lower()
            for choice in Choice:
                if answer and choice.value.startswith(answer):
                    return choice


@dataclass
class Wizard:
    """One calibration run. ``template``: the slot counts to learn (from ``[sensors]``);
    ``timeout``: seconds to wait for a checker before calling its switch dead."""

    config_path: Path
    template: Geometry
    board: Board
    builder: Builder
    say: Say
    pixels: Pixels | None = None
    ledmap: LedMap | None = None
    timeout: float = 30.0

    def run(self, *, restart: bool = False) -> int:
        """0 once the map is written; 1 if it could not be learned whole (what was learned
        is kept aside for the next run). Ctrl-C leaves the config as it was."""
        learned = self._resume(restart)
        baseline = self._empty_board()
        if baseline is None:
            return 1
        for spot in missing(spots(self.template), learned):
            choice = self._learn(spot, baseline, learned)
            if choice is Choice.QUIT:
                self._stopped(learned)
                return 1
        left = missing(spots(self.template), learned)
        if left:
            self.say(f"{len(left)} spots not learned: " + "; ".join(map(spot_name, left)))
            self._stopped(learned)
            return 1
        geometry = geometry_of(learned, self.board.nbits, self.template)
        if not self._verify(geometry, baseline):
            self._stopped(learned)
            return 1
        return self._write(geometry)

    # -- steps -------------------------------------------------------------------------

    def _resume(self, restart: bool) -> dict[Entry, int]:
        path = partial_path(self.config_path)
        kept = None if restart else Partial.load(path)
        if kept is None:
            return {}
        if kept.nbits != self.board.nbits or kept.slots != self._slots():
            self.say(f"{path} was learned for another chain or other slots: starting afresh")
            return {}
        self.say(f"going on from {path}: {len(kept.learned)} spots already learned")
        return dict(kept.learned)

    def _empty_board(self) -> int | None:
        """The chain with the board empty, once no bit is stuck (or the builder chose to
        pass over the stuck ones); ``None`` if the builder quit."""
        ignored = 0
        self.say(f"calibrating a chain of {self.board.nbits} inputs; take every checker off")
        while True:
            empty = self.board.read()
            finding = stuck(empty & ~ignored)
            if finding is None:
                return empty
            self.say(finding.message())
            choice = self.builder.decide(finding)
            if choice is Choice.QUIT:
                return None
            if choice is Choice.SKIP:
                ignored |= empty

    def _learn(self, spot: Entry, baseline: int, learned: dict[Entry, int]) -> Choice:
        while True:
            self._light(spot, SPOT)
            self.say(f"put a checker on {spot_name(spot)}")
            self.builder.place(spot)
            after = self.board.wait_for(lambda bits: bits & ~baseline != 0, self.timeout)
            finding = classify(spot, baseline, after, learned)
            if finding.kind is Kind.LEARNED:
                learned[spot] = finding.bits[0]
                self.say(f"  {input_name(finding.bits[0])}")
                self._save(learned)
                self._lift(spot, baseline)
                return Choice.RETRY
            self._light(spot, PROBLEM)
            self.say("  " + finding.message())
            self._lift(spot, baseline)
            choice = self.builder.decide(finding)
            if choice is not Choice.RETRY:
                return choice

    def _lift(self, spot: Entry, baseline: int) -> None:
        self.builder.lift(spot)
        after = self.board.wait_for(lambda bits: bits == baseline, self.timeout)
        if after != baseline:
            still = ", ".join(input_name(bit) for bit in bits_of(after ^ baseline))
            self.say(f"  the chain did not go back when the checker was lifted: {still}")

    def _verify(self, geometry: Geometry, baseline: int) -> bool:
        self.say("checking the map: fill each zone in turn")
        problems = []
        for zone in (z for z in ZONES if geometry.slots(z)):
            count = geometry.slots(zone)
            self._light_zone(zone)
            self.builder.fill(zone, count)
            bits = self.board.wait_for(_all_closed(geometry.mask(zone)), self.timeout)
            problem = check_filled(geometry, zone, bits & ~baseline)
            self.say(f"  {zone_name(zone)}: {problem or f'counts {count}, as it should'}")
            if problem:
                problems.append(problem)
            self.builder.empty(zone)
            self.board.wait_for(lambda b: b == baseline, self.timeout)
        return not problems

    def _write(self, geometry: Geometry) -> int:
        backup = write_map(self.config_path, geometry)
        partial_path(self.config_path).unlink(missing_ok=True)
        self._light(None, DARK)
        self.say(f"wrote the wiring map into {self.config_path} (the old file is {backup}):")
        self.say(f"[sensors]\n{unused_toml(geometry)}\n\n{map_toml(geometry)}")
        return 0

    def _stopped(self, learned: Mapping[Entry, int]) -> None:
        self._light(None, DARK)
        self.say(
            f"{self.config_path} is unchanged; the {len(learned)} spots learned are kept in "
            f"{partial_path(self.config_path)}: run bgpi calibrate again to go on"
        )

    # -- helpers -----------------------------------------------------------------------

    def _slots(self) -> tuple[int, int, int]:
        t = self.template
        return (t.point_slots, t.bar_slots, t.tray_slots)

    def _save(self, learned: Mapping[Entry, int]) -> None:
        Partial(self.board.nbits, self._slots(), dict(learned)).save(partial_path(self.config_path))

    def _light(self, spot: Entry | None, colour: RGB) -> None:
        if self.pixels is None or self.ledmap is None:
            return
        frame = [DARK] * self.ledmap.length
        if spot is not None:
            pixels = self.ledmap.pixels(spot[0])
            for pixel in pixels[spot[1] : spot[1] + 1] or pixels:
                frame[pixel] = colour
        self.pixels.show(frame)

    def _light_zone(self, zone: int) -> None:
        if self.pixels is None or self.ledmap is None:
            return
        frame = [DARK] * self.ledmap.length
        for pixel in self.ledmap.pixels(zone):
            frame[pixel] = SPOT
        self.pixels.show(frame)


def _all_closed(mask: int) -> Callable[[int], bool]:
    return lambda bits: bits & mask == mask
