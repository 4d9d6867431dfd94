"""Why a board is wrong, in game words: a pure diagnosis of a sensed board.

The tracker (:mod:`bgpi.sensing.tracker`) says *that* no legal play fits the board and how it
differs, zone by zone, from the nearest legal state. A player needs *why*: "a hit: put
White's checker from 19 on the bar", "3 pips, but the dice are 6 and 1". :func:`diagnose`
takes the turn's tracker, the board read now, the tracker's reading of it and the node the
board last showed (the reference: the start of the turn or the last legal partial play), and
names the most likely mistake as a :class:`Mistake`, an immutable value of a kind and the
zones involved (the board's printed numbering). :func:`refusal` does the same for a ROLL
pressed on a board that is not a complete play. :func:`mistake_words` is the one place the
sentences are written, through :mod:`bgpi.base.i18n`.

The kinds are tried from the most specific to the least, each by asking whether the board is
exactly that mistake away from a legal state (a hit left undone is tested by putting the blot
on the bar and reading the board again), so a guess never names a mistake the board does not
show; what fits none is the per-zone difference in words.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Final

from bgpi.base.i18n import N_, _, ngettext
from bgpi.base.words import (
    BAR_BLACK,
    BAR_WHITE,
    BLACK,
    POINTS,
    TRAY_BLACK,
    TRAY_WHITE,
    WHITE,
    Player,
)
from bgpi.rules import packed
from bgpi.rules.position import BAR, OFF, Position
from bgpi.sensing.board import BoardDiff, Observation, observe, zone_of
from bgpi.sensing.tracker import Kind, Reading, TurnTracker

HOME: Final = 6  # the mover's points 1-6: where every checker must be to bear off
COLOURS: Final = (N_("White"), N_("Black"))


class MistakeKind(Enum):
    HIT_UNDONE = "a hit left undone"
    DISTANCE = "a wrong distance"
    NOT_YOURS = "the opponent's checker moved"
    BAR_FIRST = "a checker moved while one waits on the bar"
    EARLY_BEAR_OFF = "a bear-off before all are home"
    OVERFULL_BEAR_OFF = "more checkers borne off than the dice allow"
    INCOMPLETE = "the play is not complete"
    BOARD = "the board differs"


@dataclass(frozen=True, slots=True)
class Mistake:
    """One mistake on the board. ``colour``: whose checker the words name (the blot's owner
    for a hit, the opponent for :attr:`~MistakeKind.NOT_YOURS`, else the mover). ``zones``:
    the zones involved, in the board's printed numbering (the LEDs show them). ``count``:
    the pips moved (a wrong distance) or the checkers borne off (an over-full bear-off).
    ``dice``: the roll (a wrong distance), the die still to play (incomplete) or the most
    checkers the roll bears off (over-full). ``example``: a move still to play, as (from,
    to) zones. ``diff``: the per-zone difference (:attr:`~MistakeKind.BOARD`)."""

    kind: MistakeKind
    colour: Player
    zones: tuple[int, ...] = ()
    count: int = 0
    dice: tuple[int, ...] = ()
    example: tuple[int, int] | None = None
    diff: BoardDiff = field(default_factory=BoardDiff)


# -- the diagnosis ---------------------------------------------------------------------------


def diagnose(
    tracker: TurnTracker, observation: Observation, reading: Reading, near: int = 0
) -> Mistake | None:
    """The mistake a settled board shows, or None where there is none to name: a wrong
    board always gets one; a board in flight only when a hitter stands on a blot that is not
    yet on the bar (legal so far, but the blot must go: the page says so at once)."""
    if reading.kind is Kind.AT_NODE:
        return None
    ref = _Reference.of(tracker, observation, near)
    if reading.kind is Kind.IN_FLIGHT:
        return ref.hit_undone()
    return (
        ref.hit_undone()
        or ref.not_yours()
        or ref.bar_first()
        or ref.bear_off()
        or ref.distance()
        or Mistake(MistakeKind.BOARD, tracker.mover, _diff_zones(reading.diff), diff=reading.diff)
    )


def refusal(
    tracker: TurnTracker, observation: Observation, reading: Reading, near: int = 0
) -> Mistake:
    """Why ROLL cannot end the turn on this board: the player says the play is made, so a
    checker the sensors miss is not in a hand but gone (an over-full bear-off where the trays
    have no switches); else the mistake of a wrong board, or the die still to play."""
    node = reading.nodes[0] if reading.kind is not Kind.WRONG else near
    # Counted from the start of the turn, every checker borne off and the points they left;
    # too early, from the last legal state (a checker may have come home since the start).
    overfull = _Reference.of(tracker, observation, 0).bear_off(ended=True)
    if overfull is not None and overfull.kind is MistakeKind.OVERFULL_BEAR_OFF:
        return overfull
    early = _Reference.of(tracker, observation, near).bear_off(ended=True)
    if early is not None:
        return early
    if reading.kind is Kind.WRONG:
        found = diagnose(tracker, observation, reading, near)
        assert found is not None  # a wrong board always gets a mistake
        return found
    return _incomplete(tracker, node)


def _incomplete(tracker: TurnTracker, node: int) -> Mistake:
    """The die still to play from ``node``, with one move that plays it."""
    for move, _child in tracker.tree.children[node]:
        example = (zone_of(tracker.mover, move.src), zone_of(tracker.mover, move.dst))
        return Mistake(
            MistakeKind.INCOMPLETE, tracker.mover, example, dice=(move.die,), example=example
        )
    left = tracker.node(node).dice_left
    return Mistake(MistakeKind.INCOMPLETE, tracker.mover, dice=left[:1])


@dataclass(frozen=True, slots=True)
class _Reference:
    """The board read now against the state the board last showed (``ref``, the mover's
    view): who has what on each zone there, and what the sensors should see of it."""

    tracker: TurnTracker
    observation: Observation
    near: int
    ref: Position
    mine: tuple[int, ...]  # the mover's checkers per zone in ``ref``
    theirs: tuple[int, ...]  # the opponent's
    expected: Observation

    @classmethod
    def of(cls, tracker: TurnTracker, observation: Observation, near: int) -> _Reference:
        ref = tracker.node(near).result
        mover = tracker.mover
        mine, theirs = [0] * len(observation), [0] * len(observation)
        for index in range(BAR + 1):
            mine[zone_of(mover, index)] += ref.player[index]
            theirs[zone_of(mover.other, index)] += ref.opponent[index]
        expected = observe(ref, mover, tracker.caps)
        return cls(tracker, observation, near, ref, tuple(mine), tuple(theirs), expected)

    @property
    def mover(self) -> Player:
        return self.tracker.mover

    @property
    def opponent(self) -> Player:
        return self.tracker.mover.other

    def _missing(self) -> list[int]:
        return [z for z, e in enumerate(self.expected) if self.observation[z] < e]

    def _extra(self) -> list[int]:
        return [z for z, e in enumerate(self.expected) if self.observation[z] > e]

    def hit_undone(self) -> Mistake | None:
        """A checker of the mover stands on an opposing blot that is still there: the board
        is legal once the blot is on its bar."""
        bar = zone_of(self.opponent, BAR)
        seen = self.observation
        for zone in range(1, POINTS + 1):
            if self.theirs[zone] != 1 or self.mine[zone] or seen[zone] < 2:
                continue
            fixed = list(seen)
            fixed[zone] -= 1
            fixed[bar] += 1
            if self.tracker.read(tuple(fixed)).kind is not Kind.WRONG:
                return Mistake(MistakeKind.HIT_UNDONE, self.opponent, (zone, bar))
        return None

    def not_yours(self) -> Mistake | None:
        """A checker is gone from a zone only the opponent holds."""
        for zone in self._missing():
            if not self.mine[zone] and self.theirs[zone]:
                return Mistake(MistakeKind.NOT_YOURS, self.opponent, (zone,))
        return None

    def bar_first(self) -> Mistake | None:
        """The mover has a checker on the bar that is still there, and one of the mover's
        checkers elsewhere moved."""
        bar = zone_of(self.mover, BAR)
        if not self.mine[bar] or self.observation[bar] < self.expected[bar]:
            return None
        moved = [z for z in self._missing() if self.mine[z] and z != bar]
        return Mistake(MistakeKind.BAR_FIRST, self.mover, (bar, *moved[:1])) if moved else None

    def bear_off(self, *, ended: bool = False) -> Mistake | None:
        """The mover's checkers gone from the board (into a tray with switches, or, with
        ``ended``, anywhere the switches cannot see): too early, or more than the dice
        bear off."""
        gone = self._gone()
        moved = tuple(z for z in self._missing() if self.mine[z])
        if gone <= 0 or not moved:
            return None
        if sum(self.ref.player[HOME + 1 :]):  # a checker outside the home board or on the bar
            home = all(1 <= _index(self.mover, z) <= HOME for z in moved)
            return Mistake(MistakeKind.EARLY_BEAR_OFF, self.mover, moved) if home else None
        # Without tray switches a checker gone may be in a hand, until the player says the
        # play is made.
        sensed = self.tracker.caps[zone_of(self.mover, OFF)] > 0
        if (sensed or ended) and gone > self._most_off() - self.ref.player[OFF]:
            return Mistake(
                MistakeKind.OVERFULL_BEAR_OFF,
                self.mover,
                moved,
                count=gone + self.ref.player[OFF] - self.tracker.start.player[OFF],
                dice=(self._most_off() - self.tracker.start.player[OFF],),
            )
        return None

    def _gone(self) -> int:
        """The mover's checkers gone off the board: into the tray where it has switches,
        else the checkers missing from the points and bars."""
        tray = zone_of(self.mover, OFF)
        if self.tracker.caps[tray]:
            return self.observation[tray] - self.expected[tray]
        board = [z for z in range(1, len(self.expected)) if z not in (TRAY_WHITE, TRAY_BLACK)]
        return sum(self.expected[z] for z in board) - sum(self.observation[z] for z in board)

    def _most_off(self) -> int:
        """The most checkers the mover has off after any legal play of the roll."""
        return max(packed.count(state, OFF) for state in self.tracker.tree.states)

    def distance(self) -> Mistake | None:
        """One of the mover's checkers moved from one zone to another by a distance no die
        left (nor dice played together) gives."""
        missing, extra = self._missing(), self._extra()
        if len(missing) != 1 or len(extra) != 1:
            return None
        src, dst = missing[0], extra[0]
        if not self.mine[src] or self.observation[src] != self.expected[src] - 1:
            return None
        if self.observation[dst] != self.expected[dst] + 1:
            return None
        pips = _index(self.mover, src) - _index(self.mover, dst)
        left = self.tracker.node(self.near).dice_left
        if pips <= 0 or pips in _sums(left):
            return None
        roll = tuple(sorted(self.tracker.roll, reverse=True))
        return Mistake(MistakeKind.DISTANCE, self.mover, (src, dst), count=pips, dice=roll)


def _index(colour: Player, zone: int) -> int:
    """``colour``'s own index of a zone: 1-24 a point, 25 its bar, 0 its tray."""
    if zone in (BAR_WHITE, BAR_BLACK):
        return BAR
    if zone in (TRAY_WHITE, TRAY_BLACK):
        return OFF
    return zone if colour == WHITE else 25 - zone


def _sums(dice: Sequence[int]) -> frozenset[int]:
    """The distances one checker can go with the dice left: each die, and the dice played
    one after another in order (a double's moves add up)."""
    sums, total = set(dice), 0
    for die in sorted(dice, reverse=True):
        total += die
        sums.add(total)
    return frozenset(sums)


def _diff_zones(diff: BoardDiff) -> tuple[int, ...]:
    return tuple(sorted({zone for zone, _count in (*diff.extra, *diff.missing)}))


# -- the words -------------------------------------------------------------------------------


def mistake_words(mistake: Mistake) -> str:
    """The mistake in game words, in the players' language (points by the numbers printed
    on the board, colours by name)."""
    return _WORDS[mistake.kind](mistake, _(COLOURS[mistake.colour]))


def _hit_words(mistake: Mistake, colour: str) -> str:
    return _("a hit: put {colour}'s checker from {point} on the bar").format(
        colour=colour, point=mistake.zones[0]
    )


def _distance_words(mistake: Mistake, colour: str) -> str:
    high, low = mistake.dice
    return ngettext(
        "{pips} pip, but the dice are {high} and {low}",
        "{pips} pips, but the dice are {high} and {low}",
        mistake.count,
    ).format(pips=mistake.count, high=high, low=low)


def _not_yours_words(mistake: Mistake, colour: str) -> str:
    return _("that is {colour}'s checker: put it back on {point}").format(
        colour=colour, point=_place(mistake.zones[0])
    )


def _bar_first_words(mistake: Mistake, colour: str) -> str:
    return _("{colour}'s checker on the bar must enter first").format(colour=colour)


def _early_words(mistake: Mistake, colour: str) -> str:
    return _("bear-off only with all fifteen home")


def _overfull_words(mistake: Mistake, colour: str) -> str:
    return ngettext(
        "{count} checker borne off, but this roll bears off at most {most}",
        "{count} checkers borne off, but this roll bears off at most {most}",
        mistake.count,
    ).format(count=mistake.count, most=mistake.dice[0])


def _incomplete_words(mistake: Mistake, colour: str) -> str:
    if mistake.example is None or not mistake.dice:
        return _("the play is not complete")
    src, dst = mistake.example
    return _("the play is not complete: the {die} can still be played (e.g. {move})").format(
        die=mistake.dice[0], move=f"{_place(src)}/{_place(dst)}"
    )


def _place(zone: int) -> str:
    """A zone as a move writes it: its printed number, the bar or off."""
    if zone in (BAR_WHITE, BAR_BLACK):
        return _("bar")
    if zone in (TRAY_WHITE, TRAY_BLACK):
        return _("off")
    return str(zone)


def _diff_words(diff: BoardDiff) -> str:
    """The per-zone difference, one clause a zone: "point 13 has one checker too few"."""
    clauses = [_zone_clause(zone, count, too_many=True) for zone, count in diff.extra]
    clauses += [_zone_clause(zone, count, too_many=False) for zone, count in diff.missing]
    return "; ".join(clauses) or _("the board is as expected")


def _board_words(mistake: Mistake, colour: str) -> str:
    return _diff_words(mistake.diff)


def _zone_clause(zone: int, count: int, *, too_many: bool) -> str:
    if 1 <= zone <= POINTS:
        if too_many:
            text = ngettext(
                "point {point} has one checker too many",
                "point {point} has {count} checkers too many",
                count,
            )
        else:
            text = ngettext(
                "point {point} has one checker too few",
                "point {point} has {count} checkers too few",
                count,
            )
        return text.format(point=zone, count=count)
    colour = _(COLOURS[WHITE if zone in (BAR_WHITE, TRAY_WHITE) else BLACK])
    if zone in (BAR_WHITE, BAR_BLACK):
        if too_many:
            text = ngettext(
                "{colour}'s bar has one checker too many",
                "{colour}'s bar has {count} checkers too many",
                count,
            )
        else:
            text = ngettext(
                "{colour}'s bar has one checker too few",
                "{colour}'s bar has {count} checkers too few",
                count,
            )
    elif too_many:
        text = ngettext(
            "{colour}'s tray has one checker too many",
            "{colour}'s tray has {count} checkers too many",
            count,
        )
    else:
        text = ngettext(
            "{colour}'s tray has one checker too few",
            "{colour}'s tray has {count} checkers too few",
            count,
        )
    return text.format(colour=colour, count=count)


_WORDS: Final[dict[MistakeKind, Callable[[Mistake, str], str]]] = {
    MistakeKind.HIT_UNDONE: _hit_words,
    MistakeKind.DISTANCE: _distance_words,
    MistakeKind.NOT_YOURS: _not_yours_words,
    MistakeKind.BAR_FIRST: _bar_first_words,
    MistakeKind.EARLY_BEAR_OFF: _early_words,
    MistakeKind.OVERFULL_BEAR_OFF: _overfull_words,
    MistakeKind.INCOMPLETE: _incomplete_words,
    MistakeKind.BOARD: _board_words,
}
"""The sentence of each kind, given the mistake and its colour's name."""
