"""The simulator: a physical model of the board, its buttons and its LEDs, for tests and for
running bgpi with no hardware.

:class:`SimBoard` holds checkers in slots the way the wood does and changes them the way hands
do; its reed switches follow, with optional contact bounce and timing jitter drawn from a
seeded generator. It knows nothing of the rules: a black checker can be put on the white bar,
and two colours can share a point while a hit is in progress.

Time never comes from the wall clock unless asked: by default the board runs on a
:class:`ManualClock` that moves only with :meth:`SimBoard.advance`, so every run gives the
same frames with the same timestamps.
"""

from __future__ import annotations

import heapq
import random
import threading
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from bgpi.base.faults import FaultSource
from bgpi.base.geometry import Entry, Geometry
from bgpi.base.words import (
    COLOUR_NAMES,
    POINTS,
    RGB,
    ZONE_INDEX_SIZE,
    ZONES,
    ButtonName,
    Player,
    Zone,
    check_colour,
    zone_name,
)
from bgpi.hal.api import (
    ButtonEvent,
    Clock,
    Closing,
    Emit,
    FaultEvent,
    SensorEvent,
    SensorFrame,
    check_frame,
)
from bgpi.hal.errors import BackendClosedError, BackendUnavailableError, SimActionError

Layout = Mapping[Zone, tuple[Player, int]]


def scrambled_geometry(
    seed: int,
    *,
    spare: int = 0,
    point_slots: int = 6,
    bar_slots: int = 4,
    tray_slots: int = 0,
) -> Geometry:
    """A board wired in an order of its own: the switches of :meth:`Geometry.default` on the
    chain inputs in a shuffled order drawn from ``seed``, with ``spare`` inputs wired to
    nothing among them. It stands in for a builder's board (``bgpi calibrate
    --sim-wiring-seed``)."""
    if spare < 0:
        raise ValueError(f"spare is {spare}, expected 0 or more")
    switches: list[Entry | None] = list(
        Geometry.default(point_slots=point_slots, bar_slots=bar_slots, tray_slots=tray_slots).bits
    )
    switches += [None] * spare
    random.Random(seed).shuffle(switches)
    return Geometry(tuple(switches), point_slots, bar_slots, tray_slots)


@dataclass(frozen=True, slots=True)
class WiringFaults:
    """Faults of a simulated chain, as a builder's soldering makes them: ``dead`` inputs
    never close, ``stuck`` ones are always closed, and each ``crossed`` pair is shorted, so
    either switch closes both inputs."""

    dead: frozenset[int] = frozenset()
    stuck: frozenset[int] = frozenset()
    crossed: tuple[tuple[int, int], ...] = ()

    def apply(self, bits: int) -> int:
        """What the chain reads when the switches are ``bits``."""
        for first, second in self.crossed:
            if bits >> first & 1 or bits >> second & 1:
                bits |= 1 << first | 1 << second
        for bit in self.dead:
            bits &= ~(1 << bit)
        for bit in self.stuck:
            bits |= 1 << bit
        return bits

    def __bool__(self) -> bool:
        return bool(self.dead or self.stuck or self.crossed)


class ManualClock:
    """Monotonic seconds that move only when told to."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start

    def __call__(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        """Move the clock ``seconds`` forward."""
        if seconds < 0:
            raise ValueError(f"a clock does not go back ({seconds} s)")
        self._now += seconds

    def advance_to(self, when: float) -> None:
        """Move the clock to ``when``, if that is later than now."""
        self._now = max(self._now, when)

    def __repr__(self) -> str:
        return f"ManualClock({self._now!r})"


@dataclass(order=True, frozen=True, slots=True)
class _Change:
    time: float
    seq: int
    bit: int = field(compare=False)
    closed: bool = field(compare=False)


@dataclass(slots=True)
class _Zone:
    """The checkers of one zone: one per slot (on its switch), the ones stacked above the
    last slot (seen by no switch), and knocked ones lying askew (seen by no switch)."""

    slots: list[Player | None]
    stack: list[Player] = field(default_factory=list)
    askew: list[Player] = field(default_factory=list)

    def checkers(self) -> list[Player]:
        return [c for c in self.slots if c is not None] + self.stack + self.askew

    def put(self, colour: Player) -> None:
        for slot, held in enumerate(self.slots):
            if held is None:
                self.slots[slot] = colour
                return
        self.stack.append(colour)

    def take(self, colour: Player | None) -> Player | None:
        """Take the outermost checker (of ``colour``): the stack's top, then the highest slot,
        then a knocked one."""
        for index in range(len(self.stack) - 1, -1, -1):
            if colour is None or self.stack[index] == colour:
                return self.stack.pop(index)
        for slot in range(len(self.slots) - 1, -1, -1):
            held = self.slots[slot]
            if held is not None and (colour is None or held == colour):
                self.slots[slot] = None
                return held
        for index in range(len(self.askew) - 1, -1, -1):
            if colour is None or self.askew[index] == colour:
                return self.askew.pop(index)
        return None


class SimBoard(Closing):
    """A board of checkers on reed switches, moved by scripted hands.

    ``bounce``: seconds each switch chatters after it changes (0: clean contacts).
    ``jitter``: each switch change is late by up to this many seconds, so the switches of one
    movement do not all change at once. ``slide_step``: seconds a slid checker takes per point.
    """

    def __init__(
        self,
        geometry: Geometry | None = None,
        *,
        clock: Clock | None = None,
        bounce: float = 0.0,
        jitter: float = 0.0,
        seed: int = 0,
        slide_step: float = 0.05,
    ) -> None:
        if bounce < 0 or jitter < 0 or slide_step <= 0:
            raise ValueError("bounce and jitter must be >= 0 and slide_step > 0")
        self.geometry = geometry if geometry is not None else Geometry.default()
        self.clock: Clock = clock if clock is not None else ManualClock()
        self.bounce = bounce
        self.jitter = jitter
        self.slide_step = slide_step
        self._random = random.Random(seed)
        self._zones = {z: _Zone([None] * self.geometry.slots(z)) for z in ZONES}
        self._bits = 0  # the switches now
        self._eventual = 0  # the switches once every pending change has played out
        self._pending: list[_Change] = []
        self._seq = 0
        self._emit: Emit | None = None
        self._emitted: int | None = None
        self._closed = False
        self._lock = threading.RLock()
        # Faults of the chain's wiring (a dead, stuck or crossed input): what is read, not
        # what the switches do. Set it to break the board, and back to repair it.
        self.faults = WiringFaults()
        self._outage: str | None = None

    # -- the Sensors protocol -------------------------------------------------------------

    @property
    def nbits(self) -> int:
        return self.geometry.nbits

    def start(self, emit: Emit) -> None:
        """Deliver a :class:`SensorEvent` on every change of the switches, the current frame
        first."""
        with self._lock:
            self._check_open()
            self._emit = emit
            self._emitted = None
            self.pump()
            self._publish(self.clock())

    def read(self) -> SensorFrame:
        """The switches now; :class:`BackendUnavailableError` while :meth:`fail` holds."""
        with self._lock:
            self._check_open()
            if self._outage is not None:
                raise BackendUnavailableError(self._outage)
            self.pump()
            return SensorFrame(self.faults.apply(self._bits), self.nbits, self.clock())

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._emit = None

    def fail(self, message: str = "the simulated board stopped answering") -> None:
        """Stop answering, as a real board whose cable is pulled: a :class:`FaultEvent` with
        ``message``, and no frame until :meth:`recover`."""
        with self._lock:
            self._check_open()
            if self._outage is None and self._emit is not None:
                self._emit(FaultEvent(FaultSource.SENSORS, message, self.clock()))
            self._outage = message

    def recover(self) -> None:
        """Answer again: the current frame (if it changed), then the recovery's
        :class:`FaultEvent`."""
        with self._lock:
            self._check_open()
            if self._outage is None:
                return
            self._outage = None
            self.pump()
            self._publish(self.clock())
            if self._emit is not None:
                self._emit(FaultEvent(FaultSource.SENSORS, None, self.clock()))

    # -- time -----------------------------------------------------------------------------

    @property
    def pending(self) -> bool:
        """Whether switch changes (bounce, a slide in progress) are still to come."""
        return bool(self._pending)

    def pump(self) -> None:
        """Play out the switch changes due by the clock's time, emitting their frames."""
        with self._lock:
            now = self.clock()
            while self._pending and self._pending[0].time <= now:
                at = self._pending[0].time
                while self._pending and self._pending[0].time == at:
                    change = heapq.heappop(self._pending)
                    mask = 1 << change.bit
                    self._bits = self._bits | mask if change.closed else self._bits & ~mask
                self._publish(at)

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass on the board's :class:`ManualClock`."""
        self._manual_clock().advance(seconds)
        self.pump()

    def settle(self) -> SensorFrame:
        """Let time pass until every pending change has played out; the settled frame."""
        with self._lock:
            if self._pending:
                self._manual_clock().advance_to(max(change.time for change in self._pending))
            return self.read()

    # -- hands ----------------------------------------------------------------------------

    def place(self, zone: Zone, colour: Player) -> None:
        """Put a checker on ``zone``: on the lowest free slot, or stacked above the last."""
        with self._lock:
            self._begin()
            self._zone(zone).put(check_colour(colour))
            self._follow((zone,), self.clock())

    def lift(self, zone: Zone, colour: Player | None = None) -> Player:
        """Take the outermost checker (of ``colour``, if given) off ``zone``; its colour.
        From a point of seven the seventh is lifted, and the switches do not change."""
        with self._lock:
            self._begin()
            taken = self._zone(zone).take(None if colour is None else check_colour(colour))
            if taken is None:
                what = "checker" if colour is None else f"{COLOUR_NAMES[colour]} checker"
                raise SimActionError(f"no {what} on {zone_name(zone)} to lift")
            self._follow((zone,), self.clock())
            return taken

    def slide(
        self,
        src: Zone,
        dst: Zone,
        *,
        colour: Player | None = None,
        over: Sequence[Zone] | None = None,
    ) -> Player:
        """Slide a checker from ``src`` to ``dst`` across the board. On its way it passes over
        each zone of ``over`` (by default the points between two points), briefly closing the
        lowest free switch there. Returns the colour slid; call :meth:`advance` to see it
        arrive."""
        with self._lock:
            self._begin()
            passes = tuple(over) if over is not None else _between(src, dst)
            for zone in passes:
                self._zone(zone)
            moved = self.lift(src, colour)
            now = self.clock()
            for step, zone in enumerate(passes, start=1):
                bit = self._free_bit(zone)
                if bit is not None:
                    self._schedule(bit, True, now + step * self.slide_step)
                    self._schedule(bit, False, now + (step + 1) * self.slide_step)
            self._zone(dst).put(moved)
            self._follow((dst,), now + (len(passes) + 1) * self.slide_step)
            self.pump()
            return moved

    def put_on(self, zone: Zone, slot: int, colour: Player) -> None:
        """Set a checker on ``slot`` of ``zone`` itself, the lower slots left as they are (as
        the calibration asks the builder to)."""
        with self._lock:
            self._begin()
            pile = self._zone(zone)
            if not 0 <= slot < len(pile.slots) or pile.slots[slot] is not None:
                raise SimActionError(f"{zone_name(zone)} slot {slot} is not a free slot")
            pile.slots[slot] = check_colour(colour)
            self._follow((zone,), self.clock())

    def knock(self, zone: Zone, slot: int | None = None, *, by: int | None = 1) -> None:
        """Bump the checker on ``slot`` (default: the outermost one on a switch) ``by`` slots
        along the point. If that slot is taken or off the end, or ``by`` is None, the checker
        falls askew and no switch sees it until :meth:`straighten`."""
        with self._lock:
            self._begin()
            pile = self._zone(zone)
            held = [s for s, c in enumerate(pile.slots) if c is not None]
            if slot is None:
                if not held:
                    raise SimActionError(f"no checker on a switch of {zone_name(zone)} to knock")
                slot = held[-1]
            if slot not in held:
                raise SimActionError(f"no checker on {zone_name(zone)} slot {slot} to knock")
            colour = pile.slots[slot]
            assert colour is not None
            pile.slots[slot] = None
            to = None if by is None else slot + by
            if to is not None and 0 <= to < len(pile.slots) and pile.slots[to] is None:
                pile.slots[to] = colour
            else:
                pile.askew.append(colour)
            self._follow((zone,), self.clock())

    def straighten(self, zone: Zone) -> None:
        """Set the knocked checkers of ``zone`` back on the lowest free slots."""
        with self._lock:
            self._begin()
            pile = self._zone(zone)
            askew, pile.askew = pile.askew, []
            for colour in askew:
                pile.put(colour)
            self._follow((zone,), self.clock())

    def setup(self, layout: Layout) -> None:
        """Clear the board and set ``{zone: (colour, count)}`` on it, each zone from slot 0."""
        with self._lock:
            self._begin()
            for zone, (colour, count) in layout.items():
                self._zone(zone)
                check_colour(colour)
                if count < 0:
                    raise ValueError(f"{zone_name(zone)} cannot hold {count} checkers")
            for pile in self._zones.values():
                pile.slots = [None] * len(pile.slots)
                pile.stack.clear()
                pile.askew.clear()
            for zone, (colour, count) in layout.items():
                for _ in range(count):
                    self._zones[zone].put(check_colour(colour))
            self._follow(ZONES, self.clock())

    def clear(self) -> None:
        """Take every checker off the board."""
        self.setup({})

    # -- inspection -----------------------------------------------------------------------

    def checkers(self, zone: Zone) -> tuple[Player, ...]:
        """The colours of the checkers on ``zone``: on switches from the base, then stacked,
        then askew."""
        with self._lock:
            return tuple(self._zone(zone).checkers())

    def counts(self) -> tuple[int, ...]:
        """How many checkers each zone really holds (seen or not), indexed by zone."""
        with self._lock:
            counts = [0] * ZONE_INDEX_SIZE
            for zone, pile in self._zones.items():
                counts[zone] = len(pile.checkers())
            return tuple(counts)

    # -- inside ---------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed:
            raise BackendClosedError("the simulated board is closed")

    def _begin(self) -> None:
        self._check_open()
        self.pump()

    def _manual_clock(self) -> ManualClock:
        if not isinstance(self.clock, ManualClock):
            raise SimActionError(f"advance() needs a ManualClock; this board reads {self.clock!r}")
        return self.clock

    def _zone(self, zone: Zone) -> _Zone:
        try:
            return self._zones[zone]
        except KeyError:
            raise ValueError(f"zone {zone!r} is not a point, a bar or a tray") from None

    def _target(self, zone: Zone) -> int:
        bits = 0
        for slot, held in enumerate(self._zones[zone].slots):
            if held is not None:
                bits |= 1 << self.geometry.bit_of(zone, slot)
        return bits

    def _follow(self, zones: Iterable[Zone], at: float) -> None:
        """Make the switches of ``zones`` follow their checkers from time ``at`` on."""
        for zone in zones:
            target = self._target(zone)
            diff = (self._eventual ^ target) & self.geometry.mask(zone)
            while diff:
                bit = (diff & -diff).bit_length() - 1
                diff &= diff - 1
                self._schedule(bit, bool(target >> bit & 1), at)
        self.pump()

    def _free_bit(self, zone: Zone) -> int | None:
        for slot in range(len(self._zones[zone].slots)):
            bit = self.geometry.bit_of(zone, slot)
            if not self._eventual >> bit & 1:
                return bit
        return None

    def _schedule(self, bit: int, closed: bool, at: float) -> None:
        """Switch ``bit`` to ``closed`` at ``at``, superseding what was to come for it then."""
        kept = [c for c in self._pending if c.bit != bit or c.time < at]
        if len(kept) != len(self._pending):
            self._pending = kept
            heapq.heapify(self._pending)
        before = [c for c in kept if c.bit == bit]
        state = max(before).closed if before else bool(self._bits >> bit & 1)
        mask = 1 << bit
        self._eventual = self._eventual | mask if closed else self._eventual & ~mask
        if state == closed:
            return
        start = at + (self._random.uniform(0.0, self.jitter) if self.jitter else 0.0)
        self._push(start, bit, closed)
        if self.bounce:
            pairs = self._random.randint(1, 3)
            times = sorted(
                self._random.uniform(start, start + self.bounce) for _ in range(2 * pairs)
            )
            for index, time in enumerate(times):
                self._push(time, bit, closed if index % 2 else not closed)

    def _push(self, time: float, bit: int, closed: bool) -> None:
        self._seq += 1
        heapq.heappush(self._pending, _Change(time, self._seq, bit, closed))

    def _publish(self, at: float) -> None:
        bits = self.faults.apply(self._bits)
        if self._outage is None and self._emit is not None and bits != self._emitted:
            self._emitted = bits
            self._emit(SensorEvent(SensorFrame(bits, self.nbits, at)))


def _between(src: Zone, dst: Zone) -> tuple[Zone, ...]:
    if not (1 <= src <= POINTS and 1 <= dst <= POINTS):
        return ()
    step = 1 if dst > src else -1
    return tuple(range(src + step, dst, step))


class SimButtons(Closing):
    """The four buttons, pressed by scripted fingers."""

    def __init__(self, *, clock: Clock | None = None) -> None:
        self.clock: Clock = clock if clock is not None else ManualClock()
        self._emit: Emit | None = None
        self._down: set[tuple[Player, ButtonName]] = set()
        self._closed = False

    @property
    def down(self) -> frozenset[tuple[Player, ButtonName]]:
        """The (player, button) pairs held down now."""
        return frozenset(self._down)

    def start(self, emit: Emit) -> None:
        if self._closed:
            raise BackendClosedError("the simulated buttons are closed")
        self._emit = emit

    def press(self, player: Player, button: ButtonName) -> None:
        """Push ``player``'s ``button`` down."""
        self._change(player, button, pressed=True)

    def release(self, player: Player, button: ButtonName) -> None:
        """Let ``player``'s ``button`` up."""
        self._change(player, button, pressed=False)

    def click(self, player: Player, button: ButtonName) -> None:
        """Press and release at once."""
        self.press(player, button)
        self.release(player, button)

    def close(self) -> None:
        self._closed = True
        self._emit = None

    def _change(self, player: Player, button: ButtonName, *, pressed: bool) -> None:
        if self._closed:
            raise BackendClosedError("the simulated buttons are closed")
        event = ButtonEvent(player, button, pressed, self.clock())
        key = (player, button)
        if (key in self._down) == pressed:
            state = "down" if pressed else "up"
            raise SimActionError(f"{COLOUR_NAMES[player]}'s {button} button is already {state}")
        if pressed:
            self._down.add(key)
        else:
            self._down.discard(key)
        if self._emit is not None:
            self._emit(event)


class SimPixels(Closing):
    """An LED strip in memory: every frame shown is kept (the last ``history`` of them)."""

    def __init__(self, count: int, *, history: int = 1000) -> None:
        if count < 1:
            raise ValueError(f"a strip has at least one pixel, got {count}")
        self._count = count
        self.frames: deque[tuple[RGB, ...]] = deque(maxlen=history)
        self._closed = False

    def __len__(self) -> int:
        return self._count

    @property
    def last(self) -> tuple[RGB, ...] | None:
        """The frame on the strip now (``None`` before the first)."""
        return self.frames[-1] if self.frames else None

    def show(self, frame: Sequence[RGB]) -> None:
        if self._closed:
            raise BackendClosedError("the simulated strip is closed")
        self.frames.append(check_frame(frame, self._count))

    def close(self) -> None:
        """Go dark, like a real strip on close."""
        if not self._closed:
            self.frames.append(((0, 0, 0),) * self._count)
            self._closed = True


class SimBuzzer(Closing):
    """The simulator's buzzer: it sounds nothing, and keeps the tunes asked of it (the
    ``(hz, seconds)`` notes of each) for tests to read."""

    def __init__(self) -> None:
        self.played: list[tuple[tuple[float, float], ...]] = []
        self._closed = False

    def play(self, tune: Sequence[tuple[float, float]]) -> None:
        if self._closed:
            raise BackendClosedError("the simulated buzzer is closed")
        self.played.append(tuple(tune))

    def close(self) -> None:
        self._closed = True
