"""The page's hands on the simulated table: each command, its errors, and the clock."""

import pytest

from bgpi.base.words import BLACK, WHITE
from bgpi.journal.records import GameStarted, MatchStarted
from bgpi.service.config import Config
from bgpi.sim.simtable import Fresh
from bgpi.table import Phase
from bgpi.web.run import new_session
from bgpi.web.server import PageCommandError
from bgpi.web.session import SimSession
from tests.web.started import started_session

SEED = 23  # White 3, Black 1


class Wall:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def session() -> SimSession:
    return started_session(Config(), seed=SEED)


def do(session: SimSession, kind: str, **fields: object) -> None:
    session.command({"type": kind, **fields})
    session.sim.advance(0.1)  # let the switches settle


def opening(session: SimSession) -> None:
    for player in (WHITE, BLACK):
        do(session, "press", player=player, button="roll")
        do(session, "release", player=player, button="roll")
    assert session.sim.phase is Phase.MOVING and session.sim.match.dice == (3, 1)


def test_a_new_session_chooses_the_match_with_the_checkers_set_up() -> None:
    fresh = new_session(Config(), seed=SEED, records=Fresh(MatchStarted(7)))
    assert fresh.sim.phase is Phase.CHOOSING and fresh.sim.driver.log == []
    assert fresh.sim.board.checkers(6) == (WHITE,) * 5  # set up while the match is chosen
    assert fresh.layout()["mode"] == "sim"


def test_the_match_started_as_shown_opens_at_once_on_a_set_up_board(
    session: SimSession,
) -> None:
    assert session.sim.phase is Phase.OPENING
    assert session.sim.driver.log == [Config().match_record(), GameStarted()]


def test_lift_and_place_move_a_checker_as_hands_do(session: SimSession) -> None:
    opening(session)
    do(session, "lift", zone=13, colour=WHITE)
    assert session.hand == [(WHITE, 13)]
    assert session.sim.scene.destinations == {9, 10}
    do(session, "place", zone=10, colour=WHITE, slot=0)
    assert session.hand == []
    assert session.sim.board.checkers(10) == (WHITE,)
    do(session, "lift", zone=6, colour=WHITE)
    do(session, "place", zone=5, colour=WHITE)
    assert any(meaning == "end turn" for _, _, meaning in session.sim.scene.prompts)


def test_a_checker_dropped_up_the_point_lies_on_that_slot(session: SimSession) -> None:
    opening(session)
    do(session, "lift", zone=13, colour=WHITE)
    do(session, "place", zone=10, colour=WHITE, slot=3)
    frame = session.sim.board.read()
    geometry = session.sim.geometry
    closed = [frame.closed(geometry.bit_of(10, s)) for s in range(6)]
    assert closed == [False, False, False, True, False, False]
    assert session.sim.scene.destinations == frozenset()  # the count is what the table reads
    do(session, "lift", zone=6, colour=WHITE)
    do(session, "place", zone=6, colour=WHITE, slot=2)  # taken: the lowest free slot, 4
    closed = [session.sim.board.read().closed(geometry.bit_of(6, s)) for s in range(6)]
    assert closed == [True] * 5 + [False]


def test_knock_and_straighten(session: SimSession) -> None:
    do(session, "knock", zone=6, slot=4)
    assert session.sim.table.board_diff().missing == ((6, 1),)
    do(session, "straighten", zone=6)
    assert session.sim.table.board_diff().ok


def test_buttons_are_held_like_the_real_ones(session: SimSession) -> None:
    do(session, "press", player=WHITE, button="roll")
    assert session.sim.table.opening == (3, None)
    do(session, "press", player=WHITE, button="roll")  # still down: nothing more
    assert session.sim.buttons.down == {(WHITE, "roll")}
    do(session, "release", player=WHITE, button="roll")
    do(session, "release", player=WHITE, button="roll")
    assert session.sim.buttons.down == frozenset()


@pytest.mark.parametrize(
    ("message", "error"),
    [
        ({"type": "fly"}, "unknown command 'fly'"),
        ({}, "unknown command None"),
        ({"type": "lift", "zone": 29}, "zone 29 is not one of 1-28"),
        ({"type": "lift", "zone": "13"}, "zone '13' is not one of 1-28"),
        ({"type": "lift", "zone": 7}, "no checker on point 7 to lift"),
        ({"type": "lift", "zone": 13, "colour": BLACK}, "no black checker on point 13"),
        ({"type": "place", "zone": 7, "colour": WHITE}, "no white checker in hand"),
        ({"type": "place", "zone": 7, "colour": 2}, "colour 2 is not one of 0-1"),
        ({"type": "press", "player": WHITE, "button": "bell"}, "button 'bell' is not one of"),
        ({"type": "knock", "zone": 7}, "no checker on a switch of point 7"),
        ({"type": "knock", "zone": 6, "slot": "top"}, "slot 'top' is not a slot number"),
    ],
)
def test_a_command_that_cannot_be_done_says_why_and_changes_nothing(
    session: SimSession, message: dict[str, object], error: str
) -> None:
    before = session.sim.board.counts()
    with pytest.raises(PageCommandError, match=error.replace("(", r"\(")):
        session.command(message)
    assert session.sim.board.counts() == before
    assert session.hand == []


def test_setup_sets_the_board_up_for_the_game(session: SimSession) -> None:
    do(session, "lift", zone=13, colour=WHITE)
    do(session, "place", zone=3, colour=WHITE)
    assert not session.sim.table.board_diff().ok
    do(session, "setup")
    assert session.sim.table.board_diff().ok


def test_let_go_puts_down_what_the_hands_held(session: SimSession) -> None:
    opening(session)
    do(session, "lift", zone=13, colour=WHITE)
    session.command({"type": "press", "player": BLACK, "button": "cube"})
    session.let_go()
    assert session.hand == []
    assert session.sim.board.checkers(13) == (WHITE,) * 5
    assert session.sim.buttons.down == frozenset()


def test_the_simulated_clock_follows_the_wall_clock() -> None:
    wall = Wall()
    session = started_session(Config(), seed=SEED)
    session = SimSession(session.sim, session.ledmap, session.style, wall=wall)
    start = session.sim.clock()
    wall.now += 0.5
    session.catch_up()
    assert session.sim.clock() == pytest.approx(start + 0.5)
    session.sim.advance(2.0)  # a command that took simulated time: the clock runs ahead
    wall.now += 1.0
    session.catch_up()
    assert session.sim.clock() == pytest.approx(start + 2.5)
    wall.now += 100.0  # the loop stalled: catch up a second at a time
    session.catch_up()
    assert session.sim.clock() == pytest.approx(start + 3.5)


def test_snapshots_say_only_what_changed(session: SimSession) -> None:
    first = session.snapshot()
    assert first.state is not None and first.frame is not None and first.records is not None
    assert session.snapshot() == type(first)()  # nothing new
    session.command({"type": "lift", "zone": 13, "colour": WHITE})
    changed = session.snapshot()
    assert changed.state is not None and changed.state["hand"] == [[WHITE, 13]]


def test_with_godice_the_pages_roll_is_thrown_by_the_simulated_hands() -> None:
    """``bgpi sim --dice godice``: a person's ROLL on the page, then the hands throw the
    simulated pair at the next tick of the page's clock."""
    from bgpi.journal.records import DiceSource, OpeningDie  # noqa: PLC0415

    session = new_session(Config(), seed=SEED, records=MatchStarted(5, dice=DiceSource.GODICE))
    try:
        assert session.sim.godice is not None
        do(session, "press", player=WHITE, button="roll")
        do(session, "release", player=WHITE, button="roll")
        assert session.sim.phase is Phase.ROLLING
        session.catch_up()
        dice = [r for r in session.sim.driver.log if isinstance(r, OpeningDie)]
        assert dice and dice[-1].player == WHITE and dice[-1].source is DiceSource.GODICE
    finally:
        session.close()
