"""What the shell does with each event, in one place: the app's event loop and the simulator
harness both drive the table through a :class:`Driver`.

For each event: the table decides; the records it decided are appended to the journal in one
transaction (so they are on disk, all or none) before anything is shown; dice are rolled when
asked for and fed back; then the scene is rendered and the pixels written only if the frame
changed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from bgpi.base.geometry import Geometry
from bgpi.base.i18n import _
from bgpi.base.words import RGB, Player
from bgpi.hal.api import Dice, Pixels
from bgpi.journal.records import MatchStarted, Record
from bgpi.lights.ledmap import LedMap
from bgpi.lights.render import Style, next_change, render
from bgpi.lights.scene import Scene
from bgpi.present.clockbar import CLOCKS, next_bar_change
from bgpi.present.cues import Cue, step_cues
from bgpi.present.leds import scene_of
from bgpi.sensing.mistakes import mistake_words
from bgpi.table import (
    DecisionRequest,
    DiceDrawing,
    DiceRequest,
    DiceRolled,
    Event,
    Hinted,
    HintRequest,
    Step,
    Table,
    Tick,
)

log = logging.getLogger("bgpi")

HEARD = 8  # cues kept for the page: more than one step ever makes


class Journal(Protocol):
    """Where records go before they are shown (bgpi.journal.store.Journal, or a list in memory)."""

    def append(self, record: Record) -> int: ...

    def append_all(self, records: Sequence[Record]) -> None:
        """The records of one step, all or none: a power cut never leaves half a step."""

    def new_match(self, record: MatchStarted) -> int: ...


@dataclass
class MemoryJournal:
    """A journal that keeps records in a list: for the demo and tests without a state dir."""

    records: list[Record] = field(default_factory=list)

    def append(self, record: Record) -> int:
        self.records.append(record)
        return len(self.records)

    def append_all(self, records: Sequence[Record]) -> None:
        for record in records:
            if isinstance(record, MatchStarted):
                self.new_match(record)
            else:
                self.append(record)

    def new_match(self, record: MatchStarted) -> int:
        self.records = [record]
        return 1


class DrawnDice(Protocol):
    """Dice drawn with someone else (a remote board's commit-reveal exchange): asked for
    now, ready later. The shell's loop goes on meanwhile (:meth:`Driver.collect`)."""

    def draw(self, count: int) -> tuple[int, ...] | None:
        """Begin (or go on with) drawing ``count`` dice; them once drawn, else None."""


@dataclass
class Driver:
    """Runs a table against a journal, dice and pixels."""

    table: Table
    journal: Journal
    dice: Dice
    pixels: Pixels
    geometry: Geometry  # the board's: who feeds the driver converts its frames with it
    ledmap: LedMap
    style: Style
    frame: tuple[RGB, ...] | None = None
    frames_composed: int = 0  # renders: the costly part on a Pi Zero
    frames_written: int = 0
    log: list[Record] = field(default_factory=list)  # the current match's records, in order
    # Told when the table waits for a seat that is not a person here (the engine, a remote
    # board); its answer comes back as an event through dispatch, never from inside ask.
    ask: Callable[[DecisionRequest], None] | None = None
    # Told each cue the table's steps sound like (bgpi.present.cues), on the loop's thread: it must
    # return at once (the buzzer plays on a thread of its own).
    hear: Callable[[Cue], None] | None = None
    # The last cues with their running numbers, for the page (which plays the new ones).
    heard: tuple[tuple[int, Cue], ...] = ()
    # Told when a person here asks for a hint; the answer comes back as an event (Hinted).
    hint: Callable[[HintRequest], None] | None = None
    # Told when a person here claims the match by forfeit from a silent remote board; the
    # claim is sent and settled on the loop (bgpi.remote.board), never from inside claim.
    claim: Callable[[Player], None] | None = None
    # Dice that come later, if set (instead of ``dice``); ``drawing`` the request waiting.
    drawn: DrawnDice | None = None
    drawing: DiceRequest | None = None
    _due: float | None = None  # when a blinking light next changes the frame
    _scene: Scene | None = None  # what the frame shows

    def tick(self, now: float) -> None:
        self.dispatch(Tick(now))

    def dispatch(self, event: Event) -> None:
        """One event (a backend's, converted by :mod:`bgpi.service.edge`; a seat's answer;
        the clock's): the table decides, its records are journaled, then said, then shown."""
        before = self.table
        step = before.handle(event)
        self._journal(step.records)
        self.table = step.table
        self._tell(before, step, event)
        self._show(step.dice, event.t, changed=self.table is not before)

    def settle(self, record: Record, now: float) -> None:
        """A record decided outside the table's steps (a forfeit both boards agreed on),
        applied, journaled and shown as a step's are; the table's refusal is raised."""
        table = self.table.apply(record)
        self._journal((record,))
        self.table = table
        self._render(now, changed=True)

    def _journal(self, records: Sequence[Record]) -> None:
        """The step's records to the journal in one transaction, and to the match's log."""
        self.journal.append_all(records)
        for record in records:
            if isinstance(record, MatchStarted):
                self.log = [record]  # a service runs for months: keep one match, not all
            else:
                self.log.append(record)

    def _tell(self, before: Table, step: Step, event: Event) -> None:
        """What the step says to whoever listens: its cues, a refusal or a new mistake (in the
        log), the decision asked of a seat, a hint asked for, a hint that came, and a forfeit
        claimed."""
        self._cues(step_cues(before, step))
        if step.refused is not None:
            log.warning("refused: %s", step.refused)
        mistake = self.table.mistake
        if mistake is not None and mistake != before.mistake and step.refused is None:
            # Once per mistake, not per frame: the settled board changing says it again.
            log.info("%s", mistake_words(mistake))
        if step.request is not None and self.ask is not None:
            self.ask(step.request)
        if step.hint is not None and self.hint is not None:
            self.hint(step.hint)
        if step.claim is not None and self.claim is not None:
            self.claim(step.claim)
        if isinstance(event, Hinted) and self.table.hint is event:
            name = self.table.names[event.player]
            log.info("%s", _("hint for {name}: {hint}").format(name=name, hint=event.words()))

    def _show(self, dice: DiceRequest | None, now: float, *, changed: bool) -> None:
        """The dice the step asks for, rolled (their event dispatched in turn); else the
        frame, rendered if it changed."""
        if dice is not None:
            self._roll(dice, now)
            return
        self._render(now, changed=changed)
        tracker = getattr(self.table.at, "tracker", None)
        if tracker is not None:
            # The dice frame is out: build the turn's tree now, while the hand is still on its
            # way to a checker (well over 300 ms), not when the first lift needs it.
            tracker.prepare()

    def _cues(self, cues: Sequence[Cue]) -> None:
        """Keep ``cues`` for the page and tell the listener (the buzzer) of them."""
        if not cues:
            return
        last = self.heard[-1][0] if self.heard else 0
        numbered = tuple((last + 1 + i, cue) for i, cue in enumerate(cues))
        self.heard = (self.heard + numbered)[-HEARD:]
        if self.hear is not None:
            for cue in cues:
                self.hear(cue)

    def _roll(self, request: DiceRequest, t: float) -> None:
        values: tuple[int, ...] | None
        if self.drawn is None:
            values = self.dice.roll() if request.count == 2 else (self.dice.die(),)
        elif (drawn := self.drawn.draw(request.count)) is not None:
            values = drawn
        else:  # they come later: the table waits for them, and the loop goes on
            self.drawing = request
            self.dispatch(DiceDrawing(request.player, request.count, t))
            return
        self.dispatch(DiceRolled(request.player, values, t))

    def collect(self, now: float) -> None:
        """Dice drawn with someone else, to the table once they are drawn (at each turn of
        the shell's loop)."""
        request = self.drawing
        if request is None or self.drawn is None:
            return
        values = self.drawn.draw(request.count)
        if values is not None:
            self.drawing = None
            self.dispatch(DiceRolled(request.player, values, now))

    @property
    def scene(self) -> Scene:
        return scene_of(self.table)

    def scene_at(self, now: float) -> Scene:
        """The scene the strip shows at ``now``: with the clock's bars, as they stand then."""
        return scene_of(self.table, now)

    def _bar_change(self, now: float) -> float | None:
        """When the running clock's bar next changes on this strip, if it does."""
        pixels = (len(self.ledmap.pixels(CLOCKS[0])), len(self.ledmap.pixels(CLOCKS[1])))
        return next_bar_change(self.table, now, pixels)

    def _render(self, now: float, *, changed: bool) -> None:
        """Compose a frame when what it shows changed or a light is due to blink; write the
        pixels only when the frame changed. Most table changes (every raw switch change, a
        bouncing contact included, moves the settle filter) change nothing shown, and a
        render is what a Pi Zero cannot spare."""
        due = self._due is not None and now >= self._due
        if self.frame is not None and not due and not changed:
            return
        scene = self.scene_at(now)
        if self.frame is not None and not due and scene == self._scene:
            return
        frame = render(scene, self.ledmap, self.style, now)
        self.frames_composed += 1
        self._scene = scene
        self._due = _first(next_change(scene, self.style, now), self._bar_change(now))
        if frame != self.frame:
            self.pixels.show(frame)
            self.frame = frame
            self.frames_written += 1

    def deadline(self, now: float) -> float | None:
        """When the table next needs a tick: the settle filter's deadline, a blink, or the
        running flag's fall."""
        clock = self.table.clock
        times = [self.table.settle.deadline(), next_change(self.scene_at(now), self.style, now)]
        times.append(None if clock is None else clock.deadline())
        return _first(*times, self._bar_change(now))


def _first(*times: float | None) -> float | None:
    """The earliest of ``times`` that is set, if any."""
    due = [t for t in times if t is not None]
    return min(due) if due else None
