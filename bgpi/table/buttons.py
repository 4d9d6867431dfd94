"""What every button does in every phase: one table of rows, read by everything.

A row says: in this phase, this player's button, pressed short or held, means this
(:class:`Intent`, what the table does; :class:`~bgpi.lights.scene.Meaning`, the light at the
button; ``words``, the page's status line), when ``when`` allows it, and leads to one of
these phases (``leads``: where the table is once the press, and the dice it asks for, are
done). Pressing (:meth:`bgpi.table.core.Table.handle`), the prompts in the scene
(:mod:`bgpi.present.leds`) and the status line (:mod:`bgpi.web.view`) all read
:func:`active_rows`, so a new gesture is one row and a prompt cannot say what a press does
not do.

A button whose held row is active waits for its release to tell short from held (its short
meaning then acts on release); every other button acts when it goes down. The hint rows
(:mod:`bgpi.table.hints`) take only gestures free in their phase, and only for a seat the
config gives hints: for anyone else ROLL before rolling still acts when it goes down. No
press acts while the sensors are down (a stale board decides nothing), so no button is lit
then; a press with no row does nothing, and a ROLL refused while moving says why
(:func:`bgpi.sensing.mistakes.refusal`). ROLL of the player on roll pressed while moving on a
board not yet settled (the last checker just dropped) waits for the board, and these rows
decide it once it has settled (:mod:`bgpi.table.settling`).

A takeback is asked by the player who just played, before the opponent rolls or doubles (a
roll or a double answers it: the play stands), and only in a casual match: on the clock the
play is the time it took, and a remote board has already been sent the play and its hands
may be making it (the protocol has no word to take it back). The opponent agrees or
refuses (for good: journaled), or the asker withdraws the request; the computer in the
other seat agrees at once (a person's takeback against the computer is casual play's
custom), but its own plays are never taken back: it asks nothing.
Taken back, the hands put the checkers back as the lights show a wrong board, and the
player makes a play again with the same dice (*moving* straight away only where the
sensors cannot see the play taken back). *takeback* is the phase of a takeback asked,
*taking back* the one where the checkers go back.

In "leads to", *before* is the phase before rolling and *over* is game over or match over
(a play or a resignation that wins the match); *entering* is where dice thrown by hand are
entered (the match's dice are the players' own). The *enterer* is the player whose roll it
is, or, where that seat is not a person here (the computer's roll), the person who throws
its dice; the *thrower* is the same person while two GoDice are awaited (*rolling*). A die
that stays connected but cannot be used (rolled under the sofa, resting cocked throw after
throw, left in a pocket) is no fault the link could see: the thrower's held CUBE enters
this one roll by hand instead, and the next roll reads the dice again.

========== ========= ====== ===== ========================== ============= =====================
phase      player    button hold  intent                     leads to      when
========== ========= ====== ===== ========================== ============= =====================
opening    either    ROLL   short roll my opening die        opening,      not rolled yet
                                                             moving,
                                                             entering
before     on roll   ROLL   short roll                       moving,       the board shows the
                                                             entering      position (a person's)
entering   enterer   CUBE   short the die shown: next value  entering
entering   enterer   CUBE   held  the die shown: the value     entering
                                  before
entering   enterer   ROLL   short take the die shown         entering,
                                                             opening,
                                                             moving
entering   enterer   ROLL   held  take it as a double        moving        the first of two dice
rolling    thrower   CUBE   held  enter this roll by hand    entering      GoDice thrown (and
                                                                           not drawn elsewhere)
before     on roll   CUBE   short double                     doubled       the rules allow it
                                                                           (and the board, as
                                                                           ROLL)
before     on roll   CUBE   held  choose a resignation       resigning     the board, as ROLL
before     on roll   ROLL   held  hint: would gnubg double?  before        hints on for the seat
before     the other ROLL   held  ask to take back the play  takeback,     a person's play of a
                                  just made (the computer    taking back,  move just made, the
                                  agrees at once)            moving        board showing it; no
                                                                           clock, no remote board
takeback   on roll   ROLL   short let it be taken back       taking back,
                                                             moving
takeback   on roll   CUBE   short refuse: the play stands    before
takeback   the other CUBE   short withdraw the request: the   before
                                  play may still be asked
                                  back until the roll
doubled    the other ROLL   short take                       before
doubled    the other ROLL   held  beaver                     before        the rules allow it
doubled    the other CUBE   short drop                       game over
doubled    the other CUBE   held  hint: take, drop or        doubled       hints on for the seat
                                  beaver?
moving     on roll   ROLL   short end the turn               before,       a complete play shown
                                                             confirm, over
moving     on roll   ROLL   short end the turn: no move      before        the roll has no move
moving     on roll   ROLL   short end the turn as it stands  illegal       the board is wrong and
                                                                           illegal plays may be
                                                                           accepted (config;
                                                                           never against a
                                                                           remote board)
moving     on roll   CUBE   held  choose a resignation       resigning
moving     on roll   ROLL   held  hint: gnubg's play, lit    moving        hints on for the seat,
                                                                           no checker moved yet,
                                                                           a move to make
illegal    the other ROLL   short accept the play, and roll  moving,       the board can be read
                                                             entering
illegal    the other CUBE   short demand the correction      moving
resigning  on roll   ROLL   short offer the level shown      offered
resigning  on roll   CUBE   short show the next level        resigning
                                  (1, 2, 3, 1...)
resigning  on roll   CUBE   held  play on: no resignation    before,
                                                             moving
offered    the other ROLL   short accept the resignation     over
offered    the other CUBE   short decline it: play goes on   before,
                                                             moving
guided     a person  ROLL   short the lit move is made       guided,       the sensors cannot see
                                                             before        it (a full point, no
                                                                           tray sensors)
confirm    on roll   ROLL   short confirm the play lit       before
confirm    on roll   CUBE   short light the next candidate   confirm
game over  either    ROLL   short next game                  setup,        (opening: the board
                                                             opening       is set up already)
match over either    ROLL   short choose the next match      choosing
choosing   either    CUBE   short the option's next value    choosing
choosing   either    ROLL   short the next option            choosing
choosing   either    ROLL   held  start the match chosen     setup,        (opening: as next
                                                             opening       game)
(waiting)  claimant  ROLL   held  claim the match by         (the same)    a remote board owes
                                  forfeit                                  a message, silent
                                                                           past the patience
========== ========= ====== ===== ========================== ============= =====================

*(waiting)* is each phase a remote board can owe a message in (:data:`CLAIMABLE`); the
*claimant* is the seat here the table offers the claim to (:attr:`Table.claimant
<bgpi.table.core.Table.claimant>`). The press only asks: the shell sends the claim, and the
match ends once it is settled (:mod:`bgpi.remote.forfeit`), or play goes on if the other
board's message came first. Its light shows although it is held: a silent board is shown as a
fault, and the claim is the one thing a person here can do about it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Final

from bgpi.base.i18n import N_
from bgpi.base.words import CUBE, PLAYERS, ROLL, WHITE, ButtonName, Player
from bgpi.journal.records import Seat
from bgpi.lights.scene import Meaning
from bgpi.rules.errors import IllegalCubeActionError
from bgpi.sensing.tracker import Kind
from bgpi.table.board import shows
from bgpi.table.phases import BeforeRoll, Entering, Guided, Illegal, Moving, Phase, Rolling

if TYPE_CHECKING:
    from bgpi.table.core import Table


class Who(Enum):
    """Whose button a row is, relative to the turn."""

    EITHER = "either player"
    ON_ROLL = "the player on roll"
    OTHER = "the other player"
    ENTERER = "the player entering the dice"
    THROWER = "the player throwing the GoDice"


BY_HAND: Final = (Who.ENTERER, Who.THROWER)
"""Whose button is the person's whose hands throw the dice, whichever seat's roll it is."""


class Hold(Enum):
    SHORT = "short"
    HELD = "held"


class Intent(Enum):
    """What a player wants the table to do: from a press here, or sent by a seat."""

    OPENING_ROLL = "opening roll"
    ROLL = "roll"
    DOUBLE = "double"
    TAKE = "take"
    BEAVER = "beaver"
    DROP = "drop"
    END_TURN = "end turn"
    CONFIRM = "confirm"
    NEXT_CANDIDATE = "next candidate"
    NEXT_GAME = "next game"
    RESIGN = "resign"
    NEXT_LEVEL = "next level"
    OFFER_RESIGN = "offer the resignation"
    CANCEL_RESIGN = "play on"
    ACCEPT_RESIGN = "accept the resignation"
    DECLINE_RESIGN = "decline the resignation"
    END_TURN_ILLEGAL = "end the turn on an illegal play"
    ACCEPT_ILLEGAL = "accept the illegal play and roll"
    DEMAND_CORRECTION = "demand the correction"
    NEXT_VALUE = "the option's next value"
    NEXT_OPTION = "the next option"
    START_MATCH = "start the match chosen"
    MOVE_MADE = "the lit move is made"
    HINT = "ask the engine for a hint"
    NEXT_FACE = "the die shown: next value"
    PREVIOUS_FACE = "the die shown: the value before"
    TAKE_DIE = "take the die shown"
    TAKE_DOUBLET = "take the die shown as a doublet"
    ENTER_BY_HAND = "enter this roll by hand"
    ASK_TAKEBACK = "ask to take back the play"
    ACCEPT_TAKEBACK = "let the play be taken back"
    REFUSE_TAKEBACK = "refuse the takeback"
    WITHDRAW_TAKEBACK = "withdraw the takeback asked"
    CLAIM_FORFEIT = "claim the match by forfeit"


SEAT_WORDS: Final = {
    Intent.OPENING_ROLL: N_("rolls the opening die"),
    Intent.ROLL: N_("rolls"),
    Intent.DOUBLE: N_("doubles"),
    Intent.TAKE: N_("takes"),
    Intent.BEAVER: N_("answers with a beaver"),
    Intent.DROP: N_("drops"),
    Intent.NEXT_GAME: N_("starts the next game"),
    Intent.RESIGN: N_("resigns"),  # with the level, straight to the offer
    Intent.ACCEPT_RESIGN: N_("accepts"),
    Intent.DECLINE_RESIGN: N_("declines"),
    Intent.ACCEPT_ILLEGAL: N_("accepts it"),
    Intent.DEMAND_CORRECTION: N_("demands the correction"),
    Intent.START_MATCH: N_("starts the match"),  # asked only where no seat is a person here
}
"""What a seat that is not a person here may decide (it gives its play as moves instead),
each in the status line's words while the table waits for it: a row's ``words`` say a
person's gesture, these the seat's decision the same rows allow."""

SEAT_INTENTS: Final = frozenset(SEAT_WORDS)

Guard = Callable[["Table", Player], bool]


def _always(table: Table, player: Player) -> bool:
    return True


@dataclass(frozen=True, slots=True)
class Row:
    phase: Phase
    who: Who
    button: ButtonName
    hold: Hold
    intent: Intent
    leads: tuple[Phase, ...]  # where the press leads (once the dice it asks for are rolled)
    meaning: Meaning
    words: str  # for the status line, e.g. "rolls (ROLL)"; marked, translated when shown
    when: Guard = _always


def _opening_die_due(table: Table, player: Player) -> bool:
    return table.opening[player] is None


def _board_ready(table: Table, player: Player) -> bool:
    """A person rolls or doubles only once the board shows the position (a seat elsewhere
    decides on the position itself, and the hands here then make its play)."""
    return table.seats[player] is not Seat.PERSON or table.board_ok()


def _may_double(table: Table, player: Player) -> bool:
    return _board_ready(table, player) and table.match.may_double(player)


def _may_beaver(table: Table, player: Player) -> bool:
    try:
        table.match.beaver()  # the rules say whether a beaver is allowed here
    except IllegalCubeActionError:
        return False  # no beaver in these rules, or past the cube's limit
    return True


def _complete_moves(table: Table) -> bool | None:
    """Whether the complete play the board shows moves a checker (False: the roll has no
    move, and ROLL passes); None while the board shows no complete play."""
    at = table.at
    if not isinstance(at, Moving) or at.reading is None:
        return None
    reading = at.reading
    if reading.kind is not Kind.AT_NODE or not reading.complete:
        return None
    return bool(at.tracker.node(reading.nodes[0]).moves)


def _played(table: Table, player: Player) -> bool:
    return _complete_moves(table) is True


def _cannot_move(table: Table, player: Player) -> bool:
    return _complete_moves(table) is False


def _illegal_may_end(table: Table, player: Player) -> bool:
    return _wrong(table) and table.config.accept_illegal and not _against_remote(table, player)


def _wrong(table: Table) -> bool:
    at = table.at
    return isinstance(at, Moving) and at.reading is not None and at.reading.kind is Kind.WRONG


def _against_remote(table: Table, player: Player) -> bool:
    """Whether an illegal play of ``player``'s can only be corrected, never accepted: against
    a remote board, whose hands could not make a position its rules refuse and whose person
    cannot see this board to judge it (as online servers do, only legal plays are sent)."""
    return table.seats[Player(player).other] is Seat.REMOTE


def illegal_refused(table: Table) -> bool:
    """The board shows a play no legal play leads to, and it may not end the turn as it
    stands because the other seat is a remote board (the status line says why)."""
    turn = table.match.turn
    return turn is not None and _wrong(table) and _against_remote(table, turn)


def unseen_lit(table: Table, player: Player = WHITE) -> bool:
    """A guided play lights a move the sensors cannot see, and the board shows the step it
    leads to (which reads as the step before it): only the hands can say it is made."""
    at, seen = table.at, table.observation
    if not isinstance(at, Guided) or not at.needs_word or seen is None:
        return False
    return shows(seen, at.steps[at.done + 1], table.config.caps)


def may_take_back(table: Table, player: Player) -> bool:
    """Whether ``player`` may ask to take back the play just made: a person's play of at
    least one move, the opponent not yet rolled or doubled (the phase before rolling still
    holds the play), the board showing it (what the opponent agrees to take back), off the
    clock (the play is the time it took) and against no remote board (it was sent the play,
    and has no word to take it back)."""
    at = table.at
    undo = at.undo if isinstance(at, BeforeRoll) else None
    return (
        undo is not None
        and undo.player == player
        and bool(undo.moves)
        and table.seats[player] is Seat.PERSON
        and Seat.REMOTE not in table.seats
        and table.clock is None
        and table.board_ok()
    )


def _hints(table: Table, player: Player) -> bool:
    return player in table.config.hints


def _play_hint(table: Table, player: Player) -> bool:
    """Hints on, the roll's first checker not moved (the tracker at the turn's start, or
    not read yet) and a move to make."""
    at = table.at
    if not _hints(table, player) or not isinstance(at, Moving) or at.near != 0:
        return False
    reading = at.reading
    if reading is not None and (reading.kind is not Kind.AT_NODE or reading.nodes[0] != 0):
        return False
    return not at.tracker.node(0).complete


def enterer(table: Table) -> Player | None:
    """Who enters the dice thrown by hand (None when none are being entered): the player
    whose roll it is, or, if that seat is not a person here, the person who throws them
    (against the computer, the person rolls the computer's dice too)."""
    at = table.at
    return _hand(table, Player(at.player)) if isinstance(at, Entering) else None


def thrower(table: Table) -> Player | None:
    """Who throws the GoDice awaited (None when no throw is awaited), as :func:`enterer`."""
    at = table.at
    if not isinstance(at, Rolling) or not at.thrown:
        return None
    return _hand(table, Player(at.player))


def _hand(table: Table, roller: Player) -> Player:
    """The person whose hands throw ``roller``'s dice."""
    if table.seats[roller] is not Seat.PERSON and table.seats[roller.other] is Seat.PERSON:
        return roller.other
    return roller


def _may_claim(table: Table, player: Player) -> bool:
    return table.claimant == player and _against_remote(table, player)


def _first_of_two(table: Table, player: Player) -> bool:
    at = table.at
    return isinstance(at, Entering) and at.count == 2 and not at.entered


def _readable(table: Table, player: Player) -> bool:
    return isinstance(table.at, Illegal) and table.at.after is not None


S, H = Hold.SHORT, Hold.HELD
# A held meaning never lights its button (the button shows its short meaning, or nothing):
# the hint rows borrow a meaning only to fill the row; the status line says them.
HINT_LIGHT: Final = Meaning.CONFIRM
TAKEBACK_LIGHT: Final = Meaning.DECLINE  # likewise: asking is a held ROLL, never lit
P = Phase
# Where presses lead: the game won (or the match); back to the turn where it was; a new
# game, whose opening starts at once on a board already set up.
OVER: Final = (P.GAME_OVER, P.MATCH_OVER)
TURN: Final = (P.BEFORE_ROLL, P.MOVING)
NEW_GAME: Final = (P.SETUP, P.OPENING)
ROLLED: Final = (P.MOVING, P.ENTERING)  # the dice rolled, or (thrown by hand) being entered
# Where a remote board can owe a message: its opening die, its roll or the dice being drawn
# (its reveal), its play, its answer to a double or a resignation (bgpi.remote.turns).
CLAIMABLE: Final = (P.OPENING, P.BEFORE_ROLL, P.ROLLING, P.MOVING, P.DOUBLED, P.RESIGN_OFFERED)

ROWS: Final = (
    Row(P.OPENING, Who.EITHER, ROLL, S, Intent.OPENING_ROLL, (P.OPENING, *ROLLED),
        Meaning.ROLL, N_("presses ROLL"), _opening_die_due),
    Row(P.BEFORE_ROLL, Who.ON_ROLL, ROLL, S, Intent.ROLL, ROLLED,
        Meaning.ROLL, N_("rolls (ROLL)"), _board_ready),
    Row(P.ENTERING, Who.ENTERER, CUBE, S, Intent.NEXT_FACE, (P.ENTERING,),
        Meaning.CHANGE, N_("CUBE steps the die shown")),
    Row(P.ENTERING, Who.ENTERER, CUBE, H, Intent.PREVIOUS_FACE, (P.ENTERING,),
        Meaning.NEXT, N_("hold CUBE to step back")),
    Row(P.ENTERING, Who.ENTERER, ROLL, S, Intent.TAKE_DIE, (P.ENTERING, P.OPENING, P.MOVING),
        Meaning.CONFIRM, N_("ROLL keeps it")),
    Row(P.ENTERING, Who.ENTERER, ROLL, H, Intent.TAKE_DOUBLET, (P.MOVING,),
        Meaning.CONFIRM, N_("hold ROLL: both dice alike"), _first_of_two),
    # GoDice that answer but cannot be used: this one roll entered instead (held, never lit:
    # a short CUBE does nothing while the dice are thrown).
    Row(P.ROLLING, Who.THROWER, CUBE, H, Intent.ENTER_BY_HAND, (P.ENTERING,),
        Meaning.CHANGE, N_("hold CUBE to enter this roll by hand")),
    Row(P.BEFORE_ROLL, Who.ON_ROLL, CUBE, S, Intent.DOUBLE, (P.DOUBLED,),
        Meaning.DOUBLE, N_("doubles (CUBE)"), _may_double),
    Row(P.BEFORE_ROLL, Who.ON_ROLL, CUBE, H, Intent.RESIGN, (P.RESIGNING,),
        Meaning.RESIGN, N_("hold CUBE to resign"), _board_ready),
    Row(P.DOUBLED, Who.OTHER, ROLL, S, Intent.TAKE, (P.BEFORE_ROLL,),
        Meaning.TAKE, N_("takes (ROLL)")),
    Row(P.DOUBLED, Who.OTHER, ROLL, H, Intent.BEAVER, (P.BEFORE_ROLL,),
        Meaning.BEAVER, N_("hold ROLL to beaver"), _may_beaver),
    # A drop never wins the match: the doubler needs more than the cube (a dead cube is
    # never turned).
    Row(P.DOUBLED, Who.OTHER, CUBE, S, Intent.DROP, (P.GAME_OVER,),
        Meaning.DROP, N_("drops (CUBE)")),
    Row(P.DOUBLED, Who.OTHER, CUBE, H, Intent.HINT, (P.DOUBLED,),
        HINT_LIGHT, N_("hold CUBE for gnubg's hint: take, drop or beaver"), _hints),
    Row(P.BEFORE_ROLL, Who.ON_ROLL, ROLL, H, Intent.HINT, (P.BEFORE_ROLL,),
        HINT_LIGHT, N_("hold ROLL for gnubg's hint: double or not"), _hints),
    Row(P.MOVING, Who.ON_ROLL, ROLL, H, Intent.HINT, (P.MOVING,),
        HINT_LIGHT, N_("hold ROLL to see gnubg's play lit"), _play_hint),
    Row(P.MOVING, Who.ON_ROLL, ROLL, S, Intent.END_TURN, (P.BEFORE_ROLL, P.CONFIRM, *OVER),
        Meaning.END_TURN, N_("ROLL ends the turn"), _played),
    Row(P.MOVING, Who.ON_ROLL, ROLL, S, Intent.END_TURN, (P.BEFORE_ROLL,),
        Meaning.ACKNOWLEDGE, N_("ROLL to pass"), _cannot_move),
    Row(P.MOVING, Who.ON_ROLL, ROLL, S, Intent.END_TURN_ILLEGAL, (P.ILLEGAL,),
        Meaning.END_TURN, N_("ROLL ends the turn as it stands"), _illegal_may_end),
    Row(P.BEFORE_ROLL, Who.OTHER, ROLL, H, Intent.ASK_TAKEBACK,
        (P.TAKEBACK_ASKED, P.TAKING_BACK, P.MOVING), TAKEBACK_LIGHT,
        N_("the player who just played may hold ROLL to ask for a takeback"),
        may_take_back),
    Row(P.TAKEBACK_ASKED, Who.ON_ROLL, ROLL, S, Intent.ACCEPT_TAKEBACK,
        (P.TAKING_BACK, P.MOVING), Meaning.ACCEPT, N_("lets it be taken back (ROLL)")),
    Row(P.TAKEBACK_ASKED, Who.ON_ROLL, CUBE, S, Intent.REFUSE_TAKEBACK, (P.BEFORE_ROLL,),
        Meaning.DECLINE, N_("refuses: the play stands (CUBE)")),
    # The asker thinks better of it: his own CUBE (his ROLL just asked; the opponent's
    # buttons are the answer), lit as his own: he declines nothing, he takes his request back.
    Row(P.TAKEBACK_ASKED, Who.OTHER, CUBE, S, Intent.WITHDRAW_TAKEBACK, (P.BEFORE_ROLL,),
        Meaning.WITHDRAW, N_("may withdraw the request (CUBE)")),
    Row(P.ILLEGAL, Who.OTHER, ROLL, S, Intent.ACCEPT_ILLEGAL, ROLLED,
        Meaning.ACCEPT, N_("accepts it by rolling (ROLL)"), _readable),
    Row(P.ILLEGAL, Who.OTHER, CUBE, S, Intent.DEMAND_CORRECTION, (P.MOVING,),
        Meaning.DECLINE, N_("demands the correction (CUBE)")),
    Row(P.MOVING, Who.ON_ROLL, CUBE, H, Intent.RESIGN, (P.RESIGNING,),
        Meaning.RESIGN, N_("hold CUBE to resign")),
    Row(P.RESIGNING, Who.ON_ROLL, ROLL, S, Intent.OFFER_RESIGN, (P.RESIGN_OFFERED,),
        Meaning.RESIGN, N_("ROLL offers it")),
    Row(P.RESIGNING, Who.ON_ROLL, CUBE, S, Intent.NEXT_LEVEL, (P.RESIGNING,),
        Meaning.NEXT, N_("CUBE shows the next")),
    Row(P.RESIGNING, Who.ON_ROLL, CUBE, H, Intent.CANCEL_RESIGN, TURN,
        Meaning.DECLINE, N_("hold CUBE to play on")),
    Row(P.RESIGN_OFFERED, Who.OTHER, ROLL, S, Intent.ACCEPT_RESIGN, OVER,
        Meaning.ACCEPT, N_("accepts (ROLL)")),
    Row(P.RESIGN_OFFERED, Who.OTHER, CUBE, S, Intent.DECLINE_RESIGN, TURN,
        Meaning.DECLINE, N_("declines (CUBE)")),
    # The word is for a move the sensors cannot see, and the last checker borne off always
    # shows: the word never ends a game.
    Row(P.GUIDED, Who.EITHER, ROLL, S, Intent.MOVE_MADE, (P.GUIDED, P.BEFORE_ROLL),
        Meaning.CONFIRM, N_("press ROLL once the lit move is made (the sensors cannot see it)"),
        unseen_lit),
    # A won board (all borne off) is one position, never two plays' look-alike.
    Row(P.CONFIRM, Who.ON_ROLL, ROLL, S, Intent.CONFIRM, (P.BEFORE_ROLL,),
        Meaning.CONFIRM, N_("ROLL confirms the one lit")),
    Row(P.CONFIRM, Who.ON_ROLL, CUBE, S, Intent.NEXT_CANDIDATE, (P.CONFIRM,),
        Meaning.NEXT, N_("CUBE shows the next")),
    Row(P.GAME_OVER, Who.EITHER, ROLL, S, Intent.NEXT_GAME, NEW_GAME,
        Meaning.NEW_GAME, N_("ROLL: the next game")),
    Row(P.MATCH_OVER, Who.EITHER, ROLL, S, Intent.NEXT_GAME, (P.CHOOSING,),
        Meaning.NEW_GAME, N_("ROLL chooses the next one")),
    Row(P.CHOOSING, Who.EITHER, CUBE, S, Intent.NEXT_VALUE, (P.CHOOSING,),
        Meaning.CHANGE, N_("CUBE changes it")),
    Row(P.CHOOSING, Who.EITHER, ROLL, S, Intent.NEXT_OPTION, (P.CHOOSING,),
        Meaning.NEXT, N_("ROLL goes to the next option")),
    Row(P.CHOOSING, Who.EITHER, ROLL, H, Intent.START_MATCH, NEW_GAME,
        Meaning.NEW_GAME, N_("hold ROLL to start the match")),
    *(
        Row(phase, Who.EITHER, ROLL, H, Intent.CLAIM_FORFEIT, (phase,),
            Meaning.CLAIM, N_("hold ROLL to claim the match by forfeit"), _may_claim)
        for phase in CLAIMABLE
    ),
)  # fmt: skip


def _whose(row: Row, table: Table) -> tuple[Player, ...]:
    turn = table.match.turn
    if row.who is Who.EITHER:
        return PLAYERS
    if row.who in BY_HAND:
        hand = enterer(table) if row.who is Who.ENTERER else thrower(table)
        return () if hand is None else (hand,)
    if turn is None:
        return ()
    return (turn,) if row.who is Who.ON_ROLL else (turn.other,)


def active_rows(table: Table, *, people_only: bool = True) -> tuple[tuple[Player, Row], ...]:
    """The rows that apply now, each with the player whose button it is, in table order:
    only the buttons of people at this board, unless ``people_only`` is False. While the
    sensors are down no person's press acts (:func:`bgpi.table.presses.press`), so
    none is lit; a seat elsewhere decides on the journal's position, not the board."""
    if people_only and table.sensors_down:
        return ()
    return tuple(
        (player, row)
        for row in ROWS
        if row.phase is table.phase
        for player in _whose(row, table)
        if (not people_only or table.seats[player] is Seat.PERSON or row.who in BY_HAND)
        and row.when(table, player)
    )


def rows_of(table: Table, player: Player, button: ButtonName) -> dict[Hold, Row]:
    """What ``player``'s ``button`` does now, short and held (whatever the seat: the caller
    knows who may press)."""
    return {
        row.hold: row
        for who, row in active_rows(table, people_only=False)
        if (who, row.button) == (player, button)
    }


def intents_of(table: Table, player: Player) -> frozenset[Intent]:
    """What ``player`` may want now, whatever the seat and the button."""
    return frozenset(
        row.intent for who, row in active_rows(table, people_only=False) if who == player
    )
