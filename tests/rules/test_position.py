import pytest

from bgpi.rules import BAR, OFF, InvalidPositionError, Position


def test_initial_position_id_is_gnubgs() -> None:
    assert Position.initial().id() == "4HPwATDgc/ABMA"
    assert Position.from_id("4HPwATDgc/ABMA") == Position.initial()


def test_initial_pip_counts() -> None:
    assert Position.initial().pip_count == (167, 167)


def test_id_puts_the_opponent_first_as_gnubg_does() -> None:
    # From a gnubg record: the side to play 4-4 has 167 pips and plays 21/17*(2) 11/7(2).
    pos = Position.from_id("sG/BgCGMM+YAIw")
    assert pos.pip_count == (167, 152)
    assert pos.player[21] == 2 and pos.opponent_at(17) == 1 and pos.player[11] == 2


def test_swap_is_the_opponents_view() -> None:
    pos = Position.from_points({24: 2, 13: 13}, {6: 14, BAR: 1})
    swapped = pos.swap()
    assert swapped.player[BAR] == 1 and swapped.opponent[24] == 2
    assert swapped.swap() == pos
    assert swapped.pip_count == (pos.pip_count[1], pos.pip_count[0])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("4HPwATDgc/AB", "has 12 characters"),
        ("4HPwATDgc/AB!A", "not base64"),
        ("//////////////", "more than 15"),
    ],
)
def test_malformed_position_id_is_refused(text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        Position.from_id(text)


def test_wrong_checker_count_is_refused() -> None:
    player = list(Position.initial().player)
    player[OFF] = 1
    with pytest.raises(InvalidPositionError, match="16 checkers"):
        Position(tuple(player), Position.initial().opponent)


def test_both_colours_on_one_point_is_refused() -> None:
    with pytest.raises(InvalidPositionError, match="point 1 holds"):
        Position.from_points({1: 15}, {24: 15})


def test_diagram_shows_both_sides() -> None:
    text = str(Position.initial())
    assert "Position ID 4HPwATDgc/ABMA" in text
    assert "pips X 167  O 167" in text
