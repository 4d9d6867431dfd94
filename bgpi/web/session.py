"""The simulated table played from the page: the mouse and keyboard are the hands.

A :class:`SimSession` owns a :class:`~bgpi.sim.simtable.SimTable` and lives on the web server's
loop: every command and every tick of the clock runs there, one at a time, so the table has
one owner. The table's manual clock follows the wall clock (:meth:`SimSession.catch_up`), so
the settle filter, long presses and blinking lights behave as on the real board.

Commands (JSON objects from the page), in the board's printed zones:

========== ===================================== ==============================================
type       fields                                what the hands do
========== ===================================== ==============================================
lift       zone, colour                          pick up a checker (of that colour) from zone
place      zone, colour, slot (optional)         put the held checker down, on ``slot`` if free
knock      zone, slot (optional)                 knock a checker off its switch (lying askew)
straighten zone                                  set the knocked checkers back on their slots
press      player, button (roll or cube)         push a button down
release    player, button                        let it up
setup      —                                     set the board up for the position the game holds
option     option (its name: length, crawford,   choosing the match: ROLL pressed until the
           jacoby, beaver, automatic, limit)     option shows, then CUBE once (its next value)
start      —                                     choosing the match: ROLL held, as shown
========== ===================================== ==============================================

``option`` and ``start`` are the page's controls for choosing the match: they press the same
buttons a player at the board would (a person's, White's first), so the table sees nothing
but presses.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Final

from bgpi.base.i18n import _
from bgpi.base.words import (
    BUTTONS,
    COLOUR_NAMES,
    CUBE,
    PLAYERS,
    ROLL,
    ZONES,
    ButtonName,
    Player,
    zone_name,
)
from bgpi.hal.errors import HalError
from bgpi.journal.export import MatHeader
from bgpi.journal.records import Record, Seat
from bgpi.journal.store import Journal
from bgpi.lights.ledmap import LedMap
from bgpi.lights.render import Style
from bgpi.present.gamelog import current_match
from bgpi.sim.simtable import SimTable
from bgpi.table import Choosing, Table
from bgpi.table.options import options_of
from bgpi.web.entry import entered
from bgpi.web.server import PageCommandError, Snapshot
from bgpi.web.view import ZoneView, board_of_sim, frame_message, layout_message, state_message

if TYPE_CHECKING:  # the engine's modules load only where a seat or a hint needs them
    from bgpi.engine.worker import EngineWorker

HELD_MARGIN: Final = 0.1  # seconds past the long press that a held press of the page lasts
MAX_CATCH_UP: Final = 1.0  # seconds of simulated time per step at most, should the loop stall


class SimSession:
    """The page's hands on a simulated table; see the module's table of commands."""

    def __init__(
        self,
        sim: SimTable,
        ledmap: LedMap,
        style: Style,
        *,
        wall: Callable[[], float] = time.monotonic,
        worker: EngineWorker | None = None,
        sound: bool = False,
    ) -> None:
        self.sim = sim
        self.site = "bgpi"  # the .mat's [Site] line: the config's [players] site, as set
        # Told the table after each step of the clock, on the loop (a club's poster).
        self.watchers: list[Callable[[SimTable], None]] = []
        self._header: tuple[Record, MatHeader] | None = None  # the match's first record's
        self._latest: tuple[Record, ...] | None = None  # the journal's, on a fresh board
        self.worker = worker  # the engine's thread, answering into the table's inbox
        self.sound = sound  # [sound] enabled: the page plays the cues until muted
        self.ledmap = ledmap
        self.style = style
        self.wall = wall
        self.hand: list[tuple[Player, int]] = []  # (colour, zone lifted from), in the order lifted
        self._offset = sim.clock() - wall()
        self._table: Table | None = None
        self._seen: tuple[tuple[ZoneView, ...], tuple[tuple[int, int], ...]] | None = None
        self._frame: object = None
        self._handlers: dict[str, Callable[[Mapping[str, object]], None]] = {
            "lift": self._lift,
            "place": self._place,
            "knock": self._knock,
            "straighten": self._straighten,
            "press": self._press,
            "release": self._release,
            "setup": self._setup,
            "option": self._option,
            "start": self._start,
            "enter": self._enter,
        }

    def layout(self) -> dict[str, object]:
        return layout_message(self.ledmap, self.sim.geometry, self.style, "sim", sound=self.sound)

    # -- time ---------------------------------------------------------------------------------

    def catch_up(self) -> None:
        """Let the simulated time reach the wall clock's (it never goes back: a command that
        took simulated time runs ahead until the wall clock passes it)."""
        behind = self.wall() + self._offset - self.sim.clock()
        if behind > 0:
            self.sim.advance(min(behind, MAX_CATCH_UP))
        # The simulated hands throw the GoDice once the table waits for them (bgpi sim
        # --dice godice): a person at the page pressed ROLL, or the engine rolled.
        self.sim.throw_godice()
        for watch in self.watchers:
            watch(self.sim)

    def now(self) -> float:
        """The table's time now: the wall clock's, or the simulated time where a command (or
        a test) has run it ahead; what the server stamps each state it sends with."""
        return max(self.sim.clock(), self.wall() + self._offset)

    def answered(self) -> None:
        """Wait until the engine has answered everything asked so far, and let the table
        take the answers (tests and benchmarks: the page itself never waits)."""
        if self.worker is None:
            return
        while True:
            self.worker.idle()
            if not self.sim.pending:
                return
            self.sim.advance(0.0)  # the answers taken may ask again: wait for those too

    def close(self) -> None:
        """Stop the engine's thread and its engines, and the simulated GoDice; idempotent."""
        if self.worker is not None:
            self.worker.close()
        self.sim.close()

    # -- commands -----------------------------------------------------------------------------

    def command(self, message: Mapping[str, object]) -> None:
        kind = message.get("type")
        handler = self._handlers.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise PageCommandError(
                f"unknown command {kind!r}: the commands are {', '.join(self._handlers)}"
            )
        try:
            handler(message)
        except HalError as exc:
            raise PageCommandError(str(exc)) from None
        self.sim.advance(0.0)  # the switches' new frame reaches the table now

    def _lift(self, message: Mapping[str, object]) -> None:
        zone = _zone(message)
        colour = None if message.get("colour") is None else _player(message, "colour")
        taken = self.sim.board.lift(zone, colour)
        self.hand.append((taken, zone))

    def _place(self, message: Mapping[str, object]) -> None:
        zone = _zone(message)
        colour = _player(message, "colour")
        held = next((i for i, (c, _origin) in enumerate(self.hand) if c == colour), None)
        if held is None:
            raise PageCommandError(
                f"no {COLOUR_NAMES[colour]} checker in hand to place on {zone_name(zone)}"
            )
        slot = message.get("slot")
        if slot is not None and (type(slot) is not int or slot < 0):
            raise PageCommandError(f"slot {slot!r} is not a slot number (0 is the base)")
        landing = self._free_slots(zone)
        self.sim.board.place(zone, colour)
        del self.hand[held]
        # A checker put down lands on the lowest free slot; one dropped further up the point
        # lies on the slot it was dropped on, if that is free (a knock there, by the distance).
        if landing and slot is not None and slot > landing[0] and slot in landing:
            self.sim.board.knock(zone, landing[0], by=slot - landing[0])

    def _free_slots(self, zone: int) -> list[int]:
        geometry = self.sim.geometry
        frame = self.sim.board.read()
        return [
            s for s in range(geometry.slots(zone)) if not frame.closed(geometry.bit_of(zone, s))
        ]

    def _knock(self, message: Mapping[str, object]) -> None:
        zone = _zone(message)
        slot = message.get("slot")
        if slot is not None and type(slot) is not int:
            raise PageCommandError(f"slot {slot!r} is not a slot number (0 is the base)")
        self.sim.board.knock(zone, slot, by=None)

    def _straighten(self, message: Mapping[str, object]) -> None:
        self.sim.board.straighten(_zone(message))

    def _press(self, message: Mapping[str, object]) -> None:
        player, button = _button(message)
        if (player, button) not in self.sim.buttons.down:
            self.sim.buttons.press(player, button)

    def _release(self, message: Mapping[str, object]) -> None:
        player, button = _button(message)
        if (player, button) in self.sim.buttons.down:
            self.sim.buttons.release(player, button)

    def _setup(self, message: Mapping[str, object]) -> None:
        self.hand.clear()
        self.sim.setup(self.sim.position)

    def _option(self, message: Mapping[str, object]) -> None:
        at = self._choosing()
        options = options_of(at.draft, named=at.named)
        wanted = next((o for o in options if o.name.lower() == message.get("option")), None)
        if wanted is None:
            names = ", ".join(o.name.lower() for o in options)
            raise PageCommandError(
                _("option {option!r} is not one of {names}").format(
                    option=message.get("option"), names=names
                )
            )
        player = self._chooser()
        for _option in options:  # ROLL steps round the options to the one wanted
            if self._choosing().option is wanted:
                break
            self._click(player, ROLL)
        self._click(player, CUBE)

    def _start(self, message: Mapping[str, object]) -> None:
        self._choosing()
        player = self._chooser()
        self.sim.buttons.press(player, ROLL)
        self.sim.advance(self.sim.table.config.long_press + HELD_MARGIN)
        self.sim.buttons.release(player, ROLL)

    def _enter(self, message: Mapping[str, object]) -> None:
        """Dice thrown by hand, entered on the page: the roll being entered, all at once."""
        self.sim.driver.dispatch(entered(self.sim.table, message, self.sim.clock()))

    def _choosing(self) -> Choosing:
        at = self.sim.table.at
        if not isinstance(at, Choosing):
            raise PageCommandError(
                _("the match is chosen between matches, not in phase {phase}").format(
                    phase=at.kind.value
                )
            )
        return at

    def _chooser(self) -> Player:
        """Whose buttons the page presses to choose: a person's at this board."""
        people = [p for p in PLAYERS if self.sim.table.seats[p] is Seat.PERSON]
        if not people:
            raise PageCommandError(_("no person sits at this board: the seats start the match"))
        return people[0]

    def _click(self, player: Player, button: ButtonName) -> None:
        """A short press, each edge read by the table."""
        self.sim.buttons.press(player, button)
        self.sim.advance(0.0)
        self.sim.buttons.release(player, button)
        self.sim.advance(0.0)

    def let_go(self) -> None:
        """Put each held checker back where it was lifted from, and let every button up."""
        for colour, zone in self.hand:
            self.sim.board.place(zone, colour)
        self.hand.clear()
        for player, button in sorted(self.sim.buttons.down):
            self.sim.buttons.release(player, button)
        self.sim.advance(0.0)

    # -- what the page shows ------------------------------------------------------------------

    def snapshot(self) -> Snapshot:
        """The state when the table, the checkers or the hand changed; the frame when the
        strip got a new one."""
        sim = self.sim
        board, hand = board_of_sim(sim.board), tuple(self.hand)
        state = records = None
        # The table by identity: a new table is a new value, and comparing two is not cheap.
        if sim.table is not self._table or (board, hand) != self._seen:
            self._table, self._seen = sim.table, (board, hand)
            records = current_match(sim.driver.log)
            state = state_message(sim.table, board, records, hand=hand, cues=sim.driver.heard)
        frame = None
        if sim.frame is not self._frame:
            self._frame = sim.frame
            frame = frame_message(sim.frame)
        if records == ():  # a fresh board: the download is the journal's latest match
            records = self._journaled()
        return Snapshot(state, frame, records, self._header_of(records))

    def _journaled(self) -> tuple[Record, ...]:
        """The journal's latest match, as the companion's download gives it (read once:
        nothing is journaled before a match starts, and then the log holds it)."""
        if self._latest is None:
            journal = self.sim.journal
            self._latest = current_match(journal.records()) if isinstance(journal, Journal) else ()
        return self._latest

    def _header_of(self, records: Sequence[Record] | None) -> MatHeader | None:
        """The download's header, read from the journal once per match."""
        if not records:
            return None
        if self._header is None or self._header[0] is not records[0]:
            journal = self.sim.journal
            header = (
                MatHeader.journaled(journal, self.site)
                if isinstance(journal, Journal)
                else MatHeader(self.site)
            )
            self._header = (records[0], header)
        return self._header[1]


def _zone(message: Mapping[str, object]) -> int:
    return _choice(message, "zone", ZONES)


def _choice(message: Mapping[str, object], name: str, allowed: tuple[int, ...]) -> int:
    value = message.get(name)
    # An int from the page's JSON (or a Player, an int too, from a test); never a bool.
    if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
        raise PageCommandError(f"{name} {value!r} is not one of {allowed[0]}-{allowed[-1]}")
    return value


def _player(message: Mapping[str, object], name: str) -> Player:
    return Player(_choice(message, name, PLAYERS))


def _button(message: Mapping[str, object]) -> tuple[Player, ButtonName]:
    player = _player(message, "player")
    button = message.get("button")
    for name in BUTTONS:
        if button == name:
            return player, name
    raise PageCommandError(f"button {button!r} is not one of {', '.join(BUTTONS)}")
