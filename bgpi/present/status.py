"""What the table says: the status line for the table as it stands, the sentence a person
reads on the page (what the table waits for, in the words of the buttons' rows).

One builder a phase, keyed in :data:`SENTENCES` as :mod:`bgpi.present.leds` keys the scene
each phase shows (:data:`bgpi.present.leds.SCENES`): a phase's words beside its lights.

Where no button of a person here does anything and the table waits for a seat that is not
a person here (the engine, a remote board: :func:`bgpi.table.waiting`), the phase's sentence
says what that seat may decide, in the words the same rows give it
(:data:`bgpi.table.buttons.SEAT_WORDS`), and names it with its seat: "Black (engine) rolls
or doubles."
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Final

from bgpi.base.faults import FaultSource
from bgpi.base.i18n import N_, _, ngettext
from bgpi.base.words import Player
from bgpi.journal.records import DiceSource, Unfit
from bgpi.lights.scene import Alert, Scene
from bgpi.present.leds import scene_of
from bgpi.present.numbering import printed_moves
from bgpi.present.phrases import LEVELS, SEATS, capitalized, either, option_phrase, players
from bgpi.present.phrases import zone as shown_zone
from bgpi.rules import Move
from bgpi.sensing.board import zone_of
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
    waiting,
)
from bgpi.table.buttons import SEAT_WORDS, Intent, illegal_refused, thrower
from bgpi.table.phases import (
    Choosing,
    Entering,
    Forfeited,
    OnTime,
    TakebackAsked,
    TakingBack,
)
from bgpi.table.seats import computer_waits

CLAIM: Final = Intent.CLAIM_FORFEIT


OUTAGES: Final[dict[FaultSource, str]] = {
    # Every press waits on the board's reading: say so, and that the checkers may stay as
    # they are (the board is read again as it stands once the sensors answer).
    FaultSource.SENSORS: N_(
        "The sensors stopped answering ({message}): no press counts until they are back,"
        " and then the board is read as it stands."
    ),
    # Nothing here stops (:mod:`bgpi.remote.board`): a play, a double or a resignation made
    # here is journaled and sent once the link is back; what the other board owes waits.
    FaultSource.REMOTE: N_(
        "The other board is not answering ({message}): what is played here is sent once it"
        " answers, and what it owes waits till then."
    ),
    # A die gone or low (or both dice): whichever, the buttons enter the dice meanwhile.
    FaultSource.GODICE: N_("{message}: the dice are entered with the buttons meanwhile."),
}
"""What each source's fault means for a person here, and what they can do about it (the
source's own words, ``message``, said with it)."""

STOPPED: Final[dict[FaultSource, str]] = {
    # No press counts, so nobody could hit the clock: the table stops it where it stood
    # (bgpi.table.timing), and the running move goes on from there once they are back.
    FaultSource.SENSORS: N_(
        "The sensors stopped answering ({message}): no press counts and the clock is stopped"
        " until they are back, and then the board is read as it stands and the clock runs on."
    ),
}
"""What a source's fault says instead of :data:`OUTAGES`' sentence while it stops a move's
clock (a clocked game in play)."""


def status(table: Table, scene: Scene) -> str:
    """One line saying what the table waits for: the phase's sentence around what each button
    does now, in the words of the table of rows (:mod:`bgpi.table.buttons`); first, what each
    backend that stopped answering means for the people here."""
    said = [_outage(table, FaultSource.REMOTE)]
    if table.outage is not None:  # the LEDs' fault alert hides the phase's own (a wrong board)
        scene = scene_of(replace(table, faults=()))
    if table.sensors_down:
        # No press counts, so the phase's sentence is said only where a seat elsewhere is
        # waited for: it decides on the journal's position, not on the board (whose last
        # reading may be stale: no word of it). A move's clock is stopped meanwhile.
        said.append(_outage(table, FaultSource.SENSORS))
        waited = _sentence(table, scene, ()) if _waited(table) is not None else ""
        return " ".join(line for line in (*said, waited, _overtime(table)) if line)
    if table.dice is DiceSource.GODICE:  # paired, but a match rolling otherwise needs no word
        said.append(_outage(table, FaultSource.GODICE))
    return " ".join(line for line in (*said, _line(table, scene), _overtime(table)) if line)


def _outage(table: Table, source: FaultSource) -> str:
    """What ``source``'s fault means here, if it is down (else nothing to say)."""
    message = table.down(source)
    if message is None:
        return ""
    clock = table.clock
    stopped = clock is not None and clock.paused and clock.running is not None
    sentence = STOPPED[source] if stopped and source in STOPPED else OUTAGES[source]
    return capitalized(_(sentence).format(message=message))


def _line(table: Table, scene: Scene) -> str:
    """The phase's sentence around what each button does now, and what a held press does."""
    rows = active_rows(table)
    words = list(dict.fromkeys(_(row.words) for _player, row in rows if row.hold is Hold.SHORT))
    held = list(dict.fromkeys(_(row.words) for _player, row in rows if row.hold is Hold.HELD))
    mistake = table.mistake
    if mistake is not None and table.phase is Phase.MOVING:
        line = _mistake_line(table, mistake, words)
    elif scene.alert is Alert.WRONG and table.phase not in (Phase.ILLEGAL, Phase.TAKING_BACK):
        line = _("The board is wrong: take away what blinks red, add where blue winks.")
        if words:
            line += " " + _("Or {choices}.").format(choices=either(words))
        if table.phase is Phase.ROLLING or _waited(table) is not None:  # decided meanwhile
            line = f"{_sentence(table, scene, words)} {line}"
    else:
        line = _sentence(table, scene, words)
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


def _sentence(table: Table, scene: Scene, words: Sequence[str]) -> str:
    """The phase's sentence around the people's words, or around what the seat the table
    waits for may decide (the same rows, in :data:`~bgpi.table.buttons.SEAT_WORDS`)."""
    seat = _waited(table)
    if seat is not None:
        words = list(
            dict.fromkeys(
                _(SEAT_WORDS[row.intent])
                for player, row in active_rows(table, people_only=False)
                if player == seat and row.intent in SEAT_WORDS
            )
        )
    return SENTENCES[table.phase](table, scene, words)


def _waited(table: Table) -> Player | None:
    """The player whose seat, not a person here, the table waits for while no person's
    button does anything (a person's press, where there is one, is what the line says)."""
    asked = waiting(table)
    # A claim offered, or asking to take back the play just made, is said beside what the
    # seat the table waits for may decide (the computer waits a moment for a takeback).
    asides = (CLAIM, Intent.ASK_TAKEBACK)
    pressing = [row for _player, row in active_rows(table) if row.intent not in asides]
    turn = table.match.turn
    if asked is None and computer_waits(table) and turn is not None and not pressing:
        return turn
    if asked is None or pressing:
        return None
    return Player(asked.player)


def _mistake_line(table: Table, mistake: Mistake, words: Sequence[str]) -> str:
    """The board's mistake in game words (:mod:`bgpi.sensing.mistakes`), and what a button
    still does (ending the turn as it stands, where the rules allow it)."""
    dice = "-".join(str(d) for d in sorted(table.match.dice or (), reverse=True))
    line = _("{name} plays {dice}: {mistake}.").format(
        name=_on_roll(table), dice=dice, mistake=mistake_words(mistake)
    )
    return f"{line} {_('Or {choices}.').format(choices=either(words))}" if words else line


def _setup(table: Table, scene: Scene, words: Sequence[str]) -> str:
    return _("Set up the board: blue winks where checkers are missing.")


def _opening(table: Table, scene: Scene, words: Sequence[str]) -> str:
    seat = _waited(table)
    if seat is not None:  # the other's die is rolled already
        line = _("Opening roll: {name} {choices}.")
        return line.format(name=_names(table)[seat], choices=either(words))
    return _("Opening roll: each player {choices}.").format(choices=either(words))


def _before_roll(table: Table, scene: Scene, words: Sequence[str]) -> str:
    return _("{name} {choices}.").format(name=_on_roll(table), choices=either(words))


def _rolling(table: Table, scene: Scene, words: Sequence[str]) -> str:
    at = table.at
    assert isinstance(at, Rolling)
    name = _names(table)[at.player]
    if at.thrown:
        by = thrower(table)
        if by is None or by == at.player:
            return _thrown(at, name, name)
        # The person throws the computer's dice: both named, the computer with its seat.
        seat = _(SEATS[table.seats[at.player]])
        return _thrown(at, _("{name} ({seat})").format(name=name, seat=seat), _names(table)[by])
    if at.count == 1:
        return _(
            "{name} rolls the opening die: it is drawn with the other board, waiting for its half."
        ).format(name=name)
    return _("{name} rolls: the dice are drawn with the other board, waiting for its half.").format(
        name=name
    )


def _thrown(at: Rolling, name: str, by: str) -> str:
    """The throw of GoDice awaited, ``by`` whom (against the computer, the person throws its
    dice), and why the last one must be made again (the sheets: a die cocked is thrown
    again, both dice with it)."""
    if by != name:
        if at.count == 1:
            line = _("{thrower} throws the opening die for {name}: it is read as it comes to rest.")
        else:
            line = _("{thrower} throws the dice for {name}: they are read as they come to rest.")
    elif at.count == 1:
        line = _("{name} throws the opening die: it is read as it comes to rest.")
    else:
        line = _("{name} throws both dice: they are read as they come to rest.")
    line = line.format(name=name, thrower=by)
    again = at.again
    if again is None:
        return line
    if again.why is Unfit.COCKED:
        why = _("Die {die} came to rest cocked: roll again.")
    else:
        why = _("Die {die} was moved as it came to rest: roll again.")
    return f"{why.format(die=again.die)} {line}"


def _entering(table: Table, scene: Scene, words: Sequence[str]) -> str:
    at = table.at
    assert isinstance(at, Entering)
    name = _names(table)[at.player]
    if at.count == 1:
        line = _("{name}'s opening die, thrown by hand, is entered: it shows {value}.")
    elif at.entered:
        line = _("{name}'s dice, thrown by hand, are entered: {first} and {value}.")
    else:
        line = _("{name}'s dice, thrown by hand, are entered: the first shows {value}.")
    line = line.format(name=name, value=at.shown, first=at.entered[0] if at.entered else 0)
    return f"{line} {capitalized(either(words))}." if words else line


def _doubled(table: Table, scene: Scene, words: Sequence[str]) -> str:
    turn = _turn(table)
    name, other = _names(table)[turn], _names(table)[turn.other]
    line = _("{name} doubles: {other} {choices}.")
    return line.format(name=name, other=other, choices=either(words))


def _moving(table: Table, scene: Scene, words: Sequence[str]) -> str:
    name = _on_roll(table)
    dice = "-".join(str(d) for d in sorted(table.match.dice or (), reverse=True))
    if _waited(table) is not None:  # the seat's play, once chosen, is lit move by move
        if scene.alert is Alert.NO_MOVE:
            return _("{name} rolled {dice} and cannot move.").format(name=name, dice=dice)
        return _("{name} rolled {dice} and chooses its play.").format(name=name, dice=dice)
    if scene.alert is Alert.NO_MOVE:
        line = _("{name} rolled {dice} and cannot move: {choices}.")
        return line.format(name=name, dice=dice, choices=either(words))
    if words:
        line = _("{name} has played {dice}: {choices}.")
        return line.format(name=name, dice=dice, choices=either(words))
    return _("{name} plays {dice}: lift a checker to see where it may go.").format(
        name=name, dice=dice
    )


def _confirm(table: Table, scene: Scene, words: Sequence[str]) -> str:
    line = _("Which play did {name} make? {choices}.")
    return line.format(name=_on_roll(table), choices=", ".join(words))


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
    return f"{line} {capitalized(either(words))}." if words else line


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
    return line.format(name=name, worth=worth, other=other, choices=either(words))


def _illegal(table: Table, scene: Scene, words: Sequence[str]) -> str:
    at, turn = table.at, _turn(table)
    assert isinstance(at, Illegal)
    name, other = _names(table)[turn], _names(table)[turn.other]
    line = _("{name} ended the turn on an illegal play (it blinks): {other} {choices}.").format(
        name=name, other=other, choices=either(words)
    )
    if at.after is None:
        line += " " + _("The switches cannot tell where the checkers are: it must be corrected.")
    mistake = table.mistake
    if mistake is not None:
        line += " " + _("The mistake: {mistake}.").format(mistake=mistake_words(mistake))
    return line


def _takeback_asked(table: Table, scene: Scene, words: Sequence[str]) -> str:
    """The opponent's answers, then what the asker may still do (withdraw), each named."""
    at, turn = table.at, _turn(table)
    assert isinstance(at, TakebackAsked)
    asker = at.undo.player
    moves = printed_moves(asker, tuple(Move(*move) for move in at.undo.moves))
    askers = {_(row.words) for player, row in active_rows(table) if player == asker}
    answers = [said for said in words if said not in askers]
    line = _("{name} asks for a takeback of {moves} (lit): {other} {choices}.").format(
        name=_names(table)[asker], moves=moves, other=_names(table)[turn], choices=either(answers)
    )
    withdraw = [said for said in words if said in askers]
    if not withdraw:
        return line
    again = _("{name} {choices}.").format(name=_names(table)[asker], choices=either(withdraw))
    return f"{line} {again}"


def _taking_back(table: Table, scene: Scene, words: Sequence[str]) -> str:
    at, turn = table.at, _turn(table)
    assert isinstance(at, TakingBack)
    dice = "-".join(str(d) for d in sorted(table.match.dice or (), reverse=True))
    line = _(
        "{name}'s {moves} is taken back: put the checkers back (take away what blinks red,"
        " add where blue winks), then play {dice} again."
    )
    return line.format(name=_on_roll(table), moves=printed_moves(turn, at.moves), dice=dice)


def _choosing(table: Table, scene: Scene, words: Sequence[str]) -> str:
    at = table.at
    assert isinstance(at, Choosing)
    shown = option_phrase(at.draft, at.option, at.dice, at.clock, at.names)
    seat = _waited(table)
    if seat is not None:  # no person here: a seat starts the match as shown
        line = _("The next match: {option}. {name} {choices}.")
        return line.format(option=shown, name=_names(table)[seat], choices=either(words))
    line = _("The next match: {option}. {choices}.")
    return line.format(option=shown, choices=", ".join(words))


def _ending(table: Table, scene: Scene, words: Sequence[str]) -> str:
    return _setup(table, scene, words)  # never shown: the end of the game follows in the same step


def _over(table: Table, scene: Scene, words: Sequence[str]) -> str:
    winner = scene.winner
    who = _names(table)[winner] if winner is not None else _("Nobody")
    (white, black), score = _names(table), table.match.score
    if isinstance(table.at, Forfeited):  # whatever the score: the other board fell silent
        line = _("{name} wins the match by forfeit: {white} {white_score}, {black} {black_score}.")
    elif isinstance(table.at, OnTime):  # the score says nothing of the flag that fell
        line = _("{name} wins the match on time: {white} {white_score}, {black} {black_score}.")
    elif table.phase is Phase.MATCH_OVER:
        line = _("{name} wins the match: {white} {white_score}, {black} {black_score}.")
    else:
        line = _("{name} wins the game: {white} {white_score}, {black} {black_score}.")
    line = line.format(
        name=who, white=white, white_score=score[0], black=black, black_score=score[1]
    )
    # No person here: no button to name (no seat is asked for the next game).
    return f"{line} {capitalized(either(words))}." if words else line


def _overtime(table: Table) -> str:
    """Said while a player whose flag fell once plays on in the overtime it gave: the clock
    shows the overtime, but not that the next fall ends the match."""
    clock = table.clock
    running = None if clock is None else clock.running
    if clock is None or running is None or not clock.overtime_given[running]:
        return ""
    line = _("{name} is in overtime: if the time runs out again, the match is lost.")
    return line.format(name=players(table.names)[running])


def _turn(table: Table) -> Player:
    turn = table.match.turn
    assert turn is not None
    return turn


def _on_roll(table: Table) -> str:
    return _names(table)[_turn(table)]


def _names(table: Table) -> tuple[str, str]:
    """The players' names, the seat the table waits for named with its seat (``Black
    (engine)``): what it decides is not a press here."""
    white, black = players(table.names)
    seat = _waited(table)
    if seat is None:
        return white, black
    named = _("{name} ({seat})").format(name=(white, black)[seat], seat=_(SEATS[table.seats[seat]]))
    return (named, black) if seat is Player.WHITE else (white, named)


SENTENCES: Final[dict[Phase, Callable[[Table, Scene, Sequence[str]], str]]] = {
    Phase.SETUP: _setup,
    Phase.OPENING: _opening,
    Phase.BEFORE_ROLL: _before_roll,
    Phase.ROLLING: _rolling,
    Phase.ENTERING: _entering,
    Phase.DOUBLED: _doubled,
    Phase.MOVING: _moving,
    Phase.CONFIRM: _confirm,
    Phase.GUIDED: _guided,
    Phase.RESIGNING: _resigning,
    Phase.RESIGN_OFFERED: _resigning,
    Phase.ILLEGAL: _illegal,
    Phase.TAKEBACK_ASKED: _takeback_asked,
    Phase.TAKING_BACK: _taking_back,
    Phase.CHOOSING: _choosing,
    Phase.ENDING: _ending,
    Phase.GAME_OVER: _over,
    Phase.MATCH_OVER: _over,
}
"""The sentence each phase says around the buttons' words, keyed as
:data:`bgpi.present.leds.SCENES` keys what each shows (in the order of
:class:`~bgpi.table.Phase`)."""
