"""What the page is sent: the layout of the pixels, the frame, the checkers and the state."""

from dataclasses import replace

from bgpi.base.geometry import Geometry
from bgpi.base.words import BLACK, WHITE, ZONES
from bgpi.journal.records import MatchStarted
from bgpi.lights.ledmap import LedMap
from bgpi.lights.render import Style
from bgpi.present.leds import scene_of
from bgpi.present.status import status
from bgpi.rules import Position
from bgpi.sim.simtable import SimOptions, SimTable
from bgpi.table import Phase
from bgpi.web.view import (
    ZoneView,
    board_of_sim,
    board_of_table,
    frame_message,
    layout_message,
    state_message,
)

SEED = 23  # White 3, Black 1: White opens with 31


def opened() -> SimTable:
    sim = SimTable(MatchStarted(5), options=SimOptions(seed=SEED))
    sim.setup()
    sim.roll(WHITE)
    sim.roll(BLACK)
    assert sim.phase is Phase.MOVING and sim.match.dice == (3, 1)
    return sim


def test_the_layout_places_every_pixel_of_the_map() -> None:
    ledmap = LedMap.default()
    message = layout_message(ledmap, Geometry.default(), Style(), "sim")
    zones, areas = message["zones"], message["areas"]
    assert isinstance(zones, dict) and isinstance(areas, dict)
    placed = [p for pixels in [*zones.values(), *areas.values()] for p in pixels]
    assert sorted(placed) == list(range(ledmap.length)) == list(range(message["length"]))  # type: ignore[call-overload]
    assert zones["2"] == list(ledmap.pixels(2))  # base first, however the strip runs
    assert message["slots"] == {str(z): Geometry.default().slots(z) for z in ZONES}
    assert message["keys"] == {
        "r": [0, "roll"],
        "c": [0, "cube"],
        "R": [1, "roll"],
        "C": [1, "cube"],
    }


def test_the_frame_is_six_hex_digits_a_pixel() -> None:
    assert frame_message([(255, 0, 16), (0, 74, 6)]) == {"type": "frame", "pixels": "ff0010004a06"}
    assert frame_message(None)["pixels"] == ""


def test_the_simulated_board_shows_each_checker_on_its_slot() -> None:
    sim = SimTable(MatchStarted(5), options=SimOptions(seed=SEED))
    sim.setup()
    board = {view.zone: view for view in board_of_sim(sim.board)}
    assert board[6] == ZoneView(6, (WHITE,) * 5 + (None,))
    assert board[19].slots[:5] == (BLACK,) * 5
    sim.knock(6)  # the outermost checker falls off its switch
    assert board_of_sim(sim.board)[5] == ZoneView(6, (WHITE,) * 4 + (None, None), (WHITE,))
    assert board_of_sim(sim.board)[5].askew
    sim.straighten(6)
    for _ in range(3):
        sim.board.place(6, WHITE)
    view = board_of_sim(sim.board)[5]
    assert view.slots == (WHITE,) * 6 and view.unseen == (WHITE, WHITE)
    assert not view.askew  # every slot taken: the others are stacked


def test_the_simulated_board_failing_is_still_drawn_as_its_checkers_lie() -> None:
    sim = SimTable(MatchStarted(5), options=SimOptions(seed=SEED))
    sim.setup()
    before = board_of_sim(sim.board)
    sim.board.fail()  # the page's snapshot raised here: the switches cannot be read
    assert board_of_sim(sim.board) == before
    sim.board.recover()
    assert board_of_sim(sim.board) == before


def test_a_real_board_is_drawn_from_the_switches_coloured_by_the_game() -> None:
    sim = opened()
    board = {view.zone: view for view in board_of_table(sim.table, sim.geometry)}
    assert board[13].slots == (WHITE,) * 5 + (None,)
    assert board[12].slots == (BLACK,) * 5 + (None,)
    sim.lift(13, WHITE)
    sim.place(10, WHITE)
    board = {view.zone: view for view in board_of_table(sim.table, sim.geometry)}
    assert board[13].slots == (WHITE,) * 4 + (None, None)
    assert board[10].slots[0] == WHITE  # a new point takes the colour of the player on roll
    assert board[25].slots == (None,) * 4


def test_a_point_above_its_slots_stacks_what_the_game_knows() -> None:
    sim = opened()
    start = sim.table.position
    player = list(start.player)
    player[6], player[8] = 8, 0  # eight on the six point: six on the switches, two above
    table = replace(sim.table, position=Position(tuple(player), start.opponent), observation=None)
    six = board_of_table(table, sim.geometry)[5]  # nothing seen yet: the position's count
    assert six == ZoneView(6, (WHITE,) * 6, (WHITE, WHITE))
    observed = list(sim.table.observation or ())
    observed[6], observed[8] = 6, 0
    six = board_of_table(replace(table, observation=tuple(observed)), sim.geometry)[5]
    assert six == ZoneView(6, (WHITE,) * 6, (WHITE, WHITE))  # saturated: the game knows more
    observed[6] = 4  # the switches say how many: two lifted off the stack's slots are gone
    six = board_of_table(replace(table, observation=tuple(observed)), sim.geometry)[5]
    assert six == ZoneView(6, (WHITE,) * 4 + (None, None))


def test_the_state_has_the_game_the_log_and_the_ids() -> None:
    sim = opened()
    records = sim.driver.log
    state = state_message(sim.table, board_of_sim(sim.board), records, hand=[(WHITE, 13)])
    assert state["phase"] == "moving"
    assert state["turn"] == WHITE and state["dice"] == [3, 1]
    assert state["position_id"] == "4HPwATDgc/ABMA"
    assert state["match_id"] == sim.match.id()
    assert state["hand"] == [[WHITE, 13]]
    assert state["seats"] == ["person", "person"]
    assert state["resign"] == {"level": 0, "offered": False}
    assert state["log"][-1] == {"text": "White 31:", "player": 0, "kind": "roll"}  # type: ignore[index]
    assert (
        state["status"]
        == "White plays 3-1: lift a checker to see where it may go. Hold CUBE to resign."
    )
    sim.lift(13, WHITE)
    state = state_message(sim.table, board_of_sim(sim.board), records)
    assert state["lifted"] == [13] and state["destinations"] == [9, 10]


def test_the_status_says_what_the_table_waits_for() -> None:
    sim = SimTable(MatchStarted(5), options=SimOptions(seed=SEED))
    assert "Set up the board" in status(sim.table, scene_of(sim.table))
    sim.setup()
    assert status(sim.table, scene_of(sim.table)) == "Opening roll: each player presses ROLL."
    sim.roll(WHITE)
    sim.roll(BLACK)
    sim.lift(13, WHITE)
    sim.place(11, WHITE)
    assert status(sim.table, scene_of(sim.table)) == (
        "White plays 3-1: 2 pips, but the dice are 3 and 1. Or ROLL ends the turn as it stands."
        " Hold CUBE to resign."
    )
    sim.lift(11, WHITE)
    sim.place(10, WHITE)
    sim.lift(6, WHITE)
    sim.place(5, WHITE)
    assert (
        status(sim.table, scene_of(sim.table))
        == "White has played 3-1: ROLL ends the turn. Hold CUBE to resign."
    )
    sim.roll(WHITE)
    assert (
        status(sim.table, scene_of(sim.table))
        == "Black rolls (ROLL) or doubles (CUBE). Hold CUBE to resign; the player who just"
        " played may hold ROLL to ask for a takeback."
    )
    sim.cube(BLACK)
    assert status(sim.table, scene_of(sim.table)) == (
        "Black doubles: White takes (ROLL) or drops (CUBE)."
    )
