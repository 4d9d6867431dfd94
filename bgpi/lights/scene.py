"""What the lights show, in game terms: the :class:`Scene`.

The table builds a scene from its state; the renderer (:mod:`bgpi.lights.render`) turns it into
pixel colours. A scene says nothing about pixels, colours or time, so the table never needs to
know how the board is wired or what blinks.

Zones are the board's printed numbering (:mod:`bgpi.base.geometry`): points 1-24, 25 the white
bar, 26 the black bar, 27 the white tray, 28 the black tray. Players are
:class:`~bgpi.base.words.Player` values.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import StrEnum

from bgpi.base.words import (
    BUTTONS,
    COLOUR_NAMES,
    PLAYERS,
    TRAY_BLACK,
    ZONES,
    ButtonName,
    Player,
    zone_name,
)
from bgpi.lights.errors import SceneError


class Meaning(StrEnum):
    """What a press of a button does now; each has its own colour and blink at the button."""

    ROLL = "roll"
    DOUBLE = "double"
    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"
    END_TURN = "end turn"
    CONFIRM = "confirm"
    NEXT = "next"
    CHANGE = "change"
    ACKNOWLEDGE = "acknowledge"
    NEW_GAME = "new game"
    RESIGN = "resign"
    ACCEPT = "accept"
    DECLINE = "decline"
    CLAIM = "claim"  # the match by forfeit, from a silent remote board
    WITHDRAW = "withdraw"  # one's own takeback request, taken back: nothing is declined


class Alert(StrEnum):
    """What the turn lights warn of, over whose turn it is; each has its own colour (the
    palette entry of the same name) and blink."""

    WRONG = "wrong"
    NO_MOVE = "no move"
    GAME_OVER = "game over"
    MATCH_OVER = "match over"
    FAULT = "fault"
    AGAIN = "roll again"  # a GoDice die came to rest cocked or moved: throw both again


Prompt = tuple[Player, ButtonName, Meaning]


@dataclass(frozen=True, slots=True)
class ClockBar:
    """A player's clock as its bar of pixels shows it: ``left`` the share of a full bar (the
    game's reserve, or the overtime once given; a move's limit under a per-move limit) still
    left, from 0 to 1; ``delay`` while the running player's delay runs (the reserve not yet
    touched); ``low`` in the running player's last minute."""

    left: float
    delay: bool = False
    low: bool = False

    def __post_init__(self) -> None:
        left = self.left
        if not isinstance(left, int | float) or isinstance(left, bool) or not 0 <= left <= 1:
            raise SceneError(f"a clock bar's left {left!r} is not a share from 0 to 1")


@dataclass(frozen=True, slots=True)
class Scene:
    """Everything the lights show at one moment. The defaults are a dark board with a centred
    cube at 1 and a score of 0-0 in a money game.

    The constructor refuses what cannot be shown (a zone past 28, a die of 7, a prompt for a
    button that does not exist), naming the field and the value, so a table bug surfaces where
    the scene is built rather than as a wrong light.
    """

    destinations: frozenset[int] = frozenset()  # zones where a lifted checker may land
    lifted: frozenset[int] = frozenset()  # zones a checker was lifted from
    extra: tuple[tuple[int, int], ...] = ()  # (zone, count) checkers to take away
    missing: tuple[tuple[int, int], ...] = ()  # (zone, count) checkers to add
    correct: frozenset[int] = frozenset()  # setup guidance: zones already right
    last_play: frozenset[int] = frozenset()  # zones the opponent's last play touched
    candidate: frozenset[int] = frozenset()  # zones of a play offered for confirmation
    mistake: frozenset[int] = frozenset()  # zones of a mistake just explained, flashed briefly
    turn: Player | None = None  # player on turn, None before the opening roll
    dice: tuple[int, ...] = ()  # the two dice rolled
    dice_left: tuple[int, ...] = ()  # the dice still to play this turn
    opening_dice: tuple[int | None, int | None] = (None, None)  # each player's opening die
    cube_value: int = 1
    cube_owner: Player | None = None  # None = centred
    cube_available: bool = True  # False in the Crawford game
    cube_offered: bool = False  # a double is being offered
    score: tuple[int, int] = (0, 0)
    length: int = 0  # 0 = money game
    prompts: tuple[Prompt, ...] = ()  # (player, button "roll"|"cube", meaning)
    alert: Alert | None = None
    winner: Player | None = None  # winner of the game / match when the alert says so
    resign: int = 0  # the level (1-3) the player on turn is choosing or offers to resign
    resign_offered: bool = False  # offered, not still being chosen
    clocks: tuple[ClockBar | None, ClockBar | None] = (None, None)  # each player's, if clocked

    def __post_init__(self) -> None:
        _check_zones(self)
        if len(self.clocks) != 2 or any(
            bar is not None and not isinstance(bar, ClockBar) for bar in self.clocks
        ):
            raise SceneError(f"clocks {self.clocks!r} are not a ClockBar or None per player")
        _check_counts(self)
        for name in ("turn", "cube_owner", "winner"):
            _check_player(name, getattr(self, name))
        _check_dice(self)
        _check_cube(self)
        _check_score(self)
        _check_prompts(self.prompts)
        if self.resign not in (0, 1, 2, 3) or (self.resign and self.turn is None):
            raise SceneError(
                f"resign {self.resign!r} is not 0 or a level 1-3 of the player on turn"
            )
        if self.alert is not None and not isinstance(self.alert, Alert):
            raise SceneError(f"alert {self.alert!r} is not an Alert ({_members(Alert)})")

    def prompt(self, player: Player, button: ButtonName) -> Meaning | None:
        """The meaning of ``player``'s ``button`` now, or ``None`` when it does nothing."""
        for who, which, meaning in self.prompts:
            if (who, which) == (player, button):
                return meaning
        return None


def _members(kind: type[Alert | Meaning]) -> str:
    return ", ".join(f"{kind.__name__}.{member.name}" for member in kind)


def _check_zone(field: str, zone: object) -> None:
    if type(zone) is not int or zone not in ZONES:
        raise SceneError(
            f"{field} names zone {zone!r}, not a zone 1-{TRAY_BLACK} "
            "(points 1-24, bars 25 white and 26 black, trays 27 white and 28 black)"
        )


def _check_zones(scene: Scene) -> None:
    for name in ("destinations", "lifted", "correct", "last_play", "candidate", "mistake"):
        for zone in getattr(scene, name):
            _check_zone(name, zone)


def _check_counts(scene: Scene) -> None:
    seen: dict[int, str] = {}
    for name in ("extra", "missing"):
        for entry in getattr(scene, name):
            if not isinstance(entry, tuple) or len(entry) != 2:
                raise SceneError(f"{name} holds {entry!r}, not a (zone, count) pair")
            zone, count = entry
            _check_zone(name, zone)
            if type(count) is not int or count < 1:
                raise SceneError(
                    f"{name} gives {zone_name(zone)} a count of {count!r}: a count is 1 or more"
                )
            if zone in seen:
                raise SceneError(
                    f"{zone_name(zone)} is in both {seen[zone]} and {name}"
                    if seen[zone] != name
                    else f"{name} names {zone_name(zone)} twice"
                )
            seen[zone] = name


def _check_player(field: str, player: object) -> None:
    # A Player, or a plain 0/1; a bool or a float is no player.
    is_player = isinstance(player, int) and not isinstance(player, bool) and player in PLAYERS
    if player is not None and not is_player:
        raise SceneError(f"{field} is {player!r}, not 0 (white), 1 (black) or None")


def _check_die(field: str, die: object) -> None:
    if type(die) is not int or not 1 <= die <= 6:
        raise SceneError(f"{field} holds a die of {die!r}, not 1 to 6")


def _check_dice(scene: Scene) -> None:
    if len(scene.dice) not in (0, 2):
        raise SceneError(f"dice {scene.dice!r} are not a roll of two dice (or none)")
    for die in scene.dice:
        _check_die("dice", die)
    for die in scene.dice_left:
        _check_die("dice_left", die)
    if scene.dice and scene.turn is None:
        raise SceneError(
            f"dice {scene.dice!r} are shown on the side of the player on turn: no turn"
        )
    playable = Counter(scene.dice * 2 if scene.dice[:1] * 2 == scene.dice else scene.dice)
    if Counter(scene.dice_left) - playable:
        raise SceneError(f"dice_left {scene.dice_left!r} are not dice of the roll {scene.dice!r}")
    if len(scene.opening_dice) != 2:
        raise SceneError(f"opening_dice {scene.opening_dice!r} are not one per player")
    for opening in scene.opening_dice:
        if opening is not None:
            _check_die("opening_dice", opening)


def _check_cube(scene: Scene) -> None:
    value = scene.cube_value
    if type(value) is not int or value < 1 or value & (value - 1):
        raise SceneError(f"cube_value {value!r} is not a power of two (1, 2, 4, ...)")


def _check_score(scene: Scene) -> None:
    if len(scene.score) != 2 or any(type(s) is not int or s < 0 for s in scene.score):
        raise SceneError(f"score {scene.score!r} is not two counts of points, 0 or more")
    if type(scene.length) is not int or scene.length < 0:
        raise SceneError(f"length {scene.length!r} is not a match length (0 for money)")


def _check_prompts(prompts: tuple[Prompt, ...]) -> None:
    seen: set[tuple[Player, ButtonName]] = set()
    for entry in prompts:
        if not isinstance(entry, tuple) or len(entry) != 3:
            raise SceneError(f"prompt {entry!r} is not (player, button, meaning)")
        player, button, meaning = entry
        _check_player("a prompt's player", player)
        if player is None:
            raise SceneError(f"prompt {entry!r} names no player")
        if button not in BUTTONS:
            raise SceneError(f"prompt {entry!r} names button {button!r}, not one of {BUTTONS}")
        if not isinstance(meaning, Meaning):
            raise SceneError(
                f"prompt {entry!r} means {meaning!r}, not a Meaning ({_members(Meaning)})"
            )
        if (player, button) in seen:
            raise SceneError(f"{COLOUR_NAMES[player]}'s {button} button is prompted twice")
        seen.add((player, button))
