"""The table as a pure state machine: records in, the same table out; bad records refused."""

import pytest

from bgpi.base.geometry import Geometry
from bgpi.base.words import BLACK, WHITE
from bgpi.journal.records import (
    Clocked,
    CubeAction,
    GameEnded,
    GameStarted,
    MatchStarted,
    OpeningDie,
    OpeningRolled,
    Played,
    Rolled,
    from_json,
    to_json,
)
from bgpi.rules import Position, parse_play
from bgpi.sensing.board import capacities, observe
from bgpi.table import DiceRolled, Phase, Press, Seen, Table, TableConfig, Tick

CONFIG = TableConfig(capacities(Geometry.default()))


def opening(white: int = 3, black: int = 1) -> list[object]:
    start = Position.initial()
    play = parse_play(start, (white, black), "8/5 6/5")
    return [
        MatchStarted(5),
        GameStarted(),
        OpeningDie(0, white),
        OpeningDie(1, black),
        OpeningRolled(white, black),
        Played.of(0, play.moves),
    ]


def test_replay_reaches_the_same_state() -> None:
    table = Table.replay(CONFIG, opening())  # type: ignore[arg-type]
    assert table.phase is Phase.BEFORE_ROLL
    assert table.match.turn == 1
    assert table.position.player[5] == 2


def test_a_record_out_of_place_is_refused_with_its_number() -> None:
    records = [*opening(), Rolled(0, (6, 6))]  # it is Black's turn
    with pytest.raises(ValueError, match=r"record 7 .* player 1's turn"):
        Table.replay(CONFIG, records)  # type: ignore[arg-type]


def test_an_illegal_play_in_the_journal_is_refused() -> None:
    records = opening()
    records[-1] = Played(0, ((24, 18, 6, False), (18, 15, 3, False)))
    with pytest.raises(ValueError, match="record 6"):
        Table.replay(CONFIG, records)  # type: ignore[arg-type]


def test_a_double_that_the_rules_forbid_is_refused() -> None:
    records = [*opening(), CubeAction(1, "double"), CubeAction(0, "take"), CubeAction(1, "double")]
    with pytest.raises(ValueError, match="record 9"):
        Table.replay(CONFIG, records)  # type: ignore[arg-type]


def test_a_win_that_did_not_happen_is_refused() -> None:
    records = [*opening(), GameEnded(0, 2, 2)]
    with pytest.raises(ValueError, match="has not won"):
        Table.replay(CONFIG, records)  # type: ignore[arg-type]


def test_records_round_trip_through_json() -> None:
    for record in [*opening(), CubeAction(1, "double"), GameEnded(0, 1, 1, dropped=True)]:
        assert from_json(to_json(record)) == record  # type: ignore[arg-type]


def test_a_clocked_record_reads_its_running_player_as_a_player_from_the_same_json() -> None:
    # The JSON a journal written before the clock's player was a Player holds: a number.
    old = '{"kind":"clock","reserve":[600.0,588.5],"running":1,"used":3.25}'
    record = from_json(old)
    assert isinstance(record, Clocked) and record.running is BLACK
    assert to_json(record) == old
    stopped = '{"kind":"clock","reserve":[600.0,600.0],"running":null,"used":0.0}'
    assert from_json(stopped) == Clocked((600.0, 600.0), None)
    assert to_json(from_json(stopped)) == stopped
    with pytest.raises(ValueError, match="running 2 is not 0 \\(white\\) or 1"):
        from_json('{"kind":"clock","reserve":[1.0,1.0],"running":2,"used":0.0}')


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not JSON"),
        ('{"kind": "nonsense"}', "no known kind"),
        ('{"kind": "roll", "player": 0}', "has fields"),
    ],
)
def test_bad_json_records_are_refused(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        from_json(text)


def test_the_table_waits_for_the_board_before_the_opening_roll() -> None:
    table = Table.start(CONFIG, MatchStarted(5))
    wrong = list(observe(Position.initial(), WHITE, CONFIG.caps))
    wrong[24] -= 1
    step = table.handle(Seen(tuple(wrong), 0.0))
    step = step.table.handle(Tick(0.1))
    assert step.records == () and step.table.phase is Phase.SETUP
    diff = step.table.board_diff()
    assert diff is not None and diff.missing == ((24, 1),)
    step = step.table.handle(Seen(observe(Position.initial(), WHITE, CONFIG.caps), 0.2))
    step = step.table.handle(Tick(0.3))
    assert step.records == (GameStarted(),)


def test_dice_not_asked_for_are_refused() -> None:
    table = Table.start(CONFIG, MatchStarted(5))
    with pytest.raises(ValueError, match="not asked for"):
        table.handle(DiceRolled(0, (3, 1), 0.0))


def test_a_button_of_the_wrong_player_does_nothing() -> None:
    table = Table.replay(CONFIG, opening())  # type: ignore[arg-type]
    table = table.handle(Seen(observe(table.position, WHITE, CONFIG.caps), 0.0)).table
    table = table.handle(Tick(0.1)).table
    step = table.handle(Press(0, "roll", True, 0.2))  # Black is on turn
    assert step.dice is None and step.records == ()
    assert table.handle(Press(1, "roll", True, 0.2)).dice is not None
