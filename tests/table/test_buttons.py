"""Every phase x player x button x hold, pressed on :meth:`Table.handle` directly: what each
press does (listed here by hand, not read from the table of rows), and that every other press
does nothing at all."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Final

import pytest

from bgpi.base.geometry import Geometry
from bgpi.base.words import BLACK, BUTTONS, CUBE, PLAYERS, ROLL, WHITE
from bgpi.journal.records import (
    Cube,
    CubeAction,
    GameEnded,
    GameStarted,
    MatchStarted,
    OpeningDie,
    OpeningRolled,
    Played,
    Record,
    ResignAnswered,
    ResignOffered,
    Rolled,
    TakebackRefused,
    TakenBack,
)
from bgpi.present.leds import scene_of
from bgpi.rules import GameResult, GameState, MatchRules, Position, parse_play
from bgpi.sensing.board import capacities, observe
from bgpi.table import (
    BeforeRoll,
    Choosing,
    DiceDrawing,
    DiceRequest,
    MatchOver,
    Moving,
    Phase,
    PhaseState,
    Press,
    Resigning,
    Seen,
    Step,
    Table,
    TableConfig,
    Tick,
)
from bgpi.table.options import Option

CONFIG = TableConfig(capacities(Geometry.default()))
SHORT, HELD = 0.1, 2.0  # seconds down: well under and well over the long press


def replay(*records: Record, config: TableConfig = CONFIG) -> Table:
    table = Table.replay(config, records)
    return settled(table, observe(table.position, WHITE, config.caps))


def settled(table: Table, observation: tuple[int, ...]) -> Table:
    table = table.handle(Seen(observation, 0.0)).table
    return table.handle(Tick(10.0)).table


OPENING_PLAY: Final = ((8, 5, 3, False), (6, 5, 1, False))  # White's 8/5 6/5, as journaled


def opened(start: MatchStarted) -> list[Record]:
    """White opens 3-1 with 8/5 6/5: Black is on roll."""
    play = parse_play(Position.initial(), (3, 1), "8/5 6/5")
    return [start, GameStarted(), OpeningRolled(3, 1), Played.of(WHITE, play.moves)]


def taking_back(start: MatchStarted | None = None) -> Table:
    """White's opening 8/5 6/5 taken back, the board still showing it: the hands are to put
    its checkers back."""
    records = [*opened(start or MatchStarted(5)), TakenBack(WHITE, OPENING_PLAY)]
    played = parse_play(Position.initial(), (3, 1), "8/5 6/5").result
    return settled(Table.replay(CONFIG, records), observe(played, WHITE, CONFIG.caps))


def DROPPED(start: MatchStarted) -> list[Record]:  # noqa: N802 (reads as a constant)
    """Black doubles and White drops."""
    return [
        *opened(start),
        CubeAction(BLACK, Cube.DOUBLE),
        CubeAction(WHITE, Cube.DROP),
        GameEnded(BLACK, 1, 1, dropped=True),
    ]


def press(table: Table, player: int, button: str, hold: float) -> Step:
    down = table.handle(Press(player, button, True, 20.0))
    up = down.table.handle(Press(player, button, False, 20.0 + hold))
    return replace(up, records=down.records + up.records, dice=down.dice or up.dice)


def moving_with(play_text: str) -> Table:
    """Black has rolled 6-5 and the board shows ``play_text`` made."""
    table = replay(*opened(MatchStarted(5)), Rolled(BLACK, (6, 5)))
    after = parse_play(table.mover_view, (6, 5), play_text).result
    return settled(table, observe(after, BLACK, CONFIG.caps))


def confirming() -> Table:
    """White's 5-4 made on stacks taller than the slots: two plays fit the board."""
    config = TableConfig(capacities(Geometry.default(point_slots=2)))
    start = Position.from_points({8: 3, 7: 3, 6: 3, 5: 3, 4: 3}, {6: 15})
    table = Table.replay(config, [MatchStarted(5), GameStarted(), OpeningRolled(3, 1)])
    match = replace(table.match, state=GameState.PLAYING, turn=WHITE, dice=None)
    table = replace(table, at=BeforeRoll(), position=start, match=match)
    table = table.apply(Rolled(WHITE, (5, 4)))
    after = parse_play(start, (5, 4), "8/3 5/1").result
    table = settled(table, observe(after, WHITE, config.caps))
    step = press(table, WHITE, ROLL, SHORT)
    assert step.table.phase is Phase.CONFIRM and len(step.table.candidates) == 2
    return step.table


def drawing(table: Table, player: int, count: int) -> Table:
    """``player`` rolled, and the dice are drawn with another board."""
    return table.handle(DiceDrawing(player, count, 15.0)).table


Check = Callable[[Table, Step], None]


def dice(player: int, count: int) -> Check:
    def check(before: Table, step: Step) -> None:
        assert step.dice == DiceRequest(player, count) and step.records == ()

    return check


def decides(*records: Record) -> Check:
    def check(before: Table, step: Step) -> None:
        assert step.records == records and step.dice is None

    return check


def plays(player: int, then: Phase) -> Check:
    def check(before: Table, step: Step) -> None:
        played = step.records[0]
        assert isinstance(played, Played) and played.player == player and step.dice is None
        assert step.table.phase is then

    return check


def next_candidate(before: Table, step: Step) -> None:
    assert step.records == () and step.dice is None
    assert step.table.candidate == before.candidate + 1


def level(result: GameResult) -> Check:
    def check(before: Table, step: Step) -> None:
        assert step.records == () and step.dice is None
        assert isinstance(step.table.at, Resigning) and step.table.at.level is result

    return check


def option_value(length: int) -> Check:
    def check(before: Table, step: Step) -> None:
        assert step.records == () and isinstance(step.table.at, Choosing)
        assert step.table.at.draft.length == length

    return check


def option(which: Option) -> Check:
    def check(before: Table, step: Step) -> None:
        assert step.records == () and isinstance(step.table.at, Choosing)
        assert step.table.at.option is which

    return check


def goes_to(phase: Phase) -> Check:
    def check(before: Table, step: Step) -> None:
        assert step.table.phase is phase and step.records == () and step.dice is None

    return check


CASES: dict[str, tuple[Callable[[], Table], dict[tuple[int, str, float], Check]]] = {
    "setup": (lambda: Table.start(CONFIG, MatchStarted(5)), {}),
    "opening": (
        lambda: replay(MatchStarted(5), GameStarted()),
        {
            (WHITE, ROLL, SHORT): dice(WHITE, 1),
            (WHITE, ROLL, HELD): dice(WHITE, 1),
            (BLACK, ROLL, SHORT): dice(BLACK, 1),
            (BLACK, ROLL, HELD): dice(BLACK, 1),
        },
    ),
    "opening, White rolled": (
        lambda: replay(MatchStarted(5), GameStarted(), OpeningDie(WHITE, 3)),
        {(BLACK, ROLL, SHORT): dice(BLACK, 1), (BLACK, ROLL, HELD): dice(BLACK, 1)},
    ),
    "before roll": (
        lambda: replay(*opened(MatchStarted(5))),
        {
            (BLACK, ROLL, SHORT): dice(BLACK, 2),
            (BLACK, ROLL, HELD): dice(BLACK, 2),
            (BLACK, CUBE, SHORT): decides(CubeAction(BLACK, Cube.DOUBLE)),
            (BLACK, CUBE, HELD): goes_to(Phase.RESIGNING),
            (WHITE, ROLL, HELD): goes_to(Phase.TAKEBACK_ASKED),  # White's play just made
        },
    ),
    "takeback asked": (
        lambda: press(replay(*opened(MatchStarted(5))), WHITE, ROLL, HELD).table,
        {
            (BLACK, ROLL, SHORT): decides(TakenBack(WHITE, OPENING_PLAY)),
            (BLACK, ROLL, HELD): decides(TakenBack(WHITE, OPENING_PLAY)),
            (BLACK, CUBE, SHORT): decides(TakebackRefused(WHITE, OPENING_PLAY)),
            (BLACK, CUBE, HELD): decides(TakebackRefused(WHITE, OPENING_PLAY)),
            (WHITE, CUBE, SHORT): goes_to(Phase.BEFORE_ROLL),  # withdrawn: nothing journaled
            (WHITE, CUBE, HELD): goes_to(Phase.BEFORE_ROLL),
        },
    ),
    "taking back": (
        taking_back,
        {},  # the hands put the checkers back; no button does anything meanwhile
    ),
    "rolling: the dice drawn with another board": (
        lambda: drawing(replay(*opened(MatchStarted(5))), BLACK, 2),
        {},  # nothing is decided until they come
    ),
    "rolling the opening die with another board": (
        lambda: drawing(replay(MatchStarted(5), GameStarted()), WHITE, 1),
        {},
    ),
    "before roll, cube owned by the other": (
        lambda: replay(
            *opened(MatchStarted(5)),
            CubeAction(BLACK, Cube.DOUBLE),
            CubeAction(WHITE, Cube.TAKE),
        ),
        {
            (BLACK, ROLL, SHORT): dice(BLACK, 2),
            (BLACK, ROLL, HELD): dice(BLACK, 2),
            (BLACK, CUBE, HELD): goes_to(Phase.RESIGNING),
        },
    ),
    "before roll, board wrong": (
        lambda: settled(
            replay(*opened(MatchStarted(5))), observe(Position.initial(), WHITE, CONFIG.caps)
        ),
        {},
    ),
    "doubled": (
        lambda: replay(*opened(MatchStarted(5)), CubeAction(BLACK, Cube.DOUBLE)),
        {
            (WHITE, ROLL, SHORT): decides(CubeAction(WHITE, Cube.TAKE)),
            (WHITE, ROLL, HELD): decides(CubeAction(WHITE, Cube.TAKE)),
            (WHITE, CUBE, SHORT): decides(
                CubeAction(WHITE, Cube.DROP), GameEnded(BLACK, 1, 1, dropped=True)
            ),
            (WHITE, CUBE, HELD): decides(
                CubeAction(WHITE, Cube.DROP), GameEnded(BLACK, 1, 1, dropped=True)
            ),
        },
    ),
    "doubled, beavers allowed": (
        lambda: replay(*opened(MatchStarted(0, beaver=True)), CubeAction(BLACK, Cube.DOUBLE)),
        {
            (WHITE, ROLL, SHORT): decides(CubeAction(WHITE, Cube.TAKE)),
            (WHITE, ROLL, HELD): decides(CubeAction(WHITE, Cube.BEAVER)),
            (WHITE, CUBE, SHORT): decides(
                CubeAction(WHITE, Cube.DROP), GameEnded(BLACK, 1, 1, dropped=True)
            ),
            (WHITE, CUBE, HELD): decides(
                CubeAction(WHITE, Cube.DROP), GameEnded(BLACK, 1, 1, dropped=True)
            ),
        },
    ),
    "moving, play not made": (
        lambda: replay(*opened(MatchStarted(5)), Rolled(BLACK, (6, 5))),
        {(BLACK, CUBE, HELD): goes_to(Phase.RESIGNING)},
    ),
    "moving, play made": (
        lambda: moving_with("24/13"),
        {
            (BLACK, ROLL, SHORT): plays(BLACK, Phase.BEFORE_ROLL),
            (BLACK, ROLL, HELD): plays(BLACK, Phase.BEFORE_ROLL),
            (BLACK, CUBE, HELD): goes_to(Phase.RESIGNING),
        },
    ),
    "resigning": (
        lambda: press(replay(*opened(MatchStarted(5))), BLACK, CUBE, HELD).table,
        {
            (BLACK, ROLL, SHORT): decides(ResignOffered(BLACK, 1)),
            (BLACK, ROLL, HELD): decides(ResignOffered(BLACK, 1)),
            (BLACK, CUBE, SHORT): level(GameResult.GAMMON),
            (BLACK, CUBE, HELD): goes_to(Phase.BEFORE_ROLL),
        },
    ),
    "resigning a backgammon": (
        lambda: replace(
            replay(*opened(MatchStarted(5))), at=Resigning(GameResult.BACKGAMMON, BeforeRoll())
        ),
        {
            (BLACK, ROLL, SHORT): decides(ResignOffered(BLACK, 3)),
            (BLACK, ROLL, HELD): decides(ResignOffered(BLACK, 3)),
            (BLACK, CUBE, SHORT): level(GameResult.SINGLE),
            (BLACK, CUBE, HELD): goes_to(Phase.BEFORE_ROLL),
        },
    ),
    "resignation offered": (
        lambda: replay(
            *opened(MatchStarted(5)),
            CubeAction(BLACK, Cube.DOUBLE),
            CubeAction(WHITE, Cube.TAKE),
            ResignOffered(BLACK, 2),
        ),
        {
            (WHITE, ROLL, SHORT): decides(
                ResignAnswered(WHITE, accepted=True), GameEnded(WHITE, 2, 4, resigned=True)
            ),
            (WHITE, ROLL, HELD): decides(
                ResignAnswered(WHITE, accepted=True), GameEnded(WHITE, 2, 4, resigned=True)
            ),
            (WHITE, CUBE, SHORT): decides(ResignAnswered(WHITE, accepted=False)),
            (WHITE, CUBE, HELD): decides(ResignAnswered(WHITE, accepted=False)),
        },
    ),
    "choosing the next match": (
        lambda: replace(replay(*DROPPED(MatchStarted(5))), at=Choosing(MatchRules(5))),
        {
            **{(p, CUBE, h): option_value(7) for p in PLAYERS for h in (SHORT, HELD)},
            **{(p, ROLL, SHORT): option(Option.CRAWFORD) for p in PLAYERS},
            **{(p, ROLL, HELD): decides(MatchStarted(5)) for p in PLAYERS},
        },
    ),
    "confirm": (
        confirming,
        {
            (WHITE, ROLL, SHORT): plays(WHITE, Phase.BEFORE_ROLL),
            (WHITE, ROLL, HELD): plays(WHITE, Phase.BEFORE_ROLL),
            (WHITE, CUBE, SHORT): next_candidate,
            (WHITE, CUBE, HELD): next_candidate,
        },
    ),
    "game over": (
        lambda: replay(*DROPPED(MatchStarted(5))),
        {(p, ROLL, h): goes_to(Phase.SETUP) for p in PLAYERS for h in (SHORT, HELD)},
    ),
    "match over": (
        # A drop never ends a match (the doubler needs more than the cube), so put it there.
        lambda: replace(replay(*DROPPED(MatchStarted(5))), at=MatchOver()),
        {(p, ROLL, h): goes_to(Phase.CHOOSING) for p in PLAYERS for h in (SHORT, HELD)},
    ),
}


def cases() -> Iterator[tuple[str, int, str, float]]:
    for name in CASES:
        for player in PLAYERS:
            for button in BUTTONS:
                for hold in (SHORT, HELD):
                    yield name, player, button, hold


@pytest.mark.parametrize(("name", "player", "button", "hold"), list(cases()))
def test_each_press_does_what_its_row_says(
    name: str, player: int, button: str, hold: float
) -> None:
    build, expected = CASES[name]
    table = build()
    step = press(table, player, button, hold)
    check = expected.get((player, button, hold))
    if check is None:
        # Nothing at all, but a refused ROLL saying why (tests/table/test_refusals.py).
        assert step.records == () and step.dice is None
        assert unsaid(step.table.at) == unsaid(table.at) and step.table.match == table.match
    else:
        check(table, step)


@pytest.mark.parametrize("name", list(CASES))
def test_the_prompts_are_the_presses_that_act(name: str) -> None:
    build, expected = CASES[name]
    table = build()
    prompted = {(player, button) for player, button, _ in scene_of(table).prompts}
    acting = {(player, button) for player, button, hold in expected if hold == SHORT}
    assert prompted == acting


def unsaid(at: PhaseState) -> PhaseState:
    """The phase without the mistake it explains."""
    return replace(at, said=None) if isinstance(at, Moving) else at
