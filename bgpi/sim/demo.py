"""``bgpi demo``: two players play a match on the simulated board, hands and all.

Each side is the built-in player (simple on purpose: it counts pips and likes hitting and
making points), playing as a person at the board would, or an engine (gnubg at a level) in a
seat that is not a person. What the demo shows is the table: every roll comes from the
table's dice; the built-in player's plays are made by lifting and placing checkers on the
simulated board and ended with the ROLL button, its cube actions are button presses; an
engine's decisions are the table's asks answered, its play is lit move by move and the hands
make it, as they would for the computer at a real board; what is printed is read back from
the journal.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Final

from bgpi.base.i18n import _
from bgpi.base.words import CUBE, PLAYERS, ROLL, TRAY_BLACK, TRAY_WHITE, WHITE, Player, bar_zone
from bgpi.engine import Engine, SeatKind, open_engine
from bgpi.engine import Seat as SeatChoice
from bgpi.engine.race import lost
from bgpi.engine.seat import EngineSeat
from bgpi.engine.simple import worth
from bgpi.journal.records import (
    DiceSource,
    GameStarted,
    MatchStarted,
    Played,
    Record,
    ResignAnswered,
    ResignOffered,
    Seat,
    TakenBack,
)
from bgpi.present.numbering import printed_moves
from bgpi.present.printer import Printer
from bgpi.rules import BAR, GameResult, Match, Play, Position, apply_move, legal_plays
from bgpi.sensing.board import observe, zone_of
from bgpi.sensing.tracker import Kind
from bgpi.service.driver import Journal
from bgpi.sim.simtable import Fresh, SimOptions, SimTable
from bgpi.sim.slips import Slip, slip_of
from bgpi.table import Decided, Guided, Illegal, Intent, Phase, TakebackAsked, Undo, waiting
from bgpi.table.buttons import may_take_back
from bgpi.table.phases import TAKEBACK_WAIT, UNSEEN_WAIT
from bgpi.table.seats import computer_waits

MAX_ACTIONS = 20_000  # a runaway guard: a 25-point match needs far fewer


@dataclass(frozen=True, slots=True)
class PipPlayer:
    """Picks the play that hits most, makes most points and leaves fewest blots; doubles
    with a clear lead in the race, takes unless far behind; resigns a race it has surely
    lost (:mod:`bgpi.engine.race`), and accepts a resignation of at least what it judges it
    may still win. With ``slips`` (a share of its plays, 0 to 1) it sometimes carries a
    checker one pip too far (:mod:`bgpi.sim.slips`); as the opponent of such a slip it accepts
    it when it leaves the slipper no better off than the play it chose, and else demands
    the correction. With ``takebacks`` (likewise a share) it asks to take back a play it
    has just made, once a turn, and makes another instead; as the opponent it agrees,
    unless the play hit one of its checkers (a hit stands)."""

    double_lead: float = 0.12
    drop_behind: float = 0.25
    slips: float = 0.0
    takebacks: float = 0.0
    thinks: float = 0.0  # the longest it thinks over a play, in seconds (seeded)

    def resigns(self, view: Position, declined: GameResult | None) -> GameResult | None:
        """What to resign before rolling (``declined``: the most declined this game)."""
        level = lost(view, margin=2)
        return None if level is None or (declined and level <= declined) else level

    def accepts(self, resigner: Position, offered: GameResult) -> bool:
        """Whether to accept ``offered`` from the resigner (``resigner``: their view)."""
        expected = lost(resigner, margin=1)  # the winner counts its chances more boldly
        return expected is None or offered >= expected

    def slip(
        self, view: Position, dice: tuple[int, int], choice: Play, rng: random.Random
    ) -> Slip | None:
        """Now and then (``slips`` of the plays), ``choice`` made wrong."""
        if not self.slips or rng.random() >= self.slips:
            return None
        return slip_of(view, choice, {play.result for play in legal_plays(view, dice)})

    def takes_slip(self, before: Position, after: Position, dice: tuple[int, int]) -> bool:
        """Whether to accept the mover's illegal play from ``before`` to ``after`` (the
        mover's view): only if no legal play would have served the mover worse."""
        best = max(worth(play.result) for play in legal_plays(before, dice))
        return worth(after) <= best

    def choose(
        self, view: Position, match: Match, rng: random.Random, instead: Position | None = None
    ) -> Play:
        """The play it likes best; after a takeback, one that does not lead to ``instead``
        (the play taken back's result), where the roll has another."""
        assert match.dice is not None
        plays = legal_plays(view, match.dice)
        others = [play for play in plays if play.result != instead] or plays
        return max(others, key=lambda play: (worth(play.result), rng.random()))

    def takes_back(self, rng: random.Random) -> bool:
        """Whether to ask to take back the play just made (``takebacks`` of them)."""
        return bool(self.takebacks) and rng.random() < self.takebacks

    def lets_take_back(self, undo: Undo) -> bool:
        """Whether to let the other take back ``undo``: yes, unless it hit a checker."""
        return not any(hit for _src, _dst, _die, hit in undo.moves)

    def doubles(self, view: Position, match: Match) -> bool:
        mine, theirs = view.pip_count
        return theirs - mine >= self.double_lead * theirs

    def answer(self, view: Position, match: Match, beaver_allowed: bool) -> str:
        mine, theirs = view.pip_count
        if mine - theirs > self.drop_behind * theirs:
            return "drop"
        return "beaver" if beaver_allowed and theirs - mine > 10 else "take"


Side = PipPlayer | EngineSeat
"""A side of the demo: the built-in player, as a person here, or an engine in its seat."""


def play_match(
    match: MatchStarted | Sequence[Record],
    *,
    seed: int,
    say: Callable[[str], None] = print,
    journal: Journal | None = None,
    games: int | None = None,
    sides: tuple[Side, Side] | None = None,
) -> SimTable:
    """Play ``match`` on a simulated table until it ends (money: ``games`` games), or resume
    it from a journal's records.

    Every choice depends only on the seed and the records so far, and the seeded dice resume
    after the dice in the records, so an interrupted and resumed match plays on exactly as an
    uninterrupted one would. ``sides`` plays White and Black (default: the built-in player);
    an engine's side is seated as the engine in a new match's record.
    """
    sim, players = demo_table(match, seed=seed, journal=journal, sides=sides)
    return play_on(sim, players, seed=seed, say=say, games=games)


def demo_table(
    match: MatchStarted | Sequence[Record],
    *,
    seed: int,
    journal: Journal | None = None,
    sides: tuple[Side, Side] | None = None,
    takeback_wait: float = TAKEBACK_WAIT,
) -> tuple[SimTable, tuple[Side, Side]]:
    """The simulated table :func:`play_match` plays ``match`` on, and the sides that play it
    (on the clock, thinking a while). The computer waits ``takeback_wait`` (simulated)
    seconds after a person's play, as ``[seats] takeback_wait_s`` has it wait at the board."""
    players = sides or (PipPlayer(), PipPlayer())
    first = match if isinstance(match, MatchStarted) else match[0] if match else None
    if isinstance(first, MatchStarted) and first.clock.on:  # on the clock, the hands think
        players = (_thinking(players[0]), _thinking(players[1]))
    seats = tuple(Seat.ENGINE if isinstance(p, EngineSeat) else Seat.PERSON for p in players)
    if isinstance(match, MatchStarted):
        match = replace(match, seats=(seats[0], seats[1]))
    elif match and isinstance(match[0], MatchStarted) and match[0].seats != seats:
        resumed = _(
            "the match resumed seats {white} and {black}, not {new_white} and {new_black}: give "
            "--white and --black as when it began"
        )
        white, black = match[0].seats
        raise ValueError(
            resumed.format(white=white, black=black, new_white=seats[0], new_black=seats[1])
        )
    godice = isinstance(first, MatchStarted) and first.dice is DiceSource.GODICE
    options = SimOptions(seed=seed, godice=godice, takeback_wait=takeback_wait)
    if isinstance(match, MatchStarted):  # chosen at the board, as players there always do
        sim = SimTable(Fresh(match), options=options, journal=journal)
    else:
        sim = SimTable(match, options=options, journal=journal)
    sim.seats = {n: p for n, p in zip(PLAYERS, players, strict=True) if isinstance(p, EngineSeat)}
    return sim, players


def play_on(
    sim: SimTable,
    players: tuple[Side, Side],
    *,
    seed: int,
    say: Callable[[str], None] = print,
    games: int | None = None,
) -> SimTable:
    """Play on at ``sim`` (:func:`demo_table`'s) until the match ends, or ``games`` games."""
    printer = Printer(sim.table, sim.driver.log, say)
    for _action in range(MAX_ACTIONS):
        printer.flush(sim.driver.log)
        if sim.phase is Phase.MATCH_OVER or (games is not None and printer.games_ended >= games):
            return sim
        act(sim, players, random.Random(f"{seed}:{len(sim.driver.log)}"), say)
    raise RuntimeError(f"the demo made {MAX_ACTIONS} actions without finishing the match")


CLOCKED_THINKS: Final = 20.0
"""The longest the built-in player thinks over a play on the clock, unless told: a while
drawn from the seed, on the simulated time."""


def _thinking(side: Side) -> Side:
    if isinstance(side, PipPlayer) and not side.thinks:
        return replace(side, thinks=CLOCKED_THINKS)
    return side


def act(sim: SimTable, players: tuple[Side, Side], rng: random.Random, say: Say = print) -> None:
    """One step of the demo: what the hands or the buttons do next, or the engine asked again."""
    phase, match = sim.phase, sim.match
    turn = match.turn
    request = waiting(sim.table)
    if request is not None and request.player in sim.seats:
        sim.ask(request)  # the engine's last answer failed: ask the restarted engine again
    elif phase is Phase.SETUP:
        sim.setup()
    elif phase is Phase.CHOOSING:
        _start_match(sim, say)
    elif phase is Phase.ENTERING:
        sim.enter(sim.throw())  # dice thrown by hand (from the seed), entered with the buttons
    elif phase is Phase.ROLLING and sim.godice is not None:
        sim.throw_godice(rng)  # GoDice thrown by hand, read as they come to rest
    elif phase is Phase.OPENING:
        for colour in PLAYERS:
            if sim.table.opening[colour] is None and colour not in sim.seats:
                sim.roll(colour)
    elif phase is Phase.GUIDED and turn is not None:
        follow_lights(sim, turn)
    elif phase in (Phase.GAME_OVER, Phase.MATCH_OVER):
        _next_game(sim)
    elif turn is not None:
        _person(sim, players, rng, say)


def _person(sim: SimTable, players: tuple[Side, Side], rng: random.Random, say: Say) -> None:
    """The built-in player's turn, as a person's: its buttons and its hands. In a phase
    where the other player decides (a double, a resignation, an illegal play), theirs."""
    phase, turn = sim.phase, sim.match.turn
    assert turn is not None
    if phase is Phase.BEFORE_ROLL and _asks_takeback(sim, players[turn.other], rng, say):
        return
    if computer_waits(sim.table):  # for a takeback of the play just made, then it rolls
        sim.advance(sim.table.config.takeback_wait)
        return
    deciding = turn.other if phase in _OTHER_DECIDES else turn
    side = players[deciding]
    assert isinstance(side, PipPlayer)
    if phase is Phase.BEFORE_ROLL:
        _before_roll(sim, side, turn)
    elif phase is Phase.TAKEBACK_ASKED:
        _answer_takeback(sim, side, deciding, say)
    elif phase is Phase.TAKING_BACK:
        sim.setup(sim.position)  # the hands put the checkers of the play taken back back
    elif phase is Phase.DOUBLED:
        _answer_double(sim, side, deciding)
    elif phase is Phase.RESIGN_OFFERED:
        offered = sim.match.resignation
        assert offered is not None
        accepts = side.accepts(sim.table.mover_view_of(turn), offered)
        sim.roll(deciding) if accepts else sim.cube(deciding)
    elif phase is Phase.ILLEGAL:
        _judge_slip(sim, side, deciding, say)
    elif phase is Phase.MOVING and sim.match.dice is not None:
        _play(sim, side, turn, rng, say)


_OTHER_DECIDES = (Phase.DOUBLED, Phase.RESIGN_OFFERED, Phase.ILLEGAL)
Say = Callable[[str], None]


def _asks_takeback(sim: SimTable, side: Side, rng: random.Random, say: Say) -> bool:
    """The built-in player who has just played asks now and then to take it back (hold
    ROLL), before the other rolls: never twice in a turn (not the play made instead)."""
    asker = sim.match.turn
    if asker is None or not isinstance(side, PipPlayer):
        return False
    asker = asker.other
    records = sim.driver.log
    again = len(records) > 1 and isinstance(records[-2], TakenBack)
    if again or not may_take_back(sim.table, asker) or not side.takes_back(rng):
        return False
    played = records[-1]
    assert isinstance(played, Played)
    say(
        _("  {name} asks for a takeback of {moves}").format(
            name=sim.table.names[asker], moves=printed_moves(asker, played.move_values())
        )
    )
    sim.press(asker, ROLL, hold=sim.table.config.long_press + 0.2)
    return True


def _answer_takeback(sim: SimTable, side: PipPlayer, other: Player, say: Say) -> None:
    at = sim.table.at
    assert isinstance(at, TakebackAsked)
    if side.lets_take_back(at.undo):
        sim.roll(other)
        return
    say(_("  {name} refuses: the play stands").format(name=sim.table.names[other]))
    sim.cube(other)


def _before_roll(sim: SimTable, side: PipPlayer, turn: Player) -> None:
    """Resign a lost race, double with a lead, else roll."""
    match, view = sim.match, sim.table.mover_view_of(turn)
    level = side.resigns(view, _declined(sim.driver.log, turn))
    if level is not None:
        sim.press(turn, CUBE, hold=sim.table.config.long_press + 0.2)  # resign: a single
        for _level in range(int(level) - 1):
            sim.cube(turn)  # the next level, shown on the dice pixels
        sim.roll(turn)  # offer it
    elif match.may_double(turn) and side.doubles(view, match):
        sim.cube(turn)
    else:
        sim.roll(turn)


def _declined(records: Sequence[Record], player: Player) -> GameResult | None:
    """The highest resignation ``player`` offered and had declined in the current game."""
    start = max((n for n, r in enumerate(records) if isinstance(r, GameStarted)), default=0)
    declined, offered = None, None
    for record in records[start:]:
        if isinstance(record, ResignOffered) and record.player == player:
            offered = GameResult(record.result)
        elif isinstance(record, ResignAnswered) and not record.accepted and offered:
            declined = max(declined or offered, offered)
    return declined


def _answer_double(sim: SimTable, side: PipPlayer, other: Player) -> None:
    match = sim.match
    beaver = match.rules.beaver and match.cube * 4 <= match.rules.cube_limit
    answer = side.answer(sim.table.mover_view_of(other), match, beaver)
    if answer == "drop":
        sim.cube(other)
    else:
        sim.roll(other) if answer == "take" else sim.press(other, "roll", hold=1.0)


def _play(sim: SimTable, side: PipPlayer, turn: Player, rng: random.Random, say: Say) -> None:
    """The chosen play made by hand (now and then slipping), and ended with ROLL. A board
    that is not where the turn began was a slip whose correction was demanded: the hands
    put it back first, and make the play chosen."""
    if side.thinks:
        sim.think(rng.uniform(0.0, side.thinks))
        if sim.phase is not Phase.MOVING:
            return  # the flag fell while it thought
    match, view = sim.match, sim.table.mover_view
    assert match.dice is not None
    choice = side.choose(view, match, rng, _taken_back(sim, turn))
    if sim.table.observation != observe(view, turn, sim.table.config.caps):
        sim.setup(sim.position)  # the slipped checker back where it was, and all with it
        sim.make_play(turn, choice.moves)
    else:
        slip = side.slip(view, match.dice, choice, rng)
        if slip is not None and _make_slip(sim, turn, slip):
            dice = "".join(str(d) for d in sorted(match.dice, reverse=True))
            say(
                _("  {name} {dice}: {src}/{dst}, a checker one pip too far (illegal)").format(
                    name=sim.table.names[turn],
                    dice=dice,
                    src=_("bar") if slip.src == BAR else slip.src,
                    dst=slip.dst,
                )
            )
        else:
            sim.make_play(turn, choice.moves)
    sim.roll(turn)
    _confirm(sim, turn, choice)


def _taken_back(sim: SimTable, turn: Player) -> Position | None:
    """The result of the play ``turn`` has just taken back, if that is the last record."""
    last = sim.driver.log[-1] if sim.driver.log else None
    if not isinstance(last, TakenBack) or last.player != turn:
        return None
    result = sim.table.mover_view
    for move in last.move_values():
        result = apply_move(result, move)
    return result


def _make_slip(sim: SimTable, turn: Player, slip: Slip) -> bool:
    """The hands make ``slip``, if the tracker will read it as no legal play at all."""
    tracker = sim.table.tracker
    assert tracker is not None
    seen = observe(slip.result, turn, sim.table.config.caps)
    if tracker.read(seen).kind is not Kind.WRONG:
        return False
    sim.make_play(turn, slip.made)
    sim.lift(zone_of(turn, slip.src), turn)
    sim.place(zone_of(turn, slip.dst), turn)
    return True


def _judge_slip(sim: SimTable, side: PipPlayer, judge: Player, say: Say) -> None:
    """The opponent of an illegal play accepts it by rolling, or demands the correction."""
    at, dice = sim.table.at, sim.match.dice
    assert isinstance(at, Illegal) and dice is not None
    before = sim.table.mover_view
    if at.after is not None and side.takes_slip(before, at.after, dice):
        sim.roll(judge)
        return
    sim.cube(judge)
    say(_("  {name} demands the correction").format(name=sim.table.names[judge]))


def _next_game(sim: SimTable) -> None:
    """A person's ROLL starts the next game; with engines in both seats, an engine's intent."""
    person = next((p for p in PLAYERS if p not in sim.seats), None)
    if person is not None:
        sim.roll(person)
    else:
        sim.driver.dispatch(Decided(WHITE, Intent.NEXT_GAME, sim.clock()))
        sim.advance()


def _start_match(sim: SimTable, say: Say) -> None:
    """The match shown is the one asked for (the command line's, else the config's): a
    person here holds ROLL to start it. With engines in both seats the table asks them."""
    person = next((p for p in PLAYERS if p not in sim.seats), None)
    if person is not None:
        say(_("{name} holds ROLL to start the match shown:").format(name=sim.table.names[person]))
        sim.press(person, ROLL, hold=sim.table.config.long_press + 0.2)


def follow_lights(sim: SimTable, player: Player) -> None:
    """The hands at the board make the move the table lights for an engine's play: a blot
    on the destination goes to its bar first. A move the sensors cannot see (a point fuller
    than its switches, a bear-off without tray sensors) then gets the hands' word: a person
    here presses ROLL; with no person here the hands hold still for the table's stated wait."""
    at = sim.table.at
    lit = at.done if isinstance(at, Guided) and at.needs_word else None
    (src,) = sim.scene.lifted
    (dst,) = sim.scene.destinations
    other = player.other
    if other in sim.board.checkers(dst):
        sim.board.lift(dst, other)
        sim.board.place(bar_zone(other), other)
        sim.advance()
    sim.board.lift(src, player)
    if dst not in (TRAY_WHITE, TRAY_BLACK) or sim.geometry.tray_slots:
        sim.board.place(dst, player)
    sim.advance()
    now = sim.table.at
    if lit is not None and isinstance(now, Guided) and now.done == lit:
        give_word(sim)


def give_word(sim: SimTable) -> None:
    """The hands say the lit move, one the sensors cannot see, is made: a person here
    presses ROLL; with nobody here they hold still for the table's stated wait."""
    person = next((p for p in PLAYERS if sim.table.seats[p] is Seat.PERSON), None)
    if person is not None:
        sim.roll(person)
    else:
        sim.advance(UNSEEN_WAIT + 0.5)


def _confirm(sim: SimTable, turn: Player, choice: Play) -> None:
    """Several plays look the same to the sensors: step to the one made, and confirm it."""
    for _candidate in sim.table.candidates:
        if sim.phase is not Phase.CONFIRM:
            return
        tracker = sim.table.tracker
        assert tracker is not None
        if tracker.play(sim.table.candidates[sim.table.candidate]).result == choice.result:
            sim.roll(turn)
            return
        sim.cube(turn)


def open_sides(
    seats: tuple[SeatChoice, SeatChoice],
    *,
    say: Callable[[str], None],
    timeout: float = 60.0,
    slips: float = 0.0,
    takebacks: float = 0.0,
) -> tuple[tuple[Side, Side], list[Engine]]:
    """The demo's two sides for ``seats`` (``demo`` or ``gnubg[:LEVEL]``; a person cannot
    play without hands) and the engines opened for them, to close. A gnubg seat where gnubg
    is not installed is said and played by the built-in player, who slips (makes an illegal
    play) in ``slips`` of its plays and asks to take back ``takebacks`` of them."""
    sides: list[Side] = []
    engines: list[Engine] = []
    for seat in seats:
        if seat.kind is SeatKind.PERSON:
            raise ValueError("the demo has no hands for a person: each side is demo or gnubg")
        engine = (
            None
            if seat.kind is SeatKind.DEMO
            else open_engine(seat, say=say, timeout=timeout, instead="the built-in player")
        )
        if engine is None:
            sides.append(PipPlayer(slips=slips, takebacks=takebacks))
        else:
            engines.append(engine)
            sides.append(EngineSeat(engine, say))
    return (sides[0], sides[1]), engines
