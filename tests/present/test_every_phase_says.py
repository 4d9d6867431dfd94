"""Every phase x seat (a person here, the engine, a remote board) x language: the status line
is a whole sentence, every lit button's caption says what its press does, and the line names
each gesture a person here may make, or, where the table waits for a seat that is not a
person here, that seat and what it may decide.

The tables are those :mod:`tests.table.test_leads` drives into every row's phase, plus the
setup and the dice drawn with another board, each with the seats it could have. What each
press does is held here, by intent (:data:`CAPTIONS`), not read from the rows."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from functools import cache
from itertools import product

import pytest

from bgpi.base import i18n
from bgpi.base.faults import FaultSource
from bgpi.base.i18n import _
from bgpi.base.words import BLACK, WHITE, Player
from bgpi.journal.records import DiceSource, FlagFell, MatchStarted, Rethrown, Seat, Unfit
from bgpi.present.leds import scene_of
from bgpi.present.phrases import SEATS, players
from bgpi.present.status import status
from bgpi.rules.clock import Clock, ClockMode, ClockRules
from bgpi.table import (
    BeforeRoll,
    Fault,
    Hold,
    Intent,
    Opening,
    Phase,
    Rolling,
    Table,
    active_rows,
    waiting,
)
from bgpi.table.buttons import SEAT_WORDS, rows_of
from bgpi.table.phases import Forfeited
from bgpi.table.thrown import waiting_throw
from bgpi.web.words import page_words
from tests.table.test_buttons import CONFIG, drawing, opened, replay
from tests.table.test_leads import SCENES, table_of

CAPTIONS = {
    Intent.OPENING_ROLL: "roll",
    Intent.ROLL: "roll",
    Intent.DOUBLE: "double",
    Intent.TAKE: "take",
    Intent.DROP: "drop",
    Intent.END_TURN: "end turn",
    Intent.END_TURN_ILLEGAL: "end turn",
    Intent.ACCEPT_ILLEGAL: "accept",
    Intent.DEMAND_CORRECTION: "decline",
    Intent.OFFER_RESIGN: "resign",
    Intent.NEXT_LEVEL: "next",
    Intent.ACCEPT_RESIGN: "accept",
    Intent.DECLINE_RESIGN: "decline",
    Intent.MOVE_MADE: "confirm",
    Intent.CONFIRM: "confirm",
    Intent.NEXT_CANDIDATE: "next",
    Intent.NEXT_GAME: "new game",
    Intent.NEXT_VALUE: "change",
    Intent.NEXT_OPTION: "next",
    Intent.NEXT_FACE: "change",
    Intent.TAKE_DIE: "confirm",
    Intent.ACCEPT_TAKEBACK: "accept",
    Intent.REFUSE_TAKEBACK: "decline",
    Intent.WITHDRAW_TAKEBACK: "withdraw",
    Intent.CLAIM_FORFEIT: "claim",
}
"""The caption (in English, translated as shown) of what a short press does; a held press
never lights its button (it has no caption), but for the forfeit claim, the one thing a
person can do about a silent board."""
PASS = "OK"  # ending a turn whose roll has no move


def thrown(name: str, player: Player, count: int, again: Rethrown | None = None) -> Table:
    """GoDice thrown by hand for ``player``, read as they come to rest."""
    table = table_of(name)
    assert isinstance(table.at, Opening | BeforeRoll)
    waiting = replace(waiting_throw(player, count, table.at), again=again)
    return replace(table, dice=DiceSource.GODICE, at=waiting)


def faulted(table: Table, source: FaultSource, message: str) -> Table:
    """``table`` with ``source`` down, saying ``message``."""
    return table.handle(Fault(source, message, 40.0)).table


def in_overtime(name: str, player: Player) -> Table:
    """``player``'s clock running in the overtime a first fall gave."""
    clock = Clock(ClockRules(ClockMode.USBGF, overtime=100), (100.0, 100.0), running=player)
    given = (player is WHITE, player is BLACK)
    return replace(table_of(name), clock=replace(clock, overtime_given=given))


EXTRA = {
    "setup": lambda: Table.replay(CONFIG, [MatchStarted(5)]),
    "rolling the opening die": lambda: drawing(table_of("opening"), WHITE, 1),
    "rolling": lambda: drawing(table_of("before roll, hints on"), BLACK, 2),
    "throwing the opening GoDice": lambda: thrown("opening", WHITE, 1),
    "throwing GoDice": lambda: thrown("before roll, hints on", BLACK, 2),
    "throwing GoDice again, one cocked": lambda: thrown(
        "before roll, hints on", BLACK, 2, Rethrown(BLACK, 2, Unfit.COCKED, 3)
    ),
    "throwing GoDice again, one moved": lambda: thrown(
        "opening", WHITE, 1, Rethrown(WHITE, 1, Unfit.MOVED, 5)
    ),
    "the sensors down before the roll": lambda: faulted(
        table_of("before roll, hints on"), FaultSource.SENSORS, "no answer"
    ),
    "the sensors down while moving": lambda: faulted(
        table_of("moving, play made"), FaultSource.SENSORS, "no answer"
    ),
    "the other board out of reach before the roll": lambda: faulted(
        table_of("before roll, hints on"), FaultSource.REMOTE, "localhost cannot be reached"
    ),
    "the other board out of reach, its half of the dice owed": lambda: faulted(
        table_of("against a silent remote board: its half of the dice owed"),
        FaultSource.REMOTE,
        "no word from black in 4 s",
    ),
    "a GoDice lost while the throw is awaited": lambda: faulted(
        thrown("before roll, hints on", BLACK, 2), FaultSource.GODICE, "die 2 (red) is gone"
    ),
    "won by forfeit": lambda: replace(table_of("match over"), at=Forfeited(WHITE)),
    "lost on time": lambda: replay(
        *opened(MatchStarted(5, clock=ClockRules(ClockMode.USBGF))), FlagFell(BLACK)
    ),
    "in overtime, on roll": lambda: in_overtime("before roll, hints on", BLACK),
    "in overtime, doubled": lambda: in_overtime("doubled, beavers and hints", WHITE),
}
NAMES = (*SCENES, *EXTRA)
SEAT_KINDS = (Seat.PERSON, Seat.ENGINE, Seat.REMOTE)
# A dirty line: a placeholder left, choices left empty (" .", ": ."), a doubled space or stop.
DIRTY = re.compile(r"[{}]|\s[.,:;?]|[,:;]\s*[.?]|\s\s|\.\.|^\s|\s$")


@cache
def built(name: str) -> Table:
    return EXTRA[name]() if name in EXTRA else table_of(name)


def could_be(table: Table) -> bool:
    """Whether a table in this phase could have these seats: only a person here chooses a
    play among look-alikes, chooses a resignation's level (a seat offers it at once) or
    ends a turn on an illegal play (never against a remote board, which gets only legal
    plays); only a seat's play is guided; only a person's play is taken back, asked of a
    person."""
    turn, phase = table.match.turn, table.phase
    thrown = isinstance(table.at, Rolling) and table.at.thrown
    if phase is Phase.ENTERING or thrown:  # dice thrown by hand: a person here enters or
        # throws them, and a remote match always rolls the boards' commit-reveal dice
        return Seat.PERSON in table.seats and Seat.REMOTE not in table.seats
    if turn is None:
        return True
    mover, other = table.seats[turn], table.seats[Player(turn).other]
    person, remote = Seat.PERSON, Seat.REMOTE
    allowed = {
        Phase.CONFIRM: mover is person,
        Phase.RESIGNING: mover is person,
        Phase.ILLEGAL: mover is person and other is not remote,
        Phase.GUIDED: mover is not person,
        # A person asks a person (the computer agrees at once); never a remote board.
        Phase.TAKEBACK_ASKED: mover is person and other is person,
        Phase.TAKING_BACK: mover is person and other is not remote,
    }
    return allowed.get(phase, True)


def cases() -> Iterator[tuple[str, tuple[Seat, Seat]]]:
    for name in NAMES:
        for seats in product(SEAT_KINDS, repeat=2):
            if could_be(replace(built(name), seats=seats)):
                yield name, seats


def case_id(name: str, seats: tuple[Seat, Seat]) -> str:
    return f"{name}: {seats[0].value}-{seats[1].value}"


CASES = list(cases())
IDS = [case_id(*case) for case in CASES]


def seated(name: str, seats: tuple[Seat, Seat]) -> Table:
    return replace(built(name), seats=seats)


def in_every_language() -> Iterator[str]:
    for language in i18n.Language:
        i18n.use(language)
        yield language


@pytest.mark.parametrize(("name", "seats"), CASES, ids=IDS)
def test_the_status_line_is_a_whole_sentence(name: str, seats: tuple[Seat, Seat]) -> None:
    table = seated(name, seats)
    for language in in_every_language():
        line = status(table, scene_of(table))
        assert line and not DIRTY.search(line), f"{language}: {line!r}"
        assert line[-1] in ".?", f"{language}: {line!r}"


@pytest.mark.parametrize(("name", "seats"), CASES, ids=IDS)
def test_every_lit_caption_says_what_its_press_does(name: str, seats: tuple[Seat, Seat]) -> None:
    table = seated(name, seats)
    scene = scene_of(table)
    for language in in_every_language():
        shown = page_words()["meanings"]
        assert isinstance(shown, dict)
        for player, button, meaning in scene.prompts:
            assert table.seats[player] is Seat.PERSON  # nobody here presses a seat's button
            rows = rows_of(table, player, button)
            row = rows.get(Hold.SHORT) or rows[Hold.HELD]  # held: the claim, lit all the same
            does = PASS if scene.alert == "no move" else CAPTIONS[row.intent]
            assert shown[meaning] == _(does), f"{language}: {button} of {row.words!r}"


@pytest.mark.parametrize(("name", "seats"), CASES, ids=IDS)
def test_the_line_names_each_gesture_or_the_seat_waited_for(
    name: str, seats: tuple[Seat, Seat]
) -> None:
    table = seated(name, seats)
    rows = active_rows(table)
    asked = waiting(table)
    for language in in_every_language():
        line = status(table, scene_of(table)).lower()
        for _player, row in rows:
            assert _(row.words).lower() in line, f"{language}: {row.words!r} unsaid in {line!r}"
        if rows or asked is None:
            continue
        seat = table.seats[asked.player]
        named = _("{name} ({seat})").format(
            name=players(table.names)[asked.player], seat=_(SEATS[seat])
        )
        assert named.lower() in line, f"{language}: {named!r} unnamed in {line!r}"
        if table.phase is Phase.MOVING:
            continue  # the seat's play, which no row holds
        decides = [
            _(SEAT_WORDS[row.intent])
            for player, row in active_rows(table, people_only=False)
            if player == asked.player and row.intent in SEAT_WORDS
        ]
        assert decides, f"{name}: the seat waited for may decide nothing"
        for words in decides:
            assert words.lower() in line, f"{language}: {words!r} unsaid in {line!r}"


def test_the_walk_reaches_every_phase_shown_with_every_kind_of_seat_acting() -> None:
    """Each phase but the ending (never shown: the game's end follows in the same step)
    with a person here, and each phase where a seat is waited for with the engine and a
    remote board in that seat."""
    phases = {seated(name, seats).phase for name, seats in CASES}
    assert phases == set(Phase) - {Phase.ENDING}
    waited = {
        (table.phase, table.seats[asked.player])
        for table in (seated(*case) for case in CASES)
        if (asked := waiting(table)) is not None and not active_rows(table)
    }
    asks = {Phase.OPENING, Phase.BEFORE_ROLL, Phase.DOUBLED, Phase.MOVING}
    asks |= {Phase.RESIGN_OFFERED, Phase.ILLEGAL, Phase.CHOOSING}
    expected = {(phase, seat) for phase in asks for seat in (Seat.ENGINE, Seat.REMOTE)}
    assert waited >= expected - {(Phase.ILLEGAL, Seat.REMOTE)}
