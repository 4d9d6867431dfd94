"""Choosing the next match at the board: the options, their values in the order the CUBE
button steps through them, and what the lights and the page say of each.

Lengths come odd first (1, 3, ... 25, then 2, 4, ... 24) after money play (0), the usual
match lengths being odd. Money play offers Jacoby, beavers, automatic doubles and the cube
limit; a match offers the Crawford rule, the cube limit and the clock (off, the U.S.
Backgammon Clock Rules, a Bronstein delay or a per-move limit: the settings ``[clock]``
offers, with its delay or limit and its overtime). Either also offers where the dice come
from (:class:`~bgpi.journal.records.DiceSource`): the board's, or the players' own, entered
or read from GoDice. With a roster of the club's players (``[players] roster``), the two
players: each side's colour name (nobody in particular) and then the roster's names.
"""

from __future__ import annotations

from dataclasses import replace
from enum import Enum
from typing import Final

from bgpi.base.i18n import N_
from bgpi.base.words import BLACK, WHITE, Player
from bgpi.journal.records import ELECTRONIC, DiceSource, Seat
from bgpi.rules import MatchRules
from bgpi.rules.clock import NO_CLOCK, ClockMode, ClockRules
from bgpi.rules.match import MAX_CUBE, MAX_LENGTH

LONGEST: Final = min(25, MAX_LENGTH)
LENGTHS: Final = (0, *range(1, LONGEST + 1, 2), *range(2, LONGEST + 1, 2))
AUTOMATIC: Final = (0, 1, 2, 3)
LIMITS: Final = tuple(1 << n for n in range(1, MAX_CUBE.bit_length()))


class Option(Enum):
    """An option of the next match; its value names it to the players (translated where
    shown)."""

    LENGTH = N_("length")
    CRAWFORD = N_("Crawford rule")
    JACOBY = N_("Jacoby rule")
    BEAVER = N_("beavers")
    AUTOMATIC = N_("automatic doubles")
    LIMIT = N_("cube limit")
    CLOCK = N_("clock")
    DICE = N_("dice")
    WHITE_PLAYER = N_("White's player")
    BLACK_PLAYER = N_("Black's player")


PLAYER_OPTIONS: Final = {Option.WHITE_PLAYER: WHITE, Option.BLACK_PLAYER: BLACK}
"""The options that choose a side's player from the roster, and the side each chooses."""

NOBODY: Final = ("White", "Black")
"""Each side's name when no one in particular plays it (the journal's default names)."""

ROSTER_MAX: Final = LONGEST
"""The most names a roster holds: the score pixels' gauge shows a name's place (1 the
roster's first; 0 the colour, nobody in particular) on as many pixels as the longest match."""


SOURCES: Final = (DiceSource.ELECTRONIC, DiceSource.ENTERED, DiceSource.GODICE)
"""The dice sources in the order CUBE steps through them (the score pixels show 1, 2, 3);
GoDice only where a pair is paired to the board (``TableConfig.godice``)."""


def options_of(rules: MatchRules, *, named: tuple[Player, ...] = ()) -> tuple[Option, ...]:
    """The options that apply to ``rules``, in the order ROLL steps through them; last, the
    player of each side ``named`` chooses (:func:`named`)."""
    players = tuple(option for option, side in PLAYER_OPTIONS.items() if side in named)
    return _rules_options(rules) + players


def named(roster: tuple[str, ...], seats: tuple[Seat, Seat]) -> tuple[Player, ...]:
    """The sides whose player is chosen from ``roster``: those a person here plays. The
    engine's name is its own, and a remote board names its own player."""
    return tuple(p for p in (WHITE, BLACK) if roster and seats[p] is Seat.PERSON)


def _rules_options(rules: MatchRules) -> tuple[Option, ...]:
    if rules.money:
        return (
            Option.LENGTH,
            Option.JACOBY,
            Option.BEAVER,
            Option.AUTOMATIC,
            Option.LIMIT,
            Option.DICE,
        )
    return (Option.LENGTH, Option.CRAWFORD, Option.LIMIT, Option.DICE, Option.CLOCK)


def value_of(
    rules: MatchRules,
    option: Option,
    dice: DiceSource = ELECTRONIC,
    clock: ClockRules = NO_CLOCK,
) -> int:
    """The option's value as a number (the score pixels show it): booleans are 0 or 1, the
    dice source (``dice``) from 1, in :class:`DiceSource`'s order, the ``clock``'s mode in
    :class:`~bgpi.rules.clock.ClockMode`'s order (0 off)."""
    values = {
        Option.DICE: tuple(DiceSource).index(dice) + 1,
        Option.CLOCK: tuple(ClockMode).index(clock.mode),
        Option.LENGTH: rules.length,
        Option.CRAWFORD: int(rules.crawford),
        Option.JACOBY: int(rules.jacoby),
        Option.BEAVER: int(rules.beaver),
        Option.AUTOMATIC: rules.automatic_doubles,
        Option.LIMIT: rules.cube_limit,
    }
    return values[option]


def next_value(rules: MatchRules, option: Option) -> MatchRules:
    """``rules`` with ``option`` at its next value (a money option cleared for a match)."""
    if option is Option.LENGTH:
        length = _after(LENGTHS, rules.length)
        if length:  # a match: the money-only options go
            return replace(rules, length=length, jacoby=False, beaver=False, automatic_doubles=0)
        return replace(rules, length=0)
    if option is Option.AUTOMATIC:
        return replace(rules, automatic_doubles=_after(AUTOMATIC, rules.automatic_doubles))
    if option is Option.LIMIT:
        return replace(rules, cube_limit=_after(LIMITS, rules.cube_limit))
    flag = {Option.CRAWFORD: "crawford", Option.JACOBY: "jacoby", Option.BEAVER: "beaver"}
    name = flag[option]
    return replace(rules, **{name: not getattr(rules, name)})


def _after(values: tuple[int, ...], value: int) -> int:
    return values[(values.index(value) + 1) % len(values)] if value in values else values[0]


def place_of(roster: tuple[str, ...], name: str) -> int:
    """A player's place in ``roster`` as the score pixels show it: from 1, 0 for a name
    not in it (the colour's, nobody in particular)."""
    return roster.index(name) + 1 if name in roster else 0


def next_name(roster: tuple[str, ...], names: tuple[str, str], player: Player) -> tuple[str, str]:
    """``names`` with ``player``'s the next of the colour's name and then the roster's, past
    the opponent's: one person cannot play both sides."""
    choices = (NOBODY[player], *roster)
    at = choices.index(names[player]) if names[player] in choices else 0
    after = (choices[(at + step) % len(choices)] for step in range(1, len(choices) + 1))
    # None but the opponent's left (a roster emptied mid-choosing): the name stays.
    name = next((n for n in after if n != names[player.other]), names[player])
    return (name, names[BLACK]) if player is WHITE else (names[WHITE], name)


def starting_names(
    roster: tuple[str, ...], names: tuple[str, str], sides: tuple[Player, ...]
) -> tuple[str, str]:
    """The players a choosing starts from: the last match's (``names``), each side chosen
    (``sides``) kept if the roster holds its name, else the colour's (a roster edited since
    may have dropped it); a side not chosen keeps its name (the engine's, say)."""
    white, black = (
        NOBODY[side] if side in sides and name not in roster else name
        for side, name in zip((WHITE, BLACK), names, strict=True)
    )
    return white, black


def nobody_here(seats: tuple[Seat, Seat]) -> bool:
    """Whether no person sits at this board (the engine or a remote board in both seats):
    dice thrown by hand would wait forever for a hand to throw them."""
    return Seat.PERSON not in seats


def next_source(
    dice: DiceSource, *, remote: bool, nobody: bool = False, godice: bool = False
) -> DiceSource:
    """The dice source after ``dice``; a match against a remote board keeps the board's
    commit-reveal dice (no board can vouch for the dice thrown at the other), and so does a
    board where nobody sits to throw dice (``nobody``); GoDice only if a pair is paired."""
    sources = SOURCES if godice else SOURCES[:-1]
    if remote or nobody or dice not in sources:
        return ELECTRONIC
    return sources[(sources.index(dice) + 1) % len(sources)]


def next_clock(clock: ClockRules) -> ClockRules:
    """The clock after ``clock``: the next mode in :class:`~bgpi.rules.clock.ClockMode`'s
    order (off, U.S. rules, Bronstein, per-move limit), its delay or limit and its overtime
    kept as the config set them."""
    modes = tuple(ClockMode)
    return replace(clock, mode=modes[(modes.index(clock.mode) + 1) % len(modes)])
