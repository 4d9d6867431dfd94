"""The game log: records in move notation, a roll completed by its play."""

from bgpi.journal.records import (
    CubeAction,
    GameEnded,
    GameStarted,
    MatchStarted,
    OpeningDie,
    OpeningRolled,
    Played,
    Rolled,
)
from bgpi.present.gamelog import Entry, current_match, log_entries

START = MatchStarted(5, names=("Ann", "Bob"))


def texts(records: list) -> list[str]:
    return [entry.text for entry in log_entries(records)]


def test_an_opening_roll_shows_at_once_and_its_play_completes_the_line() -> None:
    records = [START, GameStarted(), OpeningDie(0, 3), OpeningDie(1, 1), OpeningRolled(3, 1)]
    assert texts(records) == [
        "Ann (white) and Bob (black): a 5-point match",
        "Game 1, score 0-0",
        "opening roll: Ann starts",
        "Ann 31:",
    ]
    played = texts([*records, Played(0, ((8, 5, 3, False), (6, 5, 1, False)))])
    assert played[-1] == "Ann 31: 8/5 6/5"


def test_a_tie_rolls_again_and_black_may_start() -> None:
    records = [START, GameStarted(), OpeningRolled(4, 4), OpeningRolled(2, 6)]
    assert texts(records)[2:] == [
        "opening roll 44: a tie, roll again",
        "opening roll: Bob starts",
        "Bob 62:",
    ]
    entries = log_entries(records)
    assert entries[-1] == Entry("Bob 62:", 1, "roll")


def test_rolls_cube_actions_and_the_end_of_a_game() -> None:
    records = [
        START,
        GameStarted(),
        OpeningRolled(3, 1),
        Played(0, ((8, 5, 3, False), (6, 5, 1, False))),
        Rolled(1, (6, 4)),
        Played(1, ((24, 18, 6, False), (18, 14, 4, False))),
        CubeAction(0, "double"),
        CubeAction(1, "drop"),
        GameEnded(0, 1, 1, dropped=True),
        GameStarted(),
    ]
    assert texts(records)[3:] == [
        "Ann 31: 8/5 6/5",
        "Bob 64: 1/11",  # the board's printed numbers: Black's own 24/14
        "Ann doubles",
        "Bob drops",
        "Ann wins 1 point by a drop; score 1-0",
        "Game 2, score 1-0",
    ]
    kinds = [entry.kind for entry in log_entries(records)]
    assert kinds == ["match", "game", "opening", "play", "play", "cube", "cube", "end", "game"]


def test_a_roll_with_no_move() -> None:
    records = [START, GameStarted(), OpeningRolled(3, 1), Played(0, ())]
    assert texts(records)[-1] == "Ann 31: no move"


def test_the_current_match_is_the_last_one() -> None:
    second = MatchStarted(3)
    records = [START, GameStarted(), second, GameStarted()]
    assert current_match(records) == (second, GameStarted())
    assert current_match([]) == ()
    assert log_entries([]) == ()
