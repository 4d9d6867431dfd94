"""What the page is sent, built by pure functions from the table, the board and the frame.

Three messages, each a JSON object with a ``type``:

- ``layout``, once per connection: where every pixel is (the LED map's zones and areas), how
  many slots each zone has, the style's gamma and brightness (so the page can show a pixel's
  colour as the eye sees the LED), the mode (``sim`` or ``companion``), the keys, the
  sound (on or off at first, each cue's tune and the mute switch's words) and the page's
  words in the players' language (:mod:`bgpi.web.words`);
- ``state``, whenever it changes: phase, whose turn, who sits where (person, engine,
  remote), dice, cube, score, a resignation chosen or offered, what each button means now,
  the zones the last play touched, the checkers on every zone, the log, the Position ID and
  Match ID, the last cues heard, numbered (the page plays those it has not yet), the clock
  (its setting in words, each side's time as a clock beside the board shows it), where the
  dice come from (a roll being entered, a GoDice throw awaited and who may enter it by hand
  instead), and while the next match is chosen, its options and their values;
- ``frame``, whenever the strip's frame changes: every pixel's colour, as the strip gets it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from bgpi.base.frame import SensorFrame
from bgpi.base.geometry import Geometry
from bgpi.base.i18n import _
from bgpi.base.words import (
    BAR_BLACK,
    BAR_WHITE,
    BLACK,
    PLAYERS,
    RGB,
    TRAY_BLACK,
    TRAY_WHITE,
    WHITE,
    ZONES,
    Player,
)
from bgpi.hal.errors import BackendUnavailableError
from bgpi.hal.sim import SimBoard
from bgpi.journal.records import Record, Seat
from bgpi.lights.ledmap import LedMap
from bgpi.lights.render import Style
from bgpi.present.clockbar import full_bar, low_at
from bgpi.present.cues import Cue, pairs
from bgpi.present.gamelog import Entry, log_entries
from bgpi.present.leds import scene_of
from bgpi.present.phrases import (
    DICE_SOURCES,
    NOBODY_DICE,
    REMOTE_DICE,
    clock_words,
    match_words,
    option_words,
    players,
)
from bgpi.present.status import status
from bgpi.rules.clock import Clock, ClockMode
from bgpi.rules.xgid import xgid
from bgpi.sensing.board import counts_of, zone_of
from bgpi.sensing.mistakes import mistake_words
from bgpi.table import Table
from bgpi.table.buttons import enterer, thrower
from bgpi.table.options import options_of
from bgpi.table.phases import Choosing, Entering, Rolling
from bgpi.table.thrown import entered_instead
from bgpi.web.words import page_words

UNKNOWN: Final = 2
"""The colour of a checker the companion cannot tell (a switch closed where the game expects
no checker)."""

KEYS: Final = {
    "r": (WHITE, "roll"),
    "c": (WHITE, "cube"),
    "R": (BLACK, "roll"),
    "C": (BLACK, "cube"),
}
"""The keyboard's buttons: held like the real ones (a long ROLL is a beaver)."""

_FIXED_COLOURS: Final = {BAR_WHITE: WHITE, BAR_BLACK: BLACK, TRAY_WHITE: WHITE, TRAY_BLACK: BLACK}


@dataclass(frozen=True, slots=True)
class ZoneView:
    """The checkers of one zone: ``slots[s]`` the colour on slot ``s``'s switch (None: the
    switch is open), ``unseen`` the colours no switch sees. Those are stacked on the others
    when every slot is taken, else lying askew (knocked off their slot)."""

    zone: int
    slots: tuple[int | None, ...]
    unseen: tuple[int, ...] = ()

    @property
    def askew(self) -> bool:
        return bool(self.unseen) and None in self.slots

    def to_json(self) -> dict[str, object]:
        return {
            "zone": self.zone,
            "slots": list(self.slots),
            "unseen": list(self.unseen),
            "askew": self.askew,
        }


def layout_message(
    ledmap: LedMap, geometry: Geometry, style: Style, mode: str, *, sound: bool = False
) -> dict[str, object]:
    """Where the pixels are and what the page may do (``mode``: ``sim`` or ``companion``);
    ``sound``: whether the page plays the cues until its user mutes it."""
    return {
        "type": "layout",
        "mode": mode,
        "length": ledmap.length,
        "zones": {str(zone): list(ledmap.pixels(zone)) for zone in ZONES},
        "areas": {name: list(pixels) for name, pixels in ledmap.areas},
        "slots": {str(zone): geometry.slots(zone) for zone in ZONES},
        "gamma": style.gamma,
        "brightness": style.brightness,
        "keys": {key: [player, button] for key, (player, button) in KEYS.items()},
        "words": page_words(),
        "sound": sound_layout(sound),
    }


def sound_layout(enabled: bool) -> dict[str, object]:
    """The page's sound: on at first or not, the tune of each cue as ``[hz, seconds]`` notes
    (the buzzer's own, :data:`bgpi.present.cues.TUNES`), and the mute switch's words."""
    return {
        "enabled": enabled,
        "tunes": {cue.value: [list(note) for note in pairs(cue)] for cue in Cue},
        "labels": {"on": _("Sound on"), "off": _("Sound off")},
    }


def frame_message(frame: Sequence[RGB] | None) -> dict[str, object]:
    """The strip's pixels as one hex string, six digits a pixel (an empty string: no frame
    written yet)."""
    pixels = bytes(channel for pixel in frame or () for channel in pixel)
    return {"type": "frame", "pixels": pixels.hex()}


def state_message(
    table: Table,
    board: Iterable[ZoneView],
    records: Sequence[Record],
    *,
    hand: Sequence[tuple[Player, int]] = (),
    cues: Sequence[tuple[int, Cue]] = (),
) -> dict[str, object]:
    """Everything but the pixels. ``records`` are the current match's; ``hand`` the
    (colour, zone lifted from) of the checkers held in the simulator's hand; ``cues`` the
    last cues heard with their running numbers (:attr:`bgpi.service.driver.Driver.heard`)."""
    scene = scene_of(table)
    match = table.match
    view = table.mover_view if match.turn is not None else table.position
    return {
        "type": "state",
        "phase": table.phase.value,
        "status": status(table, scene),
        "names": list(players(table.names)),
        "seats": [seat.value for seat in table.seats],
        "turn": match.turn,
        "dice": list(match.dice or ()),
        "dice_left": list(scene.dice_left),
        "opening": list(table.opening),
        "cube": {
            "value": match.cube,
            "owner": match.cube_owner,
            "offered": match.double_offered,
            "available": not match.crawford_game,
        },
        "score": list(match.score),
        "length": match.rules.length,
        "pips": list(table.position.pip_count),
        "prompts": [[player, button, meaning] for player, button, meaning in scene.prompts],
        "alert": scene.alert,
        "resign": {"level": scene.resign, "offered": scene.resign_offered},
        "lifted": sorted(scene.lifted),
        "destinations": sorted(scene.destinations),
        "extra": [list(pair) for pair in scene.extra],
        "missing": [list(pair) for pair in scene.missing],
        "last_play": sorted(scene.last_play),  # the page marks them brighter than the LEDs
        "board": [zone.to_json() for zone in board],
        "hand": [list(held) for held in hand],
        "log": [entry.to_json() for entry in (*log_entries(records), *_mistake_entry(table))],
        "position_id": view.id(),
        "match_id": match.id(),
        "xgid": xgid(table.position, match),
        "clock": clock_message(table),
        "cues": [[number, cue.value] for number, cue in cues],
        "choosing": choosing_message(table),
        "dice_source": dice_message(table),
    }


def dice_message(table: Table) -> dict[str, object]:
    """Where the match's dice come from, why a remote match's are the boards' own, and,
    while dice thrown by hand are entered, whose roll it is (``player``), who enters it
    (``enterer``), how many dice (``count``) and those entered so far."""
    at = table.at
    entering = None
    if isinstance(at, Entering):
        entering = {
            "player": at.player,
            "enterer": enterer(table),
            "count": at.count,
            "entered": list(at.entered),
            "shown": at.shown,
        }
    why = None
    if Seat.REMOTE in table.seats:
        why = _(REMOTE_DICE)
    elif Seat.PERSON not in table.seats:
        why = _(NOBODY_DICE)
    return {
        "source": table.dice.value,
        "words": _(DICE_SOURCES[table.dice]),
        "why": why,
        "entering": entering,
        "throwing": _throwing(table),
    }


def _throwing(table: Table) -> dict[str, object] | None:
    """While GoDice are thrown: whose throw (``player``), how many dice, the last throw
    that must be made again (``again``: die 1 or 2, ``why`` cocked or moved), and who may
    enter this roll by hand on the page instead (``enterer``: the thrower, where the rows
    let his held CUBE do so; else None)."""
    at = table.at
    if not isinstance(at, Rolling) or not at.thrown:
        return None
    again = at.again
    return {
        "player": at.player,
        "count": at.count,
        "again": None if again is None else {"die": again.die, "why": again.why.value},
        "enterer": thrower(table) if entered_instead(table) is not table else None,
    }


def clock_message(table: Table) -> dict[str, object] | None:
    """The match's clock as its last step left it (None: no clock): its setting in words
    (``caption``), whose clock runs, for each player what a clock beside the board shows
    (:func:`clock_shown`), ``paused`` while the sensors are down (the running move stopped
    where it stood: nothing to count), and ``at``, the table's time those figures are true
    at (None: no clock runs, a paused one, or a resumed one that runs again from the next
    event: they are true until then). The page counts
    the running player's on from ``at``, as that clock does: first the part of the move
    that costs no reserve (the simple delay, or the limit of a move), then the reserve. It
    learns how long ago ``at`` was from the state's ``sent``, the table's time when the
    server sent it (:mod:`bgpi.web.server`): a state waits composed as the step left it,
    and a page may connect long after, in the middle of the move."""
    clock = table.clock
    if clock is None:
        return None
    # The time the step left the clock at: the move's time used so far is what it carried
    # (a running move started at ``since``, or one resumed, counts from the next event).
    t = clock.since if clock.since is not None else 0.0
    length, score = table.match.rules.length, table.match.score
    return {
        "mode": clock.rules.mode.value,
        "caption": _("Clock: {clock}").format(clock=clock_words(clock.rules)),
        "running": clock.running,
        "paused": clock.paused,
        "at": clock.since,
        "players": [
            clock_shown(clock, player, t, full_bar(clock, length, score, player))
            for player in PLAYERS
        ],
    }


def clock_shown(clock: Clock, player: Player, t: float, full: float) -> dict[str, object]:
    """What ``player``'s side of the clock shows at ``t``, in seconds: ``limit``, what is
    left of a per-move limit (the whole limit while the opponent's clock runs); ``delay``,
    what is left of the running player's simple delay (a Bronstein delay is not shown: the
    reserve runs at once, and the time used up to it comes back at the press);
    ``reserve``, the reserve, or the overtime a fall gave (``overtime``), which runs once
    the limit or delay is used; ``low``, below how many seconds before the flag falls the
    running side blinks (as the LEDs' bar of ``full`` seconds does)."""
    rules = clock.rules
    running = player == clock.running
    limit = delay = None
    if rules.mode is ClockMode.PER_MOVE:
        limit = clock.delay_left(t) if running else rules.per_move
    elif rules.mode is ClockMode.USBGF and running:
        delay = clock.delay_left(t)
    return {
        "limit": limit,
        "delay": delay,
        "reserve": max(0.0, clock.left(player, t)),
        "overtime": clock.overtime_given[player],
        "low": low_at(clock, full),
    }


def choosing_message(table: Table) -> dict[str, object] | None:
    """While the next match is chosen: the match so far and each option that applies, its
    value in words and whether it is the one the buttons change now; None in any other
    phase."""
    at = table.at
    if not isinstance(at, Choosing):
        return None
    return {
        "match": match_words(at.draft.length),
        "options": [
            {
                "option": option.name.lower(),
                "label": _(option.value),
                "value": option_words(at.draft, option, at.dice, at.clock, at.names),
                "shown": option is at.option,
            }
            for option in options_of(at.draft, named=at.named)
        ],
    }


def _mistake_entry(table: Table) -> tuple[Entry, ...]:
    """The mistake the board shows now, as the log's last line: said once, while it stands."""
    mistake, turn = table.mistake, table.match.turn
    if mistake is None or turn is None:
        return ()
    name = players(table.names)[turn]
    text = _("{name}: {mistake}").format(name=name, mistake=mistake_words(mistake))
    return (Entry(text, turn, "mistake"),)


# -- the checkers -----------------------------------------------------------------------------


def board_of_sim(board: SimBoard) -> tuple[ZoneView, ...]:
    """The simulated board as it is: each checker on the slot whose switch it closes. While
    the board is made to fail (its switches unread), the checkers are drawn as they lie:
    the simulator still knows them, and the page shows the outage in words."""
    try:
        frame: SensorFrame | None = board.read()
    except BackendUnavailableError:
        frame = None
    geometry = board.geometry
    views = []
    for zone in ZONES:
        colours = board.checkers(zone)  # on switches from the base, then stacked or askew
        switches = range(geometry.slots(zone))
        if frame is None:
            closed = [s < len(colours) for s in switches]
        else:
            closed = [frame.closed(geometry.bit_of(zone, s)) for s in switches]
        on = sum(closed)
        held = iter(colours[:on])
        slots = tuple(next(held, UNKNOWN) if is_closed else None for is_closed in closed)
        views.append(ZoneView(zone, slots, tuple(colours[on:])))
    return tuple(views)


def board_of_table(table: Table, geometry: Geometry) -> tuple[ZoneView, ...]:
    """A real board as the table knows it: as many checkers on each zone as its switches see
    (the position's count where none has been seen yet), coloured by the game."""
    expected = counts_of(table.position, WHITE)
    seen = table.observation
    colours = _zone_colours(table)
    views = []
    for zone in ZONES:
        slots = geometry.slots(zone)
        count = expected[zone] if seen is None else seen[zone]
        colour = colours.get(zone, UNKNOWN)
        # Above the slots (and in a tray without switches) only the game knows the count.
        stacked = expected[zone] - slots if count >= slots and expected[zone] > slots else 0
        views.append(
            ZoneView(
                zone,
                tuple(colour if s < count else None for s in range(slots)),
                (colour,) * stacked,
            )
        )
    return tuple(views)


def _zone_colours(table: Table) -> dict[int, int]:
    """The colour of each zone: fixed for the bars and trays, else the position's, else
    the player on roll's (whose checkers are the ones moving onto new points)."""
    colours: dict[int, int] = dict(_FIXED_COLOURS)
    position = table.position
    for colour, side in ((WHITE, position.player), (BLACK, position.opponent)):
        for index, count in enumerate(side):
            if count:
                colours.setdefault(zone_of(colour, index), colour)
    turn = table.match.turn
    if turn is not None:
        for zone in ZONES:
            colours.setdefault(zone, turn)
    return colours
