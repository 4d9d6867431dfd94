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
  Match ID, the last cues heard, numbered (the page plays those it has not yet), and while
  the next match is chosen, its options and their values;
- ``frame``, whenever the strip's frame changes: every pixel's colour, as the strip gets it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from bgpi.base.geometry import Geometry
from bgpi.base.i18n import _, ngettext
from bgpi.base.words import (
    BAR_BLACK,
    BAR_WHITE,
    BLACK,
    RGB,
    TRAY_BLACK,
    TRAY_WHITE,
    WHITE,
    ZONES,
    Player,
)
from bgpi.hal.sim import SimBoard
from bgpi.journal.records import Record
from bgpi.lights.ledmap import LedMap
from bgpi.lights.render import Style
from bgpi.lights.scene import Alert, Scene
from bgpi.present.cues import Cue, pairs
from bgpi.present.gamelog import Entry, log_entries
from bgpi.present.leds import scene_of
from bgpi.present.numbering import printed_moves
from bgpi.present.phrases import LEVELS, OPTIONS, SEATS, capitalized, either, players
from bgpi.present.phrases import zone as shown_zone
from bgpi.rules import MatchRules
from bgpi.sensing.board import counts_of, zone_of
from bgpi.sensing.mistakes import Mistake, mistake_words
from bgpi.table import (
    Guided,
    Hold,
    Illegal,
    Phase,
    Resigning,
    ResignPending,
    Rolling,
    Table,
    active_rows,
)
from bgpi.table.buttons import illegal_refused
from bgpi.table.options import Option, options_of, value_of
from bgpi.table.phases import Choosing
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
        "cues": [[number, cue.value] for number, cue in cues],
        "choosing": choosing_message(table),
    }


def choosing_message(table: Table) -> dict[str, object] | None:
    """While the next match is chosen: the match so far and each option that applies, its
    value in words and whether it is the one the buttons change now; None in any other
    phase."""
    at = table.at
    if not isinstance(at, Choosing):
        return None
    return {
        "match": _match_words(at.draft.length),
        "options": [
            {
                "option": option.name.lower(),
                "label": _(option.value),
                "value": option_words(at.draft, option),
                "shown": option is at.option,
            }
            for option in options_of(at.draft)
        ],
    }


def option_words(draft: MatchRules, option: Option) -> str:
    """An option's value as the page says it: the match's kind for the length, on or off
    for a rule, the number for automatic doubles and the cube limit."""
    value = value_of(draft, option)
    if option is Option.LENGTH:
        return _match_words(value)
    if option in _NUMBERS:
        return str(value)
    return _("on") if value else _("off")


def _match_words(length: int) -> str:
    return _("a {length}-point match").format(length=length) if length else _("money play")


def status(table: Table, scene: Scene) -> str:
    """One line saying what the table waits for: the phase's sentence around what each button
    does now, in the words of the table of rows (:mod:`bgpi.table.buttons`); first, a backend
    that stopped answering."""
    if table.faults:
        source, message = table.faults[0]
        fault = _(
            "The {source} stopped answering ({message}): nothing is decided until they are back."
        )
        return fault.format(source=source, message=message)
    rows = active_rows(table)
    words = list(dict.fromkeys(_(row.words) for _player, row in rows if row.hold is Hold.SHORT))
    held = list(dict.fromkeys(_(row.words) for _player, row in rows if row.hold is Hold.HELD))
    mistake = table.mistake
    if mistake is not None and table.phase is Phase.MOVING:
        line = _mistake_line(table, mistake, words)
    elif scene.alert is Alert.WRONG and table.phase is not Phase.ILLEGAL:
        line = _("The board is wrong: take away what blinks red, add where blue winks.")
        if words:
            line += " " + _("Or {choices}.").format(choices=_either(words))
        if table.phase is Phase.ROLLING:
            line = f"{_rolling(table, scene, words)} {line}"
    else:
        line = _SENTENCES[table.phase](table, scene, words)
    if illegal_refused(table):  # whatever the mistake, ROLL cannot end this turn: say why
        line += " " + _(
            "Against a remote board an illegal play is always corrected: the other board"
            " cannot check it, so only a legal play is sent."
        )
    if table.hint is not None:  # the engine's hint a person asked for, while it holds
        line = _("{line} Hint for {name}: {hint}.").format(
            line=line, name=_names(table)[table.hint.player], hint=table.hint.words()
        )
    # Held meanings have no light of their own (the button shows its short one): say them.
    if not held:
        return line
    also = "; ".join(held)
    return f"{line} {capitalized(also)}."


def _mistake_line(table: Table, mistake: Mistake, words: Sequence[str]) -> str:
    """The board's mistake in game words (:mod:`bgpi.sensing.mistakes`), and what a button
    still does (ending the turn as it stands, where the rules allow it)."""
    dice = "-".join(str(d) for d in sorted(table.match.dice or (), reverse=True))
    line = _("{name} plays {dice}: {mistake}.").format(
        name=_on_roll(table), dice=dice, mistake=mistake_words(mistake)
    )
    return f"{line} {_('Or {choices}.').format(choices=_either(words))}" if words else line


def _mistake_entry(table: Table) -> tuple[Entry, ...]:
    """The mistake the board shows now, as the log's last line: said once, while it stands."""
    mistake, turn = table.mistake, table.match.turn
    if mistake is None or turn is None:
        return ()
    text = _("{name}: {mistake}").format(name=_names(table)[turn], mistake=mistake_words(mistake))
    return (Entry(text, turn, "mistake"),)


def _either(words: Sequence[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    return either(words)


def _setup(table: Table, scene: Scene, words: Sequence[str]) -> str:
    return _("Set up the board: blue winks where checkers are missing.")


def _opening(table: Table, scene: Scene, words: Sequence[str]) -> str:
    return _("Opening roll: each player {choices}.").format(choices=_either(words))


def _before_roll(table: Table, scene: Scene, words: Sequence[str]) -> str:
    return _("{name} {choices}.").format(name=_on_roll(table), choices=_either(words))


def _rolling(table: Table, scene: Scene, words: Sequence[str]) -> str:
    at = table.at
    assert isinstance(at, Rolling)
    name = _names(table)[at.player]
    if at.count == 1:
        return _(
            "{name} rolls the opening die: it is drawn with the other board, waiting for its half."
        ).format(name=name)
    return _("{name} rolls: the dice are drawn with the other board, waiting for its half.").format(
        name=name
    )


def _doubled(table: Table, scene: Scene, words: Sequence[str]) -> str:
    turn = _turn(table)
    name, other = _names(table)[turn], _names(table)[turn.other]
    line = _("{name} doubles: {other} {choices}.")
    return line.format(name=name, other=other, choices=_either(words))


def _confirm(table: Table, scene: Scene, words: Sequence[str]) -> str:
    line = _("Which play did {name} make? {choices}.")
    return line.format(name=_on_roll(table), choices=", ".join(words))


def _moving(table: Table, scene: Scene, words: Sequence[str]) -> str:
    name = _on_roll(table)
    dice = "-".join(str(d) for d in sorted(table.match.dice or (), reverse=True))
    if scene.alert is Alert.NO_MOVE:
        line = _("{name} rolled {dice} and cannot move: {choices}.")
        return line.format(name=name, dice=dice, choices=_either(words))
    if words:
        line = _("{name} has played {dice}: {choices}.")
        return line.format(name=name, dice=dice, choices=_either(words))
    return _("{name} plays {dice}: lift a checker to see where it may go.").format(
        name=name, dice=dice
    )


def _guided(table: Table, scene: Scene, words: Sequence[str]) -> str:
    at, turn = table.at, _turn(table)
    assert isinstance(at, Guided)
    seat = _(SEATS[table.seats[turn]])
    dice = "-".join(str(d) for d in sorted(table.match.dice or (), reverse=True))
    moves = printed_moves(turn, at.moves) or _("no move")
    chosen = _("{name} ({seat}) plays {dice}: {moves}.").format(
        name=_names(table)[turn], seat=seat, dice=dice, moves=moves
    )
    move = at.next_move
    if move is None:
        return chosen
    src, dst = shown_zone(zone_of(turn, move.src)), shown_zone(zone_of(turn, move.dst))
    step = _("Move {number} of {count}: from {source} (blinking) to {destination}.")
    line = f"{chosen} " + step.format(
        number=at.done + 1, count=len(at.moves), source=src, destination=dst
    )
    # A move the switches cannot see waits for the person's word, which the rows give.
    return f"{line} {capitalized(_either(words))}." if words else line


def _resigning(table: Table, scene: Scene, words: Sequence[str]) -> str:
    at, turn = table.at, _turn(table)
    assert isinstance(at, Resigning | ResignPending)
    level = _(LEVELS[at.level])
    points = int(at.level) * table.match.cube
    worth = ngettext("a {level} ({points} point)", "a {level} ({points} points)", points).format(
        level=level, points=points
    )
    name, other = _names(table)[turn], _names(table)[turn.other]
    if isinstance(at, Resigning):
        line = _("{name} resigns {worth}? {choices}.")
        return line.format(name=name, worth=worth, choices=", ".join(words))
    line = _("{name} offers to resign {worth}: {other} {choices}.")
    return line.format(name=name, worth=worth, other=other, choices=_either(words))


def _illegal(table: Table, scene: Scene, words: Sequence[str]) -> str:
    at, turn = table.at, _turn(table)
    assert isinstance(at, Illegal)
    name, other = _names(table)[turn], _names(table)[turn.other]
    line = _("{name} ended the turn on an illegal play (it blinks): {other} {choices}.").format(
        name=name, other=other, choices=_either(words)
    )
    if at.after is None:
        line += " " + _("The switches cannot tell where the checkers are: it must be corrected.")
    mistake = table.mistake
    if mistake is not None:
        line += " " + _("The mistake: {mistake}.").format(mistake=mistake_words(mistake))
    return line


def _choosing(table: Table, scene: Scene, words: Sequence[str]) -> str:
    at = table.at
    assert isinstance(at, Choosing)
    shown = option_words(at.draft, at.option)
    line = _("The next match: {option} {value}. {choices}.")
    return line.format(option=_(OPTIONS[at.option]), value=shown, choices=", ".join(words))


_NUMBERS: Final = (Option.AUTOMATIC, Option.LIMIT)


def _over(table: Table, scene: Scene, words: Sequence[str]) -> str:
    winner = scene.winner
    who = _names(table)[winner] if winner is not None else _("Nobody")
    (white, black), score = _names(table), table.match.score
    if table.phase is Phase.MATCH_OVER:
        line = _("{name} wins the match: {white} {white_score}, {black} {black_score}. {choices}.")
    else:
        line = _("{name} wins the game: {white} {white_score}, {black} {black_score}. {choices}.")
    return line.format(
        name=who,
        white=white,
        white_score=score[0],
        black=black,
        black_score=score[1],
        choices=_either(words),
    )


def _turn(table: Table) -> Player:
    turn = table.match.turn
    assert turn is not None
    return turn


def _on_roll(table: Table) -> str:
    return _names(table)[_turn(table)]


def _names(table: Table) -> tuple[str, str]:
    return players(table.names)


_SENTENCES: Final[dict[Phase, Callable[[Table, Scene, Sequence[str]], str]]] = {
    Phase.SETUP: _setup,
    Phase.OPENING: _opening,
    Phase.BEFORE_ROLL: _before_roll,
    Phase.ROLLING: _rolling,
    Phase.DOUBLED: _doubled,
    Phase.MOVING: _moving,
    Phase.CONFIRM: _confirm,
    Phase.GUIDED: _guided,
    Phase.RESIGNING: _resigning,
    Phase.RESIGN_OFFERED: _resigning,
    Phase.ILLEGAL: _illegal,
    Phase.CHOOSING: _choosing,
    Phase.ENDING: _setup,  # never shown: the end of the game follows in the same step
    Phase.GAME_OVER: _over,
    Phase.MATCH_OVER: _over,
}


# -- the checkers -----------------------------------------------------------------------------


def board_of_sim(board: SimBoard) -> tuple[ZoneView, ...]:
    """The simulated board as it is: each checker on the slot whose switch it closes."""
    frame = board.read()
    geometry = board.geometry
    views = []
    for zone in ZONES:
        colours = board.checkers(zone)  # on switches from the base, then stacked or askew
        closed = [frame.closed(geometry.bit_of(zone, s)) for s in range(geometry.slots(zone))]
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
