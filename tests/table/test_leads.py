"""Where each press leads: every row of :data:`bgpi.table.buttons.ROWS`, pressed in a table
in its phase, leaves the table in one of the phases its ``leads`` names (once the dice the
press asks for are rolled). Every row is pressed somewhere."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache

import pytest

from bgpi.base.geometry import Geometry
from bgpi.base.words import BLACK, CUBE, ROLL, WHITE
from bgpi.journal.records import (
    Cube,
    CubeAction,
    DiceSource,
    GameStarted,
    MatchStarted,
    OpeningDie,
    OpeningRolled,
    Played,
    Record,
    ResignOffered,
    Rolled,
    Seat,
)
from bgpi.rules import GameResult, GameState, MatchRules, Move, Position, parse_play
from bgpi.sensing.board import capacities, observe
from bgpi.table import (
    ROWS,
    BeforeRoll,
    Choosing,
    DiceRolled,
    Entering,
    Hold,
    MatchOver,
    Opening,
    Resigning,
    Rolling,
    Row,
    Silence,
    Table,
    TableConfig,
    active_rows,
)
from bgpi.table.phases import PhaseState
from tests.table.test_buttons import (
    CONFIG,
    DROPPED,
    HELD,
    SHORT,
    confirming,
    moving_with,
    opened,
    replay,
    settled,
    taking_back,
)
from tests.table.test_guided_stacks import BEAR_OFF, TALL, guided
from tests.table.test_hints import HINTS, before_roll, press
from tests.table.test_illegal import opened_illegally
from tests.table.test_seats import follow_one

# White on the bar against Black's closed board: no roll enters.
CLOSED = Position.from_points({25: 1, 13: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 5})
# White bears off its last checker with 6-5 (a gammon: Black has borne off none).
LAST = Position.from_points({1: 1}, {13: 15})
LAST_PLAY = "1/off"
# White's 8/3 5/1 on stacks taller than two slots: two plays fit the board (as confirming).
STACKS = Position.from_points({8: 3, 7: 3, 6: 3, 5: 3, 4: 3}, {6: 15})
TWO_SLOTS = TableConfig(capacities(Geometry.default(point_slots=2)))


def rolled(
    position: Position,
    dice: tuple[int, int],
    play: str = "",
    *,
    length: int = 5,
    config: TableConfig = CONFIG,
) -> Table:
    """White has rolled ``dice`` in ``position`` (White's view), the board showing ``play``
    made (none: the position)."""
    start = [MatchStarted(length), GameStarted(), OpeningRolled(3, 1)]
    table = Table.replay(config, start)
    match = replace(table.match, state=GameState.PLAYING, turn=WHITE, dice=None)
    table = replace(table, at=BeforeRoll(), position=position, match=match)
    table = table.apply(Rolled(WHITE, dice))
    shown = parse_play(position, dice, play).result if play else position
    return settled(table, observe(shown, WHITE, config.caps))


# White's 2-1 played 6/4 6/5 on stacks taller than two slots: the switches read the board
# the same before and after it, so a takeback finds the checkers back at once.
UNSEEN = Position.from_points({6: 5, 5: 3, 4: 3, 13: 4}, {6: 15})
UNSEEN_PLAY = "6/4 6/5"


def played(
    position: Position = UNSEEN,
    dice: tuple[int, int] = (2, 1),
    play: str = UNSEEN_PLAY,
    *,
    black: Seat = Seat.PERSON,
    config: TableConfig = TWO_SLOTS,
) -> Table:
    """White has just played ``play`` (Black on roll, not yet rolled), Black's seat
    ``black``, the board showing the play."""
    table = rolled(position, dice, play, config=config)
    moves = parse_play(position, dice, play).moves
    return replace(table.apply(Played.of(WHITE, moves)), seats=(Seat.PERSON, black))


def set_up(table: Table) -> Table:
    """``table`` with the board showing the starting position."""
    return settled(table, observe(Position.initial(), WHITE, CONFIG.caps))


def guided_last_unseen() -> Table:
    """White's seat plays 1/off (seen) then 2/off (7 on the 2-point read 6: unseen), the
    first move made: the word for the second ends the play."""
    sim = guided(TALL, (Move(1, 0, 1), Move(2, 0, 5)), (5, 1), Seat.PERSON)
    follow_one(sim, WHITE)
    return sim.table


ENTERED = DiceSource.ENTERED
GODICE = DiceSource.GODICE


def entering(at: Entering) -> Table:
    """A match of entered dice, White having opened 3-1 with 8/5 6/5 (Black on roll), in
    ``at`` (its ``back`` from the opening or before rolling)."""
    records = opened(MatchStarted(5, dice=ENTERED))
    if isinstance(at.back, Opening):
        records = records[:2]
    return replace(replay(*records), at=at)


AGAINST_REMOTE = MatchStarted(5, seats=(Seat.PERSON, Seat.REMOTE))


def silent(*records: Record, at: PhaseState | None = None) -> Table:
    """White here against a remote Black that owes a message and fell silent past the
    patience (the shell's word): White is offered the claim, in the table ``records`` make
    (or in ``at``)."""
    table = replay(AGAINST_REMOTE, *records)
    if at is not None:
        table = replace(table, at=at)
    return table.handle(Silence(WHITE, 15.0)).table


def black_opened() -> list[Record]:
    """Black (remote) opens 3-1 with 8/5 6/5: White is on roll."""
    play = parse_play(Position.initial(), (3, 1), "8/5 6/5")
    return [GameStarted(), OpeningRolled(1, 3), Played.of(BLACK, play.moves)]


@dataclass(frozen=True)
class Scene:
    """A table in some phase, and the dice that come when a press there asks for them."""

    build: Callable[[], Table]
    dice: tuple[int, ...] = (6, 5)


SCENES: dict[str, Scene] = {
    "opening": Scene(lambda: replay(MatchStarted(5), GameStarted()), (3,)),
    "opening, White rolled 3, a tie": Scene(
        lambda: replay(MatchStarted(5), GameStarted(), OpeningDie(WHITE, 3)), (3,)
    ),
    "opening, White rolled 3": Scene(
        lambda: replay(MatchStarted(5), GameStarted(), OpeningDie(WHITE, 3)), (1,)
    ),
    "opening, entered dice": Scene(lambda: replay(MatchStarted(5, dice=ENTERED), GameStarted())),
    "entering White's opening die": Scene(lambda: entering(Entering(WHITE, 1, Opening()))),
    "entering Black's opening die, White's a 3, a tie": Scene(
        lambda: entering(Entering(BLACK, 1, Opening((3, None)), shown=3))
    ),
    "entering Black's opening die, White's a 3": Scene(
        lambda: entering(Entering(BLACK, 1, Opening((3, None)), shown=5))
    ),
    "before roll, entered dice": Scene(lambda: replay(*opened(MatchStarted(5, dice=ENTERED)))),
    "entering Black's dice": Scene(lambda: entering(Entering(BLACK, 2, BeforeRoll()))),
    "entering Black's second die": Scene(
        lambda: entering(Entering(BLACK, 2, BeforeRoll(), (2,), shown=4))
    ),
    "waiting for Black's throw of GoDice": Scene(
        lambda: press(replay(*opened(MatchStarted(5, dice=GODICE))), BLACK, ROLL, SHORT).table
    ),
    "waiting for White's opening throw of GoDice": Scene(
        lambda: press(replay(MatchStarted(5, dice=GODICE), GameStarted()), WHITE, ROLL, SHORT).table
    ),
    "illegal play, entered dice": Scene(
        lambda: press(replace(opened_illegally().table, dice=ENTERED), WHITE, ROLL, SHORT).table
    ),
    "before roll, hints on": Scene(before_roll),
    "takeback asked": Scene(
        lambda: press(replay(*opened(MatchStarted(5))), WHITE, ROLL, HELD).table
    ),
    "takeback asked, a play the sensors cannot see": Scene(
        lambda: press(played(), WHITE, ROLL, HELD).table
    ),
    "before roll, against the engine": Scene(
        lambda: replace(replay(*opened(MatchStarted(5))), seats=(Seat.PERSON, Seat.ENGINE))
    ),
    "before roll against the engine, a play the sensors cannot see": Scene(
        lambda: played(black=Seat.ENGINE)
    ),
    "taking back": Scene(taking_back),
    "doubled, beavers and hints": Scene(
        lambda: replay(
            *opened(MatchStarted(0, beaver=True)), CubeAction(BLACK, Cube.DOUBLE), config=HINTS
        )
    ),
    "moving, no checker moved, hints on": Scene(
        lambda: replay(*opened(MatchStarted(5)), Rolled(BLACK, (6, 5)), config=HINTS)
    ),
    "moving, play made": Scene(lambda: moving_with("24/13")),
    "moving, two plays fit the board": Scene(
        lambda: rolled(STACKS, (5, 4), "8/3 5/1", config=TWO_SLOTS)
    ),
    "moving, the winning play made": Scene(lambda: rolled(LAST, (6, 5), LAST_PLAY)),
    "moving, the match's winning play made": Scene(
        lambda: rolled(LAST, (6, 5), LAST_PLAY, length=1)
    ),
    "moving, no move": Scene(lambda: rolled(CLOSED, (6, 5))),
    "moving, an illegal play shown": Scene(lambda: opened_illegally().table),
    "illegal play": Scene(lambda: press(opened_illegally().table, WHITE, ROLL, SHORT).table),
    "resigning before rolling": Scene(
        lambda: replace(before_roll(), at=Resigning(GameResult.SINGLE, BeforeRoll()))
    ),
    "resigning while moving": Scene(lambda: press(moving_with("24/13"), BLACK, CUBE, HELD).table),
    "resignation offered": Scene(lambda: replay(*opened(MatchStarted(5)), ResignOffered(BLACK, 2))),
    "resignation offered for the match": Scene(
        lambda: replay(*opened(MatchStarted(1)), ResignOffered(BLACK, 1))
    ),
    "resignation offered while moving": Scene(
        lambda: replay(*opened(MatchStarted(5)), Rolled(BLACK, (6, 5)), ResignOffered(BLACK, 1))
    ),
    "guided, an unseen move lit": Scene(lambda: guided(TALL, BEAR_OFF, (5, 1), Seat.PERSON).table),
    "guided, the last move unseen": Scene(guided_last_unseen),
    "confirm": Scene(confirming),
    "game over": Scene(lambda: replay(*DROPPED(MatchStarted(5)))),
    "game over, the board set up": Scene(lambda: set_up(replay(*DROPPED(MatchStarted(5))))),
    "match over": Scene(lambda: replace(replay(*DROPPED(MatchStarted(5))), at=MatchOver())),
    "choosing": Scene(
        lambda: replace(replay(*DROPPED(MatchStarted(5))), at=Choosing(MatchRules(5)))
    ),
    "against a silent remote board: its opening die owed": Scene(
        lambda: silent(GameStarted(), OpeningDie(WHITE, 3))
    ),
    "against a silent remote board: its roll owed": Scene(
        lambda: silent(*opened(AGAINST_REMOTE)[1:])
    ),
    "against a silent remote board: its half of the dice owed": Scene(
        lambda: silent(*opened(AGAINST_REMOTE)[1:], at=Rolling(BLACK, 2, BeforeRoll()))
    ),
    "against a silent remote board: its play owed": Scene(
        lambda: silent(*opened(AGAINST_REMOTE)[1:], Rolled(BLACK, (6, 5)))
    ),
    "against a silent remote board: its answer to a double owed": Scene(
        lambda: silent(*black_opened(), CubeAction(WHITE, Cube.DOUBLE))
    ),
    "against a silent remote board: its answer to a resignation owed": Scene(
        lambda: silent(*black_opened(), ResignOffered(WHITE, 1))
    ),
    "choosing, the board set up": Scene(
        lambda: replace(set_up(replay(*DROPPED(MatchStarted(5)))), at=Choosing(MatchRules(5)))
    ),
}


@cache
def table_of(name: str) -> Table:
    return SCENES[name].build()


def gesture(name: str, player: int, row: Row) -> tuple[Table, bool]:
    """The table after ``player`` made ``row``'s gesture in scene ``name`` (the dice it asks
    for rolled), and whether the gesture did anything."""
    table = table_of(name)
    step = press(table, player, row.button, HELD if row.hold is Hold.HELD else SHORT)
    after = step.table
    if step.dice is not None:
        dice = SCENES[name].dice[: step.dice.count]
        after = after.handle(DiceRolled(step.dice.player, dice, 30.0)).table
    acted = bool(step.records or step.dice or step.hint or step.claim is not None)
    acted = acted or step.table.at != table.at
    return after, acted


def row_id(row: Row) -> str:
    return f"{row.phase.value}, {row.hold.value} {row.button}: {row.intent.value} ({row.words})"


@pytest.mark.parametrize("row", ROWS, ids=row_id)
def test_each_row_leads_where_it_says(row: Row) -> None:
    pressed = 0
    for name in SCENES:
        for player, active in active_rows(table_of(name)):
            if active is not row:
                continue
            after, acted = gesture(name, player, row)
            assert acted, f"{name}: {row_id(row)} did nothing"
            assert after.phase in row.leads, f"{name}: led to {after.phase.value}"
            pressed += 1
    assert pressed, f"no scene here has {row_id(row)} active"


def test_the_scenes_reach_every_phase_a_row_leads_to() -> None:
    """The leads are what the table does, not a wide guess: each is reached by some press."""
    reached = {
        (row, gesture(name, player, row)[0].phase)
        for name in SCENES
        for player, row in active_rows(table_of(name))
    }
    missing = [
        (row_id(row), phase.value)
        for row in ROWS
        for phase in row.leads
        if (row, phase) not in reached
    ]
    assert missing == []
