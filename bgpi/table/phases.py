"""The phases of the table: one small immutable value each, holding only what it needs.

:class:`Phase` names them (the journal, the page and the logs say ``phase.value``); the
classes below are the values the table holds, each with its name as ``kind``. What a button
does in each phase is not here but in :mod:`bgpi.table.buttons`, one row per gesture.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import ClassVar, Final

from bgpi.base.words import Player
from bgpi.journal.records import ELECTRONIC, DiceSource, Rethrown
from bgpi.rules import GameResult, Match, MatchRules, Move, Position
from bgpi.rules.clock import NO_CLOCK, ClockRules
from bgpi.sensing.godice import PairReading
from bgpi.sensing.mistakes import Mistake
from bgpi.sensing.tracker import Reading, TurnTracker
from bgpi.table.options import NOBODY, Option


class Phase(Enum):
    SETUP = "setup"
    OPENING = "opening"
    BEFORE_ROLL = "before roll"
    ROLLING = "rolling"
    ENTERING = "entering the dice"
    DOUBLED = "doubled"
    MOVING = "moving"
    CONFIRM = "confirm"
    GUIDED = "guided play"
    RESIGNING = "resigning"
    RESIGN_OFFERED = "resignation offered"
    ILLEGAL = "illegal play"
    TAKEBACK_ASKED = "takeback asked"
    TAKING_BACK = "taking back"
    CHOOSING = "choosing the match"
    ENDING = "ending"
    GAME_OVER = "game over"
    MATCH_OVER = "match over"


@dataclass(frozen=True, slots=True)
class Setup:
    """The board is being set up; the game starts once it shows the starting position."""

    kind: ClassVar[Phase] = Phase.SETUP


@dataclass(frozen=True, slots=True)
class Opening:
    """Each player rolls one die; ``dice`` holds those rolled so far (White's, Black's)."""

    kind: ClassVar[Phase] = Phase.OPENING
    dice: tuple[int | None, int | None] = (None, None)


@dataclass(frozen=True, slots=True)
class Undo:
    """A play just made that may still be taken back by agreement: who made it, its moves
    (as :class:`~bgpi.journal.records.Played` holds them), and the table as it stood before
    it: the position (White's view), the match (its player on roll, the dice to play) and
    the zones the play before it touched."""

    player: Player
    moves: tuple[tuple[int, int, int, bool], ...]
    position: Position
    match: Match
    last_play: frozenset[int]


TAKEBACK_WAIT: Final = 2.0
"""Seconds the computer waits before it rolls or doubles after a person's play it could be
asked to take back (a casual match): the person's time to hold ROLL and ask, where the
computer would otherwise answer in milliseconds (:class:`BeforeRoll`)."""


@dataclass(frozen=True, slots=True)
class BeforeRoll:
    """The player on roll rolls or doubles. ``undo`` is the other's play just made, while
    it may still be taken back (None after a take, a declined resignation, an accepted
    illegal play, and at the game's first roll). Where the computer is on roll after a
    person's play, it is asked only once the table has waited
    :attr:`~bgpi.table.events.TableConfig.takeback_wait` seconds from ``since`` (set by the
    first clock event, as :class:`Said` is): then ``undo`` goes, and the takeback with it."""

    kind: ClassVar[Phase] = Phase.BEFORE_ROLL
    undo: Undo | None = None
    since: float | None = None


@dataclass(frozen=True, slots=True)
class Rolling:
    """``player`` rolled (``count`` dice: one in the opening roll) and the dice come later:
    the board and the buttons are still read, but nothing is decided until they come; then
    play goes on from ``back``. Either they are drawn with another board (a remote match's
    commit-reveal exchange: ``reading`` None), or they are thrown by hand and read from two
    GoDice as they come to rest (``reading`` holds what the dice said so far; ``again`` the
    last throw that must be thrown again, a die cocked or moved, said until one counts)."""

    kind: ClassVar[Phase] = Phase.ROLLING
    player: Player
    count: int
    back: Opening | BeforeRoll
    reading: PairReading | None = None
    again: Rethrown | None = None

    @property
    def thrown(self) -> bool:
        """Whether the dice are thrown by hand and read from GoDice (not drawn elsewhere)."""
        return self.reading is not None


@dataclass(frozen=True, slots=True)
class Entering:
    """``player``'s dice (``count``: one in the opening roll) were thrown by hand, and a
    person here enters them: the dice pixels show ``shown``, CUBE steps it, ROLL takes it
    (held: a doublet, both dice at once); ``entered`` holds the dice taken so far. Then
    play goes on from ``back``, as if the board had rolled them. ``chosen``: a person here
    chose to enter this roll of a match of GoDice (a die that answers but cannot be used), so
    the pair's coming and going leaves it entered; the next roll reads the dice again."""

    kind: ClassVar[Phase] = Phase.ENTERING
    player: Player
    count: int
    back: Opening | BeforeRoll
    entered: tuple[int, ...] = ()
    shown: int = 1
    chosen: bool = False


@dataclass(frozen=True, slots=True)
class Doubled:
    """The player on roll has doubled; the other takes, beavers or drops."""

    kind: ClassVar[Phase] = Phase.DOUBLED


MISTAKE_FLASH: Final = 3.0
"""Seconds the LEDs flash the points of a mistake when it is first said; then the board's
guidance (what to take away, what to add) shows alone."""


@dataclass(frozen=True, slots=True)
class Said:
    """A mistake the table explains (:mod:`bgpi.sensing.mistakes`) while the board shows it,
    or since a refused ROLL until the board changes. Its points flash on the LEDs
    (``flashing``) for :data:`MISTAKE_FLASH` seconds from ``since``, which the next clock
    event sets (None until then: the table's steps know the time only from events)."""

    mistake: Mistake
    since: float | None = None
    flashing: bool = True

    def at(self, t: float) -> Said:
        """This, as the clock at ``t`` finds it: the flash started, or over."""
        if self.since is None:
            return Said(self.mistake, t)
        if self.flashing and t - self.since >= MISTAKE_FLASH:
            return Said(self.mistake, self.since, flashing=False)
        return self


@dataclass(frozen=True, slots=True)
class Moving:
    """The hands make the play. The tracker was prepared once for the roll; ``reading`` is
    its answer to the settled board, ``near`` the node it last matched; ``said`` the mistake
    the board shows (or why ROLL was refused), if any; ``pressed`` when the player's ROLL
    went down while the board had a change not yet settled: the press waits for the board,
    and is decided once it settles (:mod:`bgpi.table.settling`)."""

    kind: ClassVar[Phase] = Phase.MOVING
    tracker: TurnTracker
    reading: Reading | None = None
    near: int = 0
    said: Said | None = None
    pressed: float | None = None


@dataclass(frozen=True, slots=True)
class Confirm:
    """The board shows a play that several plays lead to: the player says which one."""

    kind: ClassVar[Phase] = Phase.CONFIRM
    tracker: TurnTracker
    candidates: tuple[int, ...]  # the tracker's nodes the board could be
    candidate: int = 0  # the index in ``candidates`` shown now


UNSEEN_WAIT: Final = 5.0
"""Seconds the hands have, where no person at this board can give their word, to make a
lit move the sensors cannot see; then the table counts it as made (see :class:`Guided`)."""


@dataclass(frozen=True, slots=True)
class Guided:
    """A seat that is not a person here chose ``moves``; the hands here make them, lit one
    by one. ``steps`` are the positions (White's view) after each move, ``steps[0]`` the
    start; ``done`` how many moves are made so far: it only moves forward, one move at a
    time, as the board shows the step after the lit move (never skipping to a later step
    the board seems to show: visible moves can add up to a change it cannot see).
    ``unseen`` holds the moves (their indices) the sensors cannot see: a point fuller than
    its switches, a checker borne off without tray sensors, so the step after the move reads
    as the step before it. Such a move, once lit, needs the word of the
    hands that it is made: a short ROLL of a person at this board; where neither seat is a
    person here (two engines, say), nobody can press, so the table counts the move as made
    once the board has held the lit step for :data:`UNSEEN_WAIT` seconds (``since``: when it
    first did, from the events' time). Waiting beats a guess: the hands follow the lights,
    and a stated time is something a shell's hands can keep. The tracker reads the board so
    that the whole play is committed only when every move is made and it is a legal play."""

    kind: ClassVar[Phase] = Phase.GUIDED
    tracker: TurnTracker
    moves: tuple[Move, ...]
    steps: tuple[Position, ...]
    done: int = 0
    unseen: frozenset[int] = frozenset()
    since: float | None = None

    @property
    def next_move(self) -> Move | None:
        return self.moves[self.done] if self.done < len(self.moves) else None

    @property
    def needs_word(self) -> bool:
        """Whether the move lit now is one the sensors cannot see."""
        return self.done in self.unseen


@dataclass(frozen=True, slots=True)
class Resigning:
    """The player on roll chooses how much to resign (``level``: 1 single, 2 gammon, 3
    backgammon); ``back`` is where play goes on if they change their mind."""

    kind: ClassVar[Phase] = Phase.RESIGNING
    level: GameResult
    back: BeforeRoll | Moving


@dataclass(frozen=True, slots=True)
class ResignPending:
    """The player on roll has offered to resign ``level``; the other accepts or declines,
    and a declined offer goes back to ``back``."""

    kind: ClassVar[Phase] = Phase.RESIGN_OFFERED
    level: GameResult
    back: BeforeRoll | Moving


@dataclass(frozen=True, slots=True)
class Illegal:
    """The player on roll ended the turn on a board no legal play leads to: both see where
    it differs from the nearest legal play. ``after`` is the position the board shows (the
    mover's view), None when the switches cannot say it: then the opponent may only demand
    the correction, which goes ``back`` to the moving phase."""

    kind: ClassVar[Phase] = Phase.ILLEGAL
    back: Moving
    after: Position | None


@dataclass(frozen=True, slots=True)
class TakebackAsked:
    """The player who just played (``undo.player``) asks to take the play back; the player
    on roll, who has not rolled or doubled, agrees or refuses. Not journaled: the asking
    changes nothing of the match, and after a power cut the asker asks again."""

    kind: ClassVar[Phase] = Phase.TAKEBACK_ASKED
    undo: Undo


@dataclass(frozen=True, slots=True)
class TakingBack:
    """A play taken back (the journal's :class:`~bgpi.journal.records.TakenBack`): the
    table is where it stood before the play, the player on roll again with the same dice,
    and the hands put the checkers back as the lights show. Once the board shows the
    position, the player makes a play again (the moving phase, with ``tracker``); ``moves``
    are those taken back, for the words."""

    kind: ClassVar[Phase] = Phase.TAKING_BACK
    tracker: TurnTracker
    moves: tuple[Move, ...]


@dataclass(frozen=True, slots=True)
class Choosing:
    """After a match, the players choose the next one: ``draft`` the rules so far (from the
    config's defaults), ``option`` the one shown now, ``dice`` where its dice come from,
    ``names`` who plays each side, chosen from the config's roster for the sides ``named``
    (:func:`~bgpi.table.options.named`)."""

    kind: ClassVar[Phase] = Phase.CHOOSING
    draft: MatchRules
    option: Option = Option.LENGTH
    clock: ClockRules = NO_CLOCK  # the match's clock, if it is a match
    dice: DiceSource = ELECTRONIC
    names: tuple[str, str] = NOBODY
    named: tuple[Player, ...] = ()


@dataclass(frozen=True, slots=True)
class Ending:
    """A play bore off the last checker: the end of the game follows in the same step."""

    kind: ClassVar[Phase] = Phase.ENDING


@dataclass(frozen=True, slots=True)
class GameOver:
    kind: ClassVar[Phase] = Phase.GAME_OVER


@dataclass(frozen=True, slots=True)
class MatchOver:
    kind: ClassVar[Phase] = Phase.MATCH_OVER


@dataclass(frozen=True, slots=True)
class Forfeited(MatchOver):
    """The match is over by forfeit (a remote board fell silent): ``winner`` won it, whatever
    the score. Otherwise a match over like any: a press chooses the next one."""

    winner: Player


@dataclass(frozen=True, slots=True)
class OnTime(MatchOver):
    """The match is over on time: ``player``'s flag fell (with no overtime left to give), so
    the opponent won it, the score raised to the match's length. Otherwise a match over like
    any; the status line says how it was won, which the score alone does not."""

    player: Player


PhaseState = (
    Setup
    | Opening
    | BeforeRoll
    | Rolling
    | Entering
    | Doubled
    | Moving
    | Confirm
    | Guided
    | Resigning
    | ResignPending
    | Illegal
    | TakebackAsked
    | TakingBack
    | Choosing
    | Ending
    | GameOver
    | MatchOver
)
