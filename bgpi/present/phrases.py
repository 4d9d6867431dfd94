"""The game's words in the players' language: colours, zones, seats, result levels, the match
options and the buttons' meanings, each a table of marked words (:func:`bgpi.base.i18n.N_`)
translated when shown.

The enums these tables translate are identifiers (the page's CSS, the journal, the palette);
their words for a player live here, so a translation never changes what the code compares.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bgpi.base.i18n import N_, _
from bgpi.base.words import BAR_BLACK, BAR_WHITE, POINTS, TRAY_BLACK, TRAY_WHITE, Zone
from bgpi.journal.records import ELECTRONIC, DiceSource, Seat
from bgpi.lights.scene import Meaning
from bgpi.rules import MatchRules
from bgpi.rules.clock import NO_CLOCK, ClockMode, ClockRules
from bgpi.rules.result import GameResult
from bgpi.table.options import NOBODY, PLAYER_OPTIONS, Option, value_of
from bgpi.table.phases import Phase

COLOURS: Final = (N_("White"), N_("Black"))
"""The colours' names, which are also the players' names unless the config gives others."""

SIDES: Final = (N_("white"), N_("black"))
"""The colours as a side one plays ("you play white")."""

PHASES: Final = {
    Phase.SETUP: N_("setup"),
    Phase.OPENING: N_("opening"),
    Phase.BEFORE_ROLL: N_("before roll"),
    Phase.ROLLING: N_("rolling"),
    Phase.ENTERING: N_("entering the dice"),
    Phase.DOUBLED: N_("doubled"),
    Phase.MOVING: N_("moving"),
    Phase.CONFIRM: N_("confirm"),
    Phase.GUIDED: N_("guided play"),
    Phase.RESIGNING: N_("resigning"),
    Phase.RESIGN_OFFERED: N_("resignation offered"),
    Phase.ILLEGAL: N_("illegal play"),
    Phase.CHOOSING: N_("choosing the match"),
    Phase.ENDING: N_("ending"),
    Phase.GAME_OVER: N_("game over"),
    Phase.MATCH_OVER: N_("match over"),
}
"""The table's phases as ``bgpi status`` names them (in English, the enum's own words)."""

DICE_SOURCES: Final = {
    DiceSource.ELECTRONIC: N_("the board's"),
    DiceSource.ENTERED: N_("your own, entered"),
    DiceSource.GODICE: N_("GoDice"),
}
"""Where the dice come from, as the page says it ("dice: your own, entered")."""

REMOTE_DICE: Final = N_(
    "A remote match rolls the boards' fair commit-reveal dice: no board can vouch for the"
    " dice thrown at the other."
)
"""Why a remote match refuses dice thrown by hand (the log and the page say it)."""

NOBODY_DICE: Final = N_(
    "Nobody sits at this board to throw dice by hand: with the engine or a remote board in"
    " both seats, the board rolls."
)
"""Why a board with no person at it refuses dice thrown by hand (the page says it)."""

SEATS: Final = {Seat.PERSON: N_("person"), Seat.ENGINE: N_("engine"), Seat.REMOTE: N_("remote")}

LEVELS: Final = {
    GameResult.SINGLE: N_("single"),
    GameResult.GAMMON: N_("gammon"),
    GameResult.BACKGAMMON: N_("backgammon"),
}

OPTIONS: Final = {
    Option.LENGTH: N_("length"),
    Option.CRAWFORD: N_("Crawford rule"),
    Option.JACOBY: N_("Jacoby rule"),
    Option.BEAVER: N_("beavers"),
    Option.AUTOMATIC: N_("automatic doubles"),
    Option.LIMIT: N_("cube limit"),
    Option.CLOCK: N_("clock"),
    Option.DICE: N_("dice"),
    Option.WHITE_PLAYER: N_("White's player"),
    Option.BLACK_PLAYER: N_("Black's player"),
}

CLOCK_MODES: Final = {
    ClockMode.OFF: N_("off"),
    ClockMode.USBGF: N_("U.S. rules, a {seconds}-second delay"),
    ClockMode.BRONSTEIN: N_("Bronstein, a {seconds}-second delay"),
    ClockMode.PER_MOVE: N_("{seconds} seconds a move"),
}
"""A match's clock as the page and the status line say it ("clock: U.S. rules, a
12-second delay")."""

MEANINGS: Final = {
    Meaning.ROLL: N_("roll"),
    Meaning.DOUBLE: N_("double"),
    Meaning.TAKE: N_("take"),
    Meaning.DROP: N_("drop"),
    Meaning.BEAVER: N_("beaver"),
    Meaning.END_TURN: N_("end turn"),
    Meaning.CONFIRM: N_("confirm"),
    Meaning.NEXT: N_("next"),
    Meaning.CHANGE: N_("change"),
    Meaning.ACKNOWLEDGE: N_("OK"),
    Meaning.NEW_GAME: N_("new game"),
    Meaning.RESIGN: N_("resign"),
    Meaning.ACCEPT: N_("accept"),
    Meaning.DECLINE: N_("decline"),
    Meaning.CLAIM: N_("claim"),
    Meaning.WITHDRAW: N_("withdraw"),
}
"""The word beside a button on the page: short, as the LEDs' colours are."""


def player(name: str) -> str:
    """A player's name as shown: the default names (the colours) in the players' language,
    a name given in the config as it is."""
    return _(name) if name in COLOURS else name


def players(names: Sequence[str]) -> tuple[str, str]:
    white, black = names
    return player(white), player(black)


def zone(where: Zone) -> str:
    """``point 7``, ``White's bar``, ``Black's tray``, in the board's printed numbering."""
    if 1 <= where <= POINTS:
        return _("point {number}").format(number=where)
    words = {
        BAR_WHITE: N_("White's bar"),
        BAR_BLACK: N_("Black's bar"),
        TRAY_WHITE: N_("White's tray"),
        TRAY_BLACK: N_("Black's tray"),
    }
    return _(words[where])


def either(words: Sequence[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``: choices, the last joined by the language's "or"."""
    if len(words) < 2:
        return "".join(words)
    return _("{choices} or {last}").format(choices=", ".join(words[:-1]), last=words[-1])


def capitalized(text: str) -> str:
    """``text`` with its first letter a capital, to start a sentence with a row's words."""
    return text[:1].upper() + text[1:]


def option_words(
    draft: MatchRules,
    option: Option,
    dice: DiceSource = ELECTRONIC,
    clock: ClockRules = NO_CLOCK,
    names: tuple[str, str] = NOBODY,
) -> str:
    """An option's value as the page says it: the match's kind for the length, on or off
    for a rule, the number for automatic doubles and the cube limit, where the dice
    (``dice``) come from, the ``clock`` and its delay or limit (and overtime, if any), a
    side's player of ``names``."""
    if option in PLAYER_OPTIONS:
        return player(names[PLAYER_OPTIONS[option]])
    value = value_of(draft, option, dice, clock)
    if option is Option.DICE:
        return _(DICE_SOURCES[dice])
    if option is Option.CLOCK:
        return clock_words(clock)
    if option is Option.LENGTH:
        return match_words(value)
    if option in _NUMBERS:
        return str(value)
    return _("on") if value else _("off")


def clock_words(clock: ClockRules) -> str:
    """A match's clock in words: ``off``, ``U.S. rules, a 12-second delay``, with the
    overtime a fall gives once, if the rules give it."""
    words = _(CLOCK_MODES[clock.mode]).format(seconds=f"{clock.per_move:g}")
    if not clock.on or not clock.overtime:
        return words
    return _("{clock}, {seconds} seconds' overtime").format(
        clock=words, seconds=f"{clock.overtime:g}"
    )


def option_phrase(
    draft: MatchRules,
    option: Option,
    dice: DiceSource = ELECTRONIC,
    clock: ClockRules = NO_CLOCK,
    names: tuple[str, str] = NOBODY,
) -> str:
    """The option shown and its value, as the status line names it: the length as the
    match's kind (``a 5-point match``, ``money play``), a rule, a number or a name after
    its name (``Crawford rule on``, ``cube limit 64``, ``White's player Anna``)."""
    if option is Option.LENGTH:
        return match_words(draft.length)
    value = option_words(draft, option, dice, clock, names)
    return _("{option} {value}").format(option=_(OPTIONS[option]), value=value)


def match_words(length: int) -> str:
    """A match's kind: ``a 5-point match``, or ``money play`` (length 0)."""
    return _("a {length}-point match").format(length=length) if length else _("money play")


_NUMBERS: Final = (Option.AUTOMATIC, Option.LIMIT)
