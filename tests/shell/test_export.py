"""The .mat export: the exact text of known games, and GNU Backgammon reading back whole
matches played at random (the same games, plays, cube actions and score)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bgpi.journal.export import MatExportError, export_mat, mat_play, write_mat
from bgpi.journal.records import (
    CubeAction,
    GameEnded,
    GameStarted,
    MatchStarted,
    OpeningDie,
    OpeningRolled,
    Played,
    Record,
    Rolled,
)
from bgpi.rules import Position, parse_play
from tests.shell.matches import crawford_phases, final_score, play_match


def turns(*plays: tuple[int, tuple[int, int], str]) -> list[Played]:
    """Plays from the starting position, each ``(player, dice, notation)`` on the board the
    previous ones left (a play that ends the game is not expected)."""
    pos = Position.initial()
    records = []
    for player, dice, text in plays:
        play = parse_play(pos, dice, text)
        records.append(Played.of(player, play.moves))
        pos = play.result.swap()
    return records


def known_match() -> list[Record]:
    """Two games of a 5-point match: a hit, a dance, a take, a redouble dropped by White,
    then a double dropped by Black in a game that Black opened."""
    game1 = turns(
        (0, (3, 1), "8/5 6/5"),
        (1, (6, 2), "24/18 13/11"),
        (0, (6, 4), "13/7* 24/20"),
        (1, (5, 5), ""),
        (0, (4, 2), "13/9 13/11"),
        (1, (3, 1), "bar/22 8/7"),
        (0, (6, 5), "20/14 14/9"),
    )
    game2 = turns(
        (1, (5, 2), "13/8 13/11"),
        (0, (4, 3), "24/20 13/10"),
        (1, (6, 1), "13/7 8/7"),
    )
    return [
        MatchStarted(5),
        GameStarted(),
        OpeningDie(1, 4),
        OpeningDie(0, 4),
        OpeningRolled(4, 4),
        OpeningRolled(3, 1),
        game1[0],
        Rolled(1, (2, 6)),
        game1[1],
        Rolled(0, (6, 4)),
        game1[2],
        Rolled(1, (5, 5)),
        game1[3],
        CubeAction(0, "double"),
        CubeAction(1, "take"),
        Rolled(0, (4, 2)),
        game1[4],
        Rolled(1, (1, 3)),
        game1[5],
        Rolled(0, (6, 5)),
        game1[6],
        CubeAction(1, "double"),
        CubeAction(0, "drop"),
        GameEnded(1, 1, 2, dropped=True),
        GameStarted(),
        OpeningRolled(2, 5),
        game2[0],
        Rolled(0, (4, 3)),
        game2[1],
        Rolled(1, (6, 1)),
        game2[2],
        CubeAction(0, "double"),
        CubeAction(1, "drop"),
        GameEnded(0, 1, 1, dropped=True),
    ]


KNOWN_TEXT = """\
 5 point match

 Game 1
 White : 0                      Black : 0
  1) 31: 8/5 6/5                 62: 24/18 13/11
  2) 64: 13/7* 24/20             55:
  3)  Doubles => 2                Takes
  4) 42: 13/9 13/11              31: 25/22 8/7
  5) 65: 20/14* 14/9              Doubles => 4
  6)  Drops                       Wins 2 points

 Game 2
 White : 0                      Black : 2
  1)                             52: 13/8 13/11
  2) 43: 24/20 13/10             61: 13/7 8/7
  3)  Doubles => 2                Drops
      Wins 1 point

"""


def test_a_known_match_has_the_exact_text() -> None:
    assert export_mat(known_match()) == KNOWN_TEXT


def test_bar_off_hits_and_the_end_of_the_match() -> None:
    # The export writes plays as recorded; these need not come from a real board.
    records: list[Record] = [
        MatchStarted(1, names=("Ann Lee", "Bo:b, 1800")),
        GameStarted(),
        OpeningRolled(6, 5),
        Played(0, ((25, 19, 6, True), (6, 0, 5, False))),
        Rolled(1, (1, 2)),
        Played(1, ((3, 1, 2, False), (1, 0, 1, False))),
        Rolled(0, (4, 4)),
        Played(0, ((4, 0, 4, False),) * 4),
        GameEnded(0, 2, 2),
    ]
    assert export_mat(records) == (
        " 1 point match\n"
        "\n"
        " Game 1\n"
        " Ann_Lee : 0                    Bo_b_1800 : 0\n"
        "  1) 65: 25/19* 6/0              21: 3/1 1/0\n"
        "  2) 44: 4/0 4/0 4/0 4/0\n"
        "      Wins 2 points and the match\n"
        "\n"
    )


def test_black_bears_off_in_a_money_session() -> None:
    records: list[Record] = [
        MatchStarted(0, jacoby=True, beaver=True, automatic_doubles=1, cube_limit=16),
        GameStarted(),
        OpeningRolled(1, 2),
        Played(1, ((2, 0, 2, False), (1, 0, 1, False))),
        GameEnded(1, 1, 1),
    ]
    assert export_mat(records) == (
        "; Rules: Jacoby rule on, beavers allowed, automatic doubles up to 1, cube limit 16\n"
        "\n"
        " 0 point match\n"
        "\n"
        " Game 1\n"
        " White : 0                      Black : 0\n"
        "  1)                             21: 2/0 1/0\n"
        "                                  Wins 1 point\n"
        "\n"
    )


def test_beavers_and_automatic_doubles_show_the_cube_value() -> None:
    records: list[Record] = [
        MatchStarted(0, beaver=True, automatic_doubles=1),
        GameStarted(),
        OpeningRolled(3, 3),  # the cube turns to 2 in the middle
        OpeningRolled(3, 1),
        *turns((0, (3, 1), "8/5 6/5")),
        CubeAction(1, "double"),
        CubeAction(0, "beaver"),
        Rolled(1, (1, 2)),
    ]
    lines = export_mat(records).splitlines()
    assert lines[-3:] == [
        "  1) 31: 8/5 6/5                  Doubles => 4",
        "  2)  Beavers => 8               21:",
        "",
    ]


def test_no_crawford_rule_is_noted_for_the_reader() -> None:
    text = export_mat([MatchStarted(3, crawford=False), GameStarted()])
    assert text == "; Rules: no Crawford rule\n\n 3 point match\n\n Game 1\n White : 0" + (
        " " * 22 + "Black : 0\n\n"
    )


@pytest.mark.parametrize(
    ("dice", "moves", "text"),
    [
        ((5, 2), (), "52:"),
        ((2, 5), ((13, 11, 2, False), (13, 8, 5, False)), "52: 13/11 13/8"),
        ((3, 6), ((25, 22, 3, True), (22, 16, 6, True)), "63: 25/22* 22/16*"),
        ((6, 6), ((3, 0, 6, False), (2, 0, 6, False)), "66: 3/0 2/0"),
    ],
)
def test_a_turn_is_the_dice_and_each_move(
    dice: tuple[int, int], moves: tuple[tuple[int, int, int, bool], ...], text: str
) -> None:
    assert mat_play(dice, moves) == text


@pytest.mark.parametrize(
    ("records", "message"),
    [
        ([], "begin with MatchStarted"),
        ([GameStarted()], "begin with MatchStarted"),
        ([MatchStarted(3), OpeningRolled(3, 1)], "record 1 .* no GameStarted"),
        (
            [MatchStarted(3), GameStarted(), OpeningRolled(3, 1), Played(1, ())],
            "record 3 .* player 1 acts but player 0 is on roll",
        ),
        (
            [MatchStarted(3), GameStarted(), OpeningRolled(3, 1), Played(0, ()), Played(0, ())],
            "record 4 .* player 0 acts but player 1 is on roll",
        ),
        (
            [MatchStarted(3), GameStarted(), OpeningRolled(3, 1), CubeAction(0, "double")],
            "record 3 .* player 0 may not double: they have already rolled",
        ),
        (
            [
                MatchStarted(3),
                GameStarted(),
                OpeningRolled(3, 1),
                Played(0, ()),
                CubeAction(1, "double"),
                CubeAction(0, "beaver"),
            ],
            "record 5 .* beavers belong to money play",
        ),
        (
            [
                MatchStarted(3),
                GameStarted(),
                OpeningRolled(3, 1),
                Played(0, ()),
                GameEnded(0, 2, 1),
            ],
            "record 4 .* worth 2 points, not 1",
        ),
        (
            [
                MatchStarted(3),
                GameStarted(),
                OpeningRolled(3, 1),
                Played(0, ()),
                GameEnded(1, 1, 1),
            ],
            "record 4 .* player 1 cannot win now",
        ),
        (
            [MatchStarted(3), GameStarted(), OpeningRolled(3, 1), GameStarted()],
            "record 3 .* game 1 has not ended",
        ),
        ([MatchStarted(3), MatchStarted(5)], "record 1 .* one match at a time"),
    ],
)
def test_records_that_make_no_match_are_refused(records: list[Record], message: str) -> None:
    with pytest.raises(MatExportError, match=message):
        export_mat(records)


def test_an_unfinished_game_is_written_as_far_as_it_went(tmp_path: Path) -> None:
    records = known_match()[:17]
    path = tmp_path / "match.mat"
    write_mat(records, path)
    assert path.read_text(encoding="utf-8").splitlines()[-2:] == ["  4) 42: 13/9 13/11", ""]


# -- GNU Backgammon reads the files back ----------------------------------------------------

gnubg = pytest.importorskip("gnubg", reason="the gnubg package (dev extra) is not installed")

GnubgAction = tuple[Any, ...]


@pytest.fixture(scope="module")
def gnubg_quiet() -> Iterator[None]:
    """Both players entered by hand (so gnubg never starts playing on its own), and no
    question before a match in progress is replaced."""
    for command in ("set player 0 human", "set player 1 human", "set confirm new off"):
        gnubg.command(command)
    yield


def gnubg_import(text: str, tmp_path: Path, start: MatchStarted) -> dict[str, Any]:
    """gnubg's match after ``import mat`` of ``text``; its Jacoby setting is the match's,
    which the file cannot carry."""
    path = tmp_path / "match.mat"
    path.write_text(text, encoding="utf-8")
    gnubg.command(f"set jacoby {'on' if start.jacoby else 'off'}")
    gnubg.command(f"import mat {path}")
    match: dict[str, Any] = gnubg.match(analysis=0, boards=0, statistics=0, verbose=0)
    return match


def _side(player: int) -> str:
    return "XO"[player]  # gnubg's first player (the left column) is X


def expected_actions(records: Sequence[Record]) -> list[list[GnubgAction]]:
    """Each game's actions as gnubg lists them: a beaver is the beaverer's redouble and the
    doubler's take."""
    games: list[list[GnubgAction]] = []
    dice = (0, 0)
    for record in records:
        if isinstance(record, GameStarted):
            games.append([])
        elif isinstance(record, OpeningRolled) and record.white != record.black:
            dice = (record.white, record.black)
        elif isinstance(record, Rolled):
            dice = record.dice
        elif isinstance(record, Played):
            moves = sorted(((src, dst) for src, dst, _, _ in record.moves), reverse=True)
            games[-1].append(("move", _side(record.player), tuple(sorted(dice)), moves))
        elif isinstance(record, CubeAction) and record.action == "beaver":
            games[-1].append(("double", _side(record.player)))
            games[-1].append(("take", _side(record.player.other)))
        elif isinstance(record, CubeAction):
            games[-1].append((record.action, _side(record.player)))
    return games


def gnubg_actions(match: dict[str, Any]) -> list[list[GnubgAction]]:
    games = []
    for game in match["games"]:
        actions: list[GnubgAction] = []
        for action in game["game"]:
            if action["action"] == "move":
                moves = sorted((tuple(move) for move in action["move"]), reverse=True)
                actions.append(("move", action["player"], tuple(sorted(action["dice"])), moves))
            else:
                actions.append((action["action"], action["player"]))
        games.append(actions)
    return games


def game_results(records: Sequence[Record]) -> list[tuple[str, int]]:
    return [(_side(r.winner), r.points) for r in records if isinstance(r, GameEnded)]


def gnubg_results(match: dict[str, Any]) -> list[tuple[str, int]]:
    return [
        (game["info"]["winner"], game["info"]["points-won"])
        for game in match["games"]
        if game["info"]["winner"] is not None
    ]


def gnubg_final_score(match: dict[str, Any]) -> tuple[int, int]:
    info = match["games"][-1]["info"]
    score = [info["score-X"], info["score-O"]]
    if info["winner"] is not None:
        score["XO".index(info["winner"])] += info["points-won"]
    return score[0], score[1]


def starting_scores(records: Sequence[Record]) -> list[tuple[int, int]]:
    scores, score = [], [0, 0]
    for record in records:
        if isinstance(record, GameStarted):
            scores.append((score[0], score[1]))
        elif isinstance(record, GameEnded):
            score[record.winner] += record.points
    return scores


def assert_gnubg_reads_the_same(records: Sequence[Record], tmp_path: Path) -> dict[str, Any]:
    start = records[0]
    assert isinstance(start, MatchStarted)
    match = gnubg_import(export_mat(records), tmp_path, start)
    assert match["match-info"]["match-length"] == start.length
    assert [match["match-info"][side]["name"] for side in "XO"] == list(start.names)
    assert gnubg_actions(match) == expected_actions(records)
    assert [(g["info"]["score-X"], g["info"]["score-O"]) for g in match["games"]] == (
        starting_scores(records)
    )
    return match


def test_gnubg_reads_the_known_match(gnubg_quiet: None, tmp_path: Path) -> None:
    records = known_match()
    match = assert_gnubg_reads_the_same(records, tmp_path)
    assert gnubg_results(match) == game_results(records) == [("O", 2), ("X", 1)]


FIVE_POINT_SEEDS = range(8)
FIVE_POINT_DOUBLES = 0.04


@pytest.mark.parametrize("seed", FIVE_POINT_SEEDS)
def test_gnubg_reads_random_five_point_matches(
    gnubg_quiet: None, tmp_path: Path, seed: int
) -> None:
    start = MatchStarted(5, names=("Alice", "Bob"))
    records = play_match(seed, start, double_rate=FIVE_POINT_DOUBLES)
    match = assert_gnubg_reads_the_same(records, tmp_path)
    assert gnubg_results(match) == game_results(records)
    assert gnubg_final_score(match) == final_score(records)
    assert max(final_score(records)) >= 5


def test_the_random_matches_cover_crawford_and_every_cube_action() -> None:
    """The seeds above cover what the export must get right, so the gnubg test means it."""
    matches = [
        play_match(seed, MatchStarted(5), double_rate=FIVE_POINT_DOUBLES)
        for seed in FIVE_POINT_SEEDS
    ]
    phases = [crawford_phases(records) for records in matches]
    assert sum(p.count("crawford") for p in phases) >= 2
    doubled_after = [
        phase
        for records, game_phases in zip(matches, phases, strict=True)
        for phase, game in zip(game_phases, split_games(records), strict=True)
        if any(isinstance(r, CubeAction) for r in game)
    ]
    assert "crawford" not in doubled_after
    assert "after" in doubled_after
    actions = {r.action for records in matches for r in records if isinstance(r, CubeAction)}
    assert actions == {"double", "take", "drop"}
    plays = [r for records in matches for r in records if isinstance(r, Played)]
    moves = [move for play in plays for move in play.moves]
    assert any(src == 25 for src, _, _, _ in moves)
    assert any(dst == 0 for _, dst, _, _ in moves)
    assert any(hit for _, _, _, hit in moves)
    assert any(not play.moves for play in plays)
    results = {r.result for records in matches for r in records if isinstance(r, GameEnded)}
    assert results >= {1, 2}


def split_games(records: Sequence[Record]) -> list[list[Record]]:
    games: list[list[Record]] = []
    for record in records[1:]:
        if isinstance(record, GameStarted):
            games.append([])
        games[-1].append(record)
    return games


@pytest.mark.parametrize("jacoby", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_gnubg_reads_random_money_sessions_with_beavers(
    gnubg_quiet: None, tmp_path: Path, seed: int, jacoby: bool
) -> None:
    start = MatchStarted(0, jacoby=jacoby, beaver=True, cube_limit=16)
    records = play_match(seed, start, games=5, double_rate=0.1)
    match = assert_gnubg_reads_the_same(records, tmp_path)
    assert gnubg_results(match) == game_results(records)
    assert gnubg_final_score(match) == final_score(records)


def test_the_money_sessions_beaver() -> None:
    start = MatchStarted(0, beaver=True, cube_limit=16)
    sessions = [play_match(seed, start, games=5, double_rate=0.1) for seed in range(3)]
    assert any(
        isinstance(r, CubeAction) and r.action == "beaver" for records in sessions for r in records
    )


def test_gnubg_assumes_the_crawford_rule_but_reads_the_doubles(
    gnubg_quiet: None, tmp_path: Path
) -> None:
    # Seed 7 doubles in the game at 2-0 of a 3-point match, which gnubg takes for Crawford's.
    start = MatchStarted(3, crawford=False)
    records = play_match(7, start, double_rate=0.3)
    as_if_crawford = crawford_phases([replace(start, crawford=True), *records[1:]])
    crawford_game = split_games(records)[as_if_crawford.index("crawford")]
    assert CubeAction(1, "double") in crawford_game
    match = assert_gnubg_reads_the_same(records, tmp_path)
    assert gnubg_results(match) == game_results(records)
    assert "Crawford" in match["match-info"]["rules"]


def test_gnubg_counts_automatic_doubles_out(gnubg_quiet: None, tmp_path: Path) -> None:
    """The documented limit: gnubg reads the same plays and cube actions, but its cube
    starts every game at 1, so a game's points are ours halved per automatic double."""
    records = play_match(1, MatchStarted(0, automatic_doubles=2), games=8, double_rate=0.1)
    match = assert_gnubg_reads_the_same(records, tmp_path)
    doubles = [0]
    for record in records[2:]:
        if isinstance(record, GameStarted):
            doubles.append(0)
        elif isinstance(record, OpeningRolled) and record.white == record.black:
            doubles[-1] += 1
    assert any(doubles)
    assert [
        (winner, points // 2**count)
        for (winner, points), count in zip(game_results(records), doubles, strict=True)
    ] == gnubg_results(match)
