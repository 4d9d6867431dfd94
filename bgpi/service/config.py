"""The configuration: one TOML file, every key with a default, checked on load.

An empty file runs the simulator. A bad file is refused with :class:`ConfigError` naming the
file, the key and why: an unknown key (a typo must not be silently ignored), a wrong type, a
value out of range, a pin used twice, an LED map that overlaps or runs past the strip; and
before any of that, a file that is no config at all (over a megabyte, not UTF-8, not TOML,
arrays or tables nested past :data:`MAX_NESTING`).

Sections and keys (defaults in brackets)::

    [sensors]  backend ["sim"] (sim | gpio | serial), point_slots [6], bar_slots [4],
               tray_slots [0], settle_ms [40], scan_hz [200], port ["/dev/bgpi-scanner"],
               unused [[]]: chain inputs wired to no switch (only with a map)
    [[sensors.map]] bit, zone ("point 3", "white bar"...), slot: one per switch, the builder's
               wiring (see hardware/geometry.md; bgpi calibrate writes it); default: the
               order of Geometry.default
    [buttons]  backend ["sim"] (sim | gpio), bounce_ms [20], long_press_ms [800]
    [leds]     backend ["sim"] (sim | neopixel), wiring ["spi"] (spi | pwm),
               brightness [0.5], gamma [2.2], max_current_ma [2000], pixel_order ["GRB"]
               (any order of RGB, or of RGBW for an RGBW strip)
    [leds.map]      a custom LED map (see bgpi.lights.ledmap); default: the built-in routing
    [leds.palette]  meaning = [r, g, b], to recolour a meaning
    [pins]     sensor_clock, sensor_data, sensor_select, sensor_latch, led_data,
               white_roll, white_cube, black_roll, black_cube (BCM numbers; see hardware/pins.md;
               led_data is an SPI MOSI, 20 or 10, for wiring "spi", a PWM pin for "pwm")
    [rules]    length [5] (0: money), crawford [true], jacoby [false], beaver [false],
               automatic_doubles [0], cube_limit [64]
    [clock]    mode ["off"] (off | usbgf | bronstein | per-move), per_move_s [12] (the
               delay, or the per-move limit), overtime_s [0] (given once when a flag falls;
               0: a fall loses the match): the match's clock (also chosen at the board)
    [players]  white ["White"], black ["Black"], site ["bgpi"] (the .mat's [Site] line),
               roster [[]]: the club's players (at most 25 names of up to 40 characters,
               each once); with one, the players choose each side's between matches at the
               board ("White"/"Black": nobody in particular), white and black the first shown
    [dice]     source ["electronic"] (electronic | entered | godice): the board rolls, or the
               players throw their own dice and enter them (buttons, phone) or throw two
               GoDice the board reads; the players may choose again between matches (a remote
               match always rolls the boards' commit-reveal dice; a board with no person at
               it, the board's dice); first [""], second [""]: the GoDice pair's Bluetooth
               addresses (AA:BB:CC:DD:EE:FF), which `bgpi dice pair` writes; godice needs them
    [seats]    white ["person"], black ["person"] (person | gnubg | gnubg:LEVEL | demo),
               timeout_s [60]: who plays each side, and the longest the engine may think;
               takeback_wait_s [2] (0, or from buttons.long_press_ms to 60): how long the
               computer waits after a person's play before it rolls or doubles, the time to
               hold ROLL and take the play back (0: it rolls at once, leaving no time to ask);
               analyse [true]: gnubg rates each game as it ends (where it is installed);
               white_hints [false], black_hints [false]: a person playing that side may ask
               gnubg for hints with a held button, at hint_level ["expert"]
    [state]    dir (default: $STATE_DIRECTORY, else $XDG_STATE_HOME/bgpi, else ~/.local/state/bgpi)
    [web]      enabled [true], host ["127.0.0.1"], port [8421]: the companion page of bgpi run
    [sound]    enabled [false]: the dice, a hit, "your turn" and a refused move heard, on the
               page and, with buzzer_pin, on the board; buzzer_pin [none] (a BCM number,
               hardware/pins.md suggests 27), buzzer ["passive"] (passive: a piezo played at
               each note's pitch; active: a buzzer with its own tone, switched on and off)
    [display]  language ["auto"] (auto | a code of bgpi.base.i18n.Language): the players'
               language; auto takes it from the locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG),
               else English
    [remote]   broker [""] (mqtt://HOST[:PORT] or mqtts://…), username [""], password [""],
               ca_file [""], match [""] (the code both boards share), side ["white"],
               club [""] (the club `bgpi run` publishes each finished match to, with a
               broker and no match code a club's board; `--club` for the others),
               patience [300] (seconds the other board may owe a message in silence
               before the match is offered here as won by forfeit): see docs/remote.md
"""

from __future__ import annotations

import enum
import ipaddress
import os
import re
import reprlib
import tomllib
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from enum import Enum
from pathlib import Path
from typing import Any, Final

from bgpi.base.errors import BgpiError
from bgpi.base.geometry import Geometry
from bgpi.base.i18n import AUTO, CHOICES, _
from bgpi.base.wiringmap import SlotCounts, WiringMapError, map_toml, parse_map, unused_toml
from bgpi.base.words import PLAYERS, Player
from bgpi.hal.neopixel import pixel_order_error
from bgpi.hal.pins import PinMap, buzzer_pin_error, led_pin_error
from bgpi.hal.registry import Kind, names
from bgpi.journal.records import ELECTRONIC, DiceSource, MatchStarted, Seat
from bgpi.lights.ledmap import LedMap
from bgpi.lights.render import Style, check_power
from bgpi.rules import MatchRules
from bgpi.rules.clock import NO_CLOCK, ClockMode, ClockRules
from bgpi.table.options import NOBODY, ROSTER_MAX
from bgpi.table.phases import TAKEBACK_WAIT

MAX_BYTES: Final = 1 << 20  # a config is a few kilobytes: a megabyte is no config
MAX_NESTING: Final = 16  # arrays and tables within each other; the deepest real one is 5
MAX_PIXELS: Final = 10_000  # the board has 244; a map is built pixel by pixel
MAX_SAID: Final = 400  # characters of a key or a reason in one error line

# A value as an error shows it: a few dozen characters, however long or deep it is.
_SHORT: Final = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 60
_SHORT.maxlevel, _SHORT.maxlist, _SHORT.maxdict = 3, 6, 4


class ConfigError(BgpiError, ValueError):
    """A configuration file that cannot be used: names the file, the key and why, on one
    line of bounded length whatever the file holds."""

    def __init__(self, source: str, key: str, why: str) -> None:
        key, why = _one_line(key), _one_line(why)
        super().__init__(f"{source}: {key}: {why}")
        self.source, self.key, self.why = source, key, why


def _one_line(text: str) -> str:
    """``text`` with its control characters shown as escapes (a line break as ``\\n``, a
    terminal's escape as ``\\x1b``), cut to :data:`MAX_SAID` characters."""
    text = text.translate(_VISIBLE)
    return text if len(text) <= MAX_SAID else text[: MAX_SAID - 1] + "…"


_VISIBLE: Final = str.maketrans(
    {chr(code): repr(chr(code))[1:-1] for code in (*range(0x20), *range(0x7F, 0xA0))}
)


@dataclass(frozen=True, slots=True)
class SensorsConfig:
    backend: str = "sim"
    point_slots: int = 6
    bar_slots: int = 4
    tray_slots: int = 0
    settle_ms: int = 40
    scan_hz: float = 200.0
    port: str = "/dev/bgpi-scanner"


@dataclass(frozen=True, slots=True)
class ButtonsConfig:
    backend: str = "sim"
    bounce_ms: int = 20
    long_press_ms: int = 800


@dataclass(frozen=True, slots=True)
class LedsConfig:
    backend: str = "sim"
    wiring: str = "spi"
    brightness: float = 0.5
    gamma: float = 2.2
    max_current_ma: int = 2000
    pixel_order: str = "GRB"


@dataclass(frozen=True, slots=True)
class RulesConfig:
    length: int = 5
    crawford: bool = True
    jacoby: bool = False
    beaver: bool = False
    automatic_doubles: int = 0
    cube_limit: int = 64
    demand_correction: bool = False  # never let an illegal play be accepted (beginners)


ADDRESS: Final = re.compile(r"[0-9A-F]{2}(:[0-9A-F]{2}){5}")
"""A Bluetooth device address as BlueZ writes it (the Pi's bleak): six pairs of hex digits."""


@dataclass(frozen=True, slots=True)
class DiceConfig:
    """Where the dice come from, until the players choose otherwise at the board; the GoDice
    pair's addresses (die 1 and die 2, as ``bgpi dice pair`` wrote them)."""

    source: DiceSource = ELECTRONIC
    first: str = ""
    second: str = ""

    @property
    def paired(self) -> tuple[str, str] | None:
        """The pair's addresses, if both are given."""
        return (self.first, self.second) if self.first and self.second else None


def _check_dice(source: str, dice: DiceConfig, seats: SeatsConfig) -> None:
    """Refuse dice the board cannot read: a GoDice address that is none, the same die twice,
    GoDice not paired; and dice thrown by hand where nobody sits to throw them."""
    for key in ("first", "second"):
        address = getattr(dice, key)
        if address and not ADDRESS.fullmatch(address.upper()):
            why = _(
                "{value} is not a Bluetooth address: six pairs of hex digits, AA:BB:CC:DD:EE:FF"
                " (bgpi dice pair writes them)"
            )
            raise ConfigError(source, f"dice.{key}", why.format(value=_SHORT.repr(address)))
    if dice.first and dice.first.upper() == dice.second.upper():
        raise ConfigError(source, "dice.second", _("is the same die as dice.first"))
    if dice.source is DiceSource.GODICE and dice.paired is None:
        why = _("godice needs the two dice paired to the board: run bgpi dice pair")
        raise ConfigError(source, "dice.source", why)
    if dice.source.physical and "person" not in (seats.white, seats.black):
        why = _(
            "{source} dice are thrown by hand, but nobody sits at this board to throw them"
            " (seats.white and seats.black are both the engine): electronic, or a person"
            " in a seat"
        )
        raise ConfigError(source, "dice.source", why.format(source=dice.source.value))


@dataclass(frozen=True, slots=True)
class PlayersConfig:
    white: str = "White"
    black: str = "Black"
    site: str = "bgpi"  # the .mat's [Site] line: the club or the event
    roster: tuple[str, ...] = ()  # the club's players, chosen from at the board


NAME_MAX: Final = 40
"""The longest name a roster holds: the status line and the page's table say it whole."""


def _check_roster(source: str, players: PlayersConfig, seats: SeatsConfig) -> None:
    """Refuse a roster the board could not offer: a name not text, empty, too long, with a
    control character (a line break would break the status line), given twice (the
    players could not tell them apart) or a colour's (that stands for nobody in
    particular); and the default name of a side a person plays that the roster does not
    hold (the engine's is its own)."""
    roster = players.roster
    if len(roster) > ROSTER_MAX:
        why = _("has {count} names, at most {most}").format(count=len(roster), most=ROSTER_MAX)
        raise ConfigError(source, "players.roster", why)
    for name in roster:
        why = _roster_name_error(name, roster)
        if why:
            raise ConfigError(source, "players.roster", f"{_SHORT.repr(name)}: {why}")
    sides = (("white", players.white, seats.white), ("black", players.black, seats.black))
    for (key, name, seat), nobody in zip(sides, NOBODY, strict=True):
        if roster and seat == "person" and name != nobody and name not in roster:
            why = _("is {name}, not in players.roster (nor {nobody}, nobody in particular)")
            raise ConfigError(
                source, f"players.{key}", why.format(name=_SHORT.repr(name), nobody=nobody)
            )
    if roster and players.white == players.black:
        why = _("is players.white's name too: one person cannot play both sides")
        raise ConfigError(source, "players.black", why)


def _roster_name_error(name: object, roster: tuple[str, ...]) -> str:
    if not isinstance(name, str):
        return _("a name is text, not {type}").format(type=type(name).__name__)
    if not name.strip() or len(name) > NAME_MAX:
        return _("a name has 1 to {most} characters").format(most=NAME_MAX)
    if any(unicodedata.category(c).startswith("C") for c in name):
        return _("a name has no control characters")
    if roster.count(name) > 1:
        return _("given twice")
    if name in NOBODY:
        return _("stands for nobody in particular; give a person's name")
    return ""


@dataclass(frozen=True, slots=True)
class SeatsConfig:
    """Who plays each side: a person at the board, gnubg at a level, or the simple engine."""

    white: str = "person"
    black: str = "person"
    timeout_s: float = 60.0
    # The computer answers in milliseconds: after a person's play it waits this long for a
    # takeback asked (a held ROLL) before it rolls or doubles.
    takeback_wait_s: float = TAKEBACK_WAIT
    analyse: bool = True  # gnubg rates each game as it ends, where gnubg is installed
    # A person at the board playing that side may ask gnubg (at hint_level) for a hint.
    white_hints: bool = False
    black_hints: bool = False
    hint_level: str = "expert"

    def __post_init__(self) -> None:
        for side in (self.white, self.black):
            if side != "person":  # two people need nothing of the engine, not even its import
                from bgpi.engine.seats import Seat  # noqa: PLC0415

                Seat.parse(side)
        if self.hints:
            from bgpi.engine.levels import Level  # noqa: PLC0415

            try:
                Level.parse(self.hint_level)
            except ValueError as exc:
                raise ValueError(f"hint_level: {exc}") from None

    @property
    def hints(self) -> frozenset[Player]:
        """The players who may ask for hints."""
        wanted = (self.white_hints, self.black_hints)
        return frozenset(p for p, on in zip(PLAYERS, wanted, strict=True) if on)

    def chosen(self) -> tuple[Seat, Seat]:
        """Each side's seat in the match record: a person, or the engine."""
        return (_seat_of(self.white), _seat_of(self.black))


def _seat_of(text: str) -> Seat:
    if text == "person":  # the common case, without importing the engine
        return Seat.PERSON
    from bgpi.engine.seats import Seat as Player  # noqa: PLC0415 (the engine where it is used)

    return Seat.PERSON if Player.parse(text).kind.value == "person" else Seat.ENGINE


@dataclass(frozen=True, slots=True)
class StateConfig:
    dir: str = ""


@dataclass(frozen=True, slots=True)
class WebConfig:
    """The page that ``bgpi run`` serves as a companion display (``bgpi sim`` always serves
    it). Bound to anything but 127.0.0.1 it asks for the token it prints."""

    enabled: bool = True
    host: str = "127.0.0.1"
    port: int = 8421


@dataclass(frozen=True, slots=True)
class DisplayConfig:
    """What the players read: the page, the prompts, the log and the command line's messages
    (:mod:`bgpi.base.i18n`)."""

    language: str = AUTO


@dataclass(frozen=True, slots=True)
class ClockConfig:
    """The clock of a match (money play has none): the U.S. Backgammon Clock Rules
    (``usbgf``), a Bronstein delay, or a plain limit per move."""

    mode: str = "off"
    per_move_s: float = 12.0  # the delay per move, or the per-move limit
    overtime_s: float = 0.0  # given once when a flag falls; 0: the fall ends the match

    def rules(self) -> ClockRules:
        return ClockRules(ClockMode(self.mode), self.per_move_s, self.overtime_s)


@dataclass(frozen=True, slots=True)
class SoundConfig:
    """The cues (bgpi.present.cues): off by default. The page plays them once its user has
    touched it (browsers allow sound no sooner) and has a mute switch; the board plays them on
    a buzzer only if ``buzzer_pin`` is given and the buttons are on the Pi's GPIO (``[buttons]
    backend = "gpio"``): the simulator sounds nothing on hardware."""

    enabled: bool = False
    buzzer_pin: int | None = None
    buzzer: str = "passive"


@dataclass(frozen=True, slots=True)
class RemoteConfig:
    """A match against another board over an MQTT broker (docs/remote.md); the command
    line's ``--remote``, ``--match``, ``--side`` and ``--club`` win over these."""

    broker: str = ""
    username: str = ""
    password: str = ""
    ca_file: str = ""  # mqtts: a CA certificate of one's own instead of the system's
    match: str = ""
    side: str = "white"
    club: str = ""
    # Seconds the other board may owe a message (its reveal, its decision) and say nothing
    # before the person here is offered the match by forfeit; a person thinking long at the
    # other board is silent too, so the default is generous: the offer is only an offer.
    patience: float = 300.0


class Network(enum.IntEnum):
    """What of the network a config asks for, least first (the service's unit gives none:
    :mod:`bgpi.service.unit`)."""

    NONE = 0
    LOOPBACK = 1  # this machine's own addresses: the page or the broker on 127.0.0.1
    ANY = 2  # a broker elsewhere, or the page for the phones on the network


@dataclass(frozen=True, slots=True)
class Config:
    """The whole configuration, checked."""

    sensors: SensorsConfig = field(default_factory=SensorsConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    leds: LedsConfig = field(default_factory=LedsConfig)
    pins: PinMap = field(default_factory=PinMap)
    rules: RulesConfig = field(default_factory=RulesConfig)
    players: PlayersConfig = field(default_factory=PlayersConfig)
    seats: SeatsConfig = field(default_factory=SeatsConfig)
    dice: DiceConfig = field(default_factory=DiceConfig)
    state: StateConfig = field(default_factory=StateConfig)
    web: WebConfig = field(default_factory=WebConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    remote: RemoteConfig = field(default_factory=RemoteConfig)
    sound: SoundConfig = field(default_factory=SoundConfig)
    clock: ClockConfig = field(default_factory=ClockConfig)
    ledmap: LedMap = field(default_factory=LedMap.default)
    style: Style = field(default_factory=Style)
    source: str = "(defaults)"
    wiring: Geometry | None = None  # the builder's [[sensors.map]]; None: the default order

    def __post_init__(self) -> None:
        s, g = self.sensors, self.wiring
        if g is not None and (g.point_slots, g.bar_slots, g.tray_slots) != (
            s.point_slots,
            s.bar_slots,
            s.tray_slots,
        ):
            raise ValueError(_("the wiring map was built for other slot counts than [sensors]"))

    @property
    def geometry(self) -> Geometry:
        """The sensor map every backend and the table read frames by."""
        if self.wiring is not None:
            return self.wiring
        s = self.sensors
        return Geometry.default(
            point_slots=s.point_slots, bar_slots=s.bar_slots, tray_slots=s.tray_slots
        )

    def match_record(self) -> MatchStarted:
        r = self.rules
        rules = MatchRules(
            r.length, r.crawford, r.jacoby, r.beaver, r.automatic_doubles, r.cube_limit
        )
        names = (self.players.white, self.players.black)
        clock = self.clock.rules() if r.length else NO_CLOCK
        return MatchStarted.of(rules, names, self.seats.chosen(), clock, self.dice.source)

    def network(self) -> tuple[Network, str]:
        """What of the network this config needs, and the key that asks for the most."""
        asked = [(Network.NONE, "")]
        if self.web.enabled:
            asked.append((_reach(self.web.host), "web.host"))
        if self.remote.broker:
            from bgpi.remote.broker import Broker  # noqa: PLC0415 (a remote board only)

            asked.append((_reach(Broker.parse(self.remote.broker).host), "remote.broker"))
        return max(asked, key=lambda need: need[0])

    def state_dir(self, override: str | Path | None = None) -> Path:
        """Where the journal lives: the command line's choice, the config's, systemd's
        StateDirectory, or the user's XDG state directory."""
        chosen = override or self.state.dir or os.environ.get("STATE_DIRECTORY", "")
        if chosen:
            return Path(chosen).expanduser()
        xdg = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
        return Path(xdg) / "bgpi"


def _reach(host: str) -> Network:
    """What reaching (or serving on) ``host`` takes: a name may resolve to anywhere."""
    if host == "localhost":
        return Network.LOOPBACK
    try:
        loopback = ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return Network.ANY
    return Network.LOOPBACK if loopback else Network.ANY


# -- loading --------------------------------------------------------------------------------

_CHOICES = {
    ("sensors", "backend"): names(Kind.SENSORS),
    ("buttons", "backend"): names(Kind.BUTTONS),
    ("leds", "backend"): names(Kind.PIXELS),
    ("leds", "wiring"): ("spi", "pwm"),
    ("remote", "side"): ("white", "black"),
    ("display", "language"): CHOICES,
    ("sound", "buzzer"): ("passive", "active"),
    ("clock", "mode"): tuple(mode.value for mode in ClockMode),
}
# Keys with no default value (None: not given), and the type a given one has.
_OPTIONAL: dict[tuple[str, str], type[Any]] = {("sound", "buzzer_pin"): int}
_RANGES: dict[tuple[str, str], tuple[float, float]] = {
    ("sensors", "point_slots"): (1, 15),
    ("sensors", "bar_slots"): (1, 15),
    ("sensors", "tray_slots"): (0, 15),
    ("sensors", "settle_ms"): (0, 2000),
    ("sensors", "scan_hz"): (10, 5000),
    ("buttons", "bounce_ms"): (0, 500),
    ("buttons", "long_press_ms"): (100, 10000),
    ("leds", "brightness"): (0.0, 1.0),
    ("leds", "gamma"): (1.0, 4.0),
    ("leds", "max_current_ma"): (100, 100_000),
    ("rules", "length"): (0, 99),
    ("rules", "automatic_doubles"): (0, 6),
    ("rules", "cube_limit"): (2, 64),
    ("web", "port"): (0, 65535),  # 0: any free port
    ("seats", "timeout_s"): (1, 3600),
    ("seats", "takeback_wait_s"): (0, 60),  # a minute is already a long look at a play
    ("clock", "per_move_s"): (0, 3600),
    ("clock", "overtime_s"): (0, 36000),
    ("remote", "patience"): (5, 86400),  # above the 4 s in which a silence shows as a fault
}
_SECTIONS: dict[str, type[Any]] = {
    "sensors": SensorsConfig,
    "buttons": ButtonsConfig,
    "leds": LedsConfig,
    "pins": PinMap,
    "rules": RulesConfig,
    "players": PlayersConfig,
    "seats": SeatsConfig,
    "dice": DiceConfig,
    "state": StateConfig,
    "web": WebConfig,
    "display": DisplayConfig,
    "remote": RemoteConfig,
    "sound": SoundConfig,
    "clock": ClockConfig,
}


def load(path: str | Path | None) -> Config:
    """Read and check a config file; None or an empty file gives the defaults."""
    if path is None:
        return Config()
    source = str(path)
    try:
        with open(path, "rb") as file:
            raw = file.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise ConfigError(source, "(file)", _("no such file")) from None
    except IsADirectoryError:
        raise ConfigError(source, "(file)", _("is a directory, not a TOML file")) from None
    except PermissionError:
        raise ConfigError(source, "(file)", _("cannot be read: permission denied")) from None
    if len(raw) > MAX_BYTES:
        raise ConfigError(source, "(file)", _("is over a megabyte: not a config file"))
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ConfigError(
            source, "(file)", _("is not UTF-8 text (byte {byte})").format(byte=exc.start)
        ) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(source, "(syntax)", str(exc)) from None
    except RecursionError:  # tomllib recurses into each array and inline table
        raise ConfigError(source, "(syntax)", _nested_too_deep()) from None
    if _nesting(data) > MAX_NESTING:  # dotted keys nest tables without recursing
        raise ConfigError(source, "(syntax)", _nested_too_deep())
    return parse(data, source)


def _nested_too_deep() -> str:
    return _("arrays or tables nested more than {most} deep").format(most=MAX_NESTING)


def _nesting(data: object) -> int:
    """How deep the arrays and tables of ``data`` nest (without recursing: it may be deep)."""
    deepest = 0
    stack = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(value, dict):
            stack.extend((item, depth + 1) for item in value.values())
        elif isinstance(value, list):
            stack.extend((item, depth + 1) for item in value)
    return deepest


def parse(data: Mapping[str, Any], source: str = "(config)") -> Config:
    """Check a parsed TOML document and build the config."""
    for name in data:
        if name not in _SECTIONS:
            known = ", ".join(_SECTIONS)
            raise ConfigError(
                source, name, _("unknown section; known: {known}").format(known=known)
            )
    sections = {name: _section(source, name, data.get(name, {})) for name in _SECTIONS}
    _check_strip(source, sections["leds"], sections["pins"])
    _check_buzzer(source, sections["sound"], sections["leds"], sections["pins"])
    leds = data.get("leds", {})
    ledmap = _guard(source, "leds.map", lambda: _ledmap(leds.get("map")))
    style = _guard(source, "leds", lambda: _style(sections["leds"], leds.get("palette")))
    # A budget below what the strip draws dark would only fail at the first frame.
    _guard(source, "leds.max_current_ma", lambda: check_power(ledmap, style))
    wiring = _wiring(source, sections["sensors"], data.get("sensors", {}))
    config = Config(**sections, ledmap=ledmap, style=style, source=source, wiring=wiring)
    _guard(source, "rules", config.match_record)
    _check_dice(source, config.dice, config.seats)
    _check_roster(source, config.players, config.seats)
    _check_takeback_wait(source, config.seats, config.buttons)
    _check_remote(source, config.remote)
    return config


def _check_takeback_wait(source: str, seats: SeatsConfig, buttons: ButtonsConfig) -> None:
    """Refuse a wait shorter than the held press that asks for a takeback: the computer
    would roll before any ROLL held from the play's end could ask (0 turns the wait off)."""
    wait = seats.takeback_wait_s
    if 0 < wait * 1000 < buttons.long_press_ms:
        why = _(
            "is {wait} s, shorter than buttons.long_press_ms ({press} ms): the computer would"
            " roll before a held ROLL could ask for a takeback (0: it does not wait)"
        )
        raise ConfigError(
            source, "seats.takeback_wait_s", why.format(wait=wait, press=buttons.long_press_ms)
        )


def _check_strip(source: str, leds: LedsConfig, pins: PinMap) -> None:
    """Refuse a strip ``bgpi run`` could not drive, here rather than in a restart loop."""
    if pixel_order_error(leds.pixel_order):
        raise ConfigError(source, "leds.pixel_order", pixel_order_error(leds.pixel_order))
    # The pin matters only to the real strip, but a config is checked before it is used.
    if led_pin_error(leds.wiring, pins.led_data):
        raise ConfigError(
            source, "pins.led_data", f"{led_pin_error(leds.wiring, pins.led_data)} (leds.wiring)"
        )


def _check_buzzer(source: str, sound: SoundConfig, leds: LedsConfig, pins: PinMap) -> None:
    """Refuse a buzzer pin that another part of the board already uses."""
    if sound.buzzer_pin is None:
        return
    why = buzzer_pin_error(sound.buzzer_pin, pins, leds.wiring)
    if why:
        raise ConfigError(source, "sound.buzzer_pin", why)


def _check_remote(source: str, remote: RemoteConfig) -> None:
    from bgpi.remote.broker import Broker  # noqa: PLC0415 (only a remote board needs it)
    from bgpi.remote.pairing import normalize  # noqa: PLC0415

    if remote.broker:
        _guard(source, "remote.broker", lambda: Broker.parse(remote.broker))
    if remote.match:
        _guard(source, "remote.match", lambda: normalize(remote.match))


def _section(source: str, name: str, values: Any) -> Any:
    cls = _SECTIONS[name]
    if not isinstance(values, dict):
        raise ConfigError(source, name, _("must be a table ([{name}])").format(name=name))
    known = {f.name: f for f in fields(cls)}
    extra = {"leds": {"map", "palette"}, "sensors": {"map", "unused"}}.get(name, set())
    checked: dict[str, Any] = {}
    for key, value in values.items():
        where = f"{name}.{key}"
        if key in extra:
            continue
        if key not in known:
            names = ", ".join(known)
            raise ConfigError(source, where, _("unknown key; known: {known}").format(known=names))
        default = known[key].default
        checked[key] = _value(source, where, (name, key), value, default)
    return _guard(source, name, lambda: cls(**checked))


def _value(source: str, where: str, key: tuple[str, str], value: Any, default: Any) -> Any:
    if isinstance(default, tuple) and isinstance(value, list):
        value = tuple(value)  # TOML's array, as a frozen config holds it
    expected = _OPTIONAL.get(key, type(default))
    if isinstance(default, Enum) and isinstance(value, str):
        choices = tuple(member.value for member in type(default))
        if value not in choices:
            why = _("is {value}, expected one of {choices}")
            raise ConfigError(source, where, why.format(value=repr(value), choices=choices))
        return type(default)(value)
    if expected is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if type(value) is not expected:
        why = _("is {value} ({type}), expected {expected}")
        raise ConfigError(
            source,
            where,
            why.format(
                value=_SHORT.repr(value),
                type=type(value).__name__,
                expected="array" if expected is tuple else expected.__name__,
            ),
        )
    if key in _CHOICES and value not in _CHOICES[key]:
        why = _("is {value}, expected one of {choices}")
        raise ConfigError(
            source, where, why.format(value=_SHORT.repr(value), choices=_CHOICES[key])
        )
    if key in _RANGES:
        low, high = _RANGES[key]
        if not low <= value <= high:
            why = _("is {value}, expected {low} to {high}")
            raise ConfigError(source, where, why.format(value=value, low=low, high=high))
    return value


def _guard(source: str, where: str, build: Callable[[], Any]) -> Any:
    """Run a constructor that checks its own values; its ValueError becomes a ConfigError."""
    try:
        return build()
    except ValueError as exc:
        raise ConfigError(source, where, str(exc)) from None


def _wiring(source: str, sensors: SensorsConfig, table: Any) -> Geometry | None:
    slots = SlotCounts(sensors.point_slots, sensors.bar_slots, sensors.tray_slots)
    try:
        return parse_map(table.get("map"), table.get("unused"), slots)
    except WiringMapError as exc:
        raise ConfigError(source, exc.where, exc.why) from None


def _ledmap(mapping: Any) -> LedMap:
    if mapping is None:
        return LedMap.default()
    if not isinstance(mapping, dict):
        raise ValueError(_("must be a table ([leds.map])"))
    length = mapping.get("length")
    if isinstance(length, int) and length > MAX_PIXELS:
        raise ValueError(
            _("length is {length}: a strip of at most {most} pixels").format(
                length=length, most=MAX_PIXELS
            )
        )
    return LedMap.from_config(mapping)


def _style(leds: LedsConfig, palette: Any) -> Style:
    if palette is not None and not isinstance(palette, dict):
        raise ValueError(_("palette must be a table ([leds.palette])"))
    return Style.from_config(
        brightness=leds.brightness,
        gamma=leds.gamma,
        max_current_ma=leds.max_current_ma,
        palette=palette or {},
    )


# Keys whose values are secrets: printed configs end up in bug reports. The match code is the
# pairing's only secret (docs/remote.md): whoever has it can play as the other board.
_SECRETS: Final = frozenset({("remote", "password"), ("remote", "match")})


def show(config: Config) -> str:
    """The effective configuration as TOML (the LED map and palette by summary, the secrets
    masked): valid TOML whatever the strings hold."""
    lines = [f"# effective configuration from {_comment(config.source)}"]
    for name in _SECTIONS:
        section = getattr(config, name)
        lines.append(f"\n[{name}]")
        for f in fields(section):
            value = getattr(section, f.name)
            if (name, f.name) in _SECRETS and value:
                lines.append(f'{f.name} = "********"  # set, not shown')
                continue
            if value is None:  # TOML has no null: a key not given is left out
                lines.append(f"# {f.name}: not given")
                continue
            lines.append(f"{f.name} = {_toml(value)}")
        if name == "sensors":
            lines.append(unused_toml(config.geometry))
    lines.append(f"\n# LED map: {config.ledmap.length} pixels")
    origin = "from " + _comment(config.source) if config.wiring is not None else "the default order"
    lines.append(f"\n# the wiring map ({origin}): {config.geometry.nbits} chain inputs")
    lines.append(map_toml(config.geometry))
    return "\n".join(lines)


# TOML allows no control character (but tab, in a comment) raw; a basic string escapes them,
# the quote and the backslash.
_CONTROLS: Final = {chr(code): f"\\u{code:04x}" for code in (*range(0x20), 0x7F)}
_IN_COMMENT: Final = str.maketrans(_CONTROLS)
_IN_STRING: Final = str.maketrans(
    _CONTROLS
    | {"\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r", '"': '\\"', "\\": "\\\\"}
)


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + _unicode(value).translate(_IN_STRING) + '"'
    if isinstance(value, tuple):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    return str(value)


def _comment(text: str) -> str:
    return _unicode(text).translate(_IN_COMMENT)


def _unicode(text: str) -> str:
    """``text`` as TOML can hold it: a file name that is not UTF-8 has lone surrogates,
    which no TOML can, so "?" stands for each."""
    return text.encode("utf-8", "replace").decode("utf-8")
