"""The board as text, the way a player at the table sees it (``bgpi status``).

White sits at the bottom, as the board is printed: points 13-24 along the top, 12-1 along
the bottom, White's home (1-6) at the bottom right. Checkers are marked by their colour's
letter, and the players are named as the match names them; the numbers are the board's
printed ones for both colours (:mod:`bgpi.present.numbering`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bgpi.base.i18n import _
from bgpi.base.words import BLACK, WHITE, Player
from bgpi.rules import BAR, OFF, Match, Position

HEIGHT: Final = 5  # rows of checkers a half shows; a taller stack writes its count on top
TOP: Final = (tuple(range(13, 19)), tuple(range(19, 25)))
BOTTOM: Final = (tuple(range(12, 6, -1)), tuple(range(6, 0, -1)))


def marks() -> tuple[str, str]:
    """The letters of White's and Black's checkers."""
    return (_("W"), _("B"))  # translators: one letter for a white checker, one for black


def stacks(position: Position) -> dict[int, tuple[Player, int]]:
    """Printed point -> (colour, checkers) of ``position``, White on roll in it."""
    found: dict[int, tuple[Player, int]] = {}
    for point in range(1, 25):
        white, black = position.player[point], position.opponent[25 - point]
        if white or black:
            found[point] = (WHITE, white) if white else (BLACK, black)
    return found


def _half(points: Sequence[Sequence[int]], on: dict[int, tuple[Player, int]]) -> list[str]:
    """Rows of one half, from its edge inwards."""
    rows = []
    for level in range(HEIGHT):
        cells = []
        for quarter in points:
            cell = []
            for point in quarter:
                colour, count = on.get(point, (WHITE, 0))
                if count > level:
                    top = level == HEIGHT - 1 and count > HEIGHT
                    cell.append(f"{count:>2}" if top else f" {marks()[colour]}")
                else:
                    cell.append("  ")
            cells.append(" ".join(cell))
        rows.append(" | ".join(cells))
    return rows


def _numbers(points: Sequence[Sequence[int]]) -> str:
    return " | ".join(" ".join(f"{p:>2}" for p in quarter) for quarter in points)


def board_text(position: Position, names: tuple[str, str]) -> str:
    """The diagram of ``position`` (White on roll in it) with its bar, trays and pips."""
    on = stacks(position)
    white, black = marks()
    pips = position.pip_count
    lines = [
        _numbers(TOP),
        *_half(TOP, on),
        _(
            "bar: {white} {white_bar}, {black} {black_bar}   off: {white} {white_off}, "
            "{black} {black_off}"
        ).format(
            white=white,
            black=black,
            white_bar=position.player[BAR],
            black_bar=position.opponent[BAR],
            white_off=position.player[OFF],
            black_off=position.opponent[OFF],
        ),
        *reversed(_half(BOTTOM, on)),
        _numbers(BOTTOM),
        _(
            "{white} {white_name} (white), pips {white_pips}; {black} {black_name} (black), "
            "pips {black_pips}"
        ).format(
            white=white,
            black=black,
            white_name=names[WHITE],
            black_name=names[BLACK],
            white_pips=pips[0],
            black_pips=pips[1],
        ),
    ]
    return "\n".join(line.rstrip() for line in lines)


def match_text(match: Match, names: tuple[str, str]) -> list[str]:
    """The match, score, cube and turn in the players' names."""
    score = _("score: {white} {white_score}, {black} {black_score}").format(
        white=names[WHITE],
        black=names[BLACK],
        white_score=match.score[0],
        black_score=match.score[1],
    )
    if match.rules.length:
        kind = _("{length}-point match").format(length=match.rules.length)
        if match.crawford_game:
            kind = _("{length}-point match, the Crawford game").format(length=match.rules.length)
    else:
        kind = _("money session")
    if match.crawford_game:
        cube = _("cube: none in the Crawford game")
    elif match.cube_owner is None:
        cube = _("cube: {value}, in the middle").format(value=match.cube)
    else:
        cube = _("cube: {value}, {owner}'s").format(value=match.cube, owner=names[match.cube_owner])
    return [f"{kind}; {score}", cube, _turn(match, names)]


def _turn(match: Match, names: tuple[str, str]) -> str:
    if match.turn is None:
        return _("turn: the opening roll")
    name = names[match.turn]
    if match.match_over and match.winner is not None:
        return _("the match is over: {name} won it").format(name=names[match.winner])
    if match.game_winner is not None:
        return _("the game is over: {name} won it").format(name=names[match.game_winner])
    if match.double_offered:
        return _("turn: {name} doubled, {other} to answer").format(
            name=name, other=names[match.turn.other]
        )
    if match.dice is not None:
        return _("turn: {name}, who rolled {high}-{low}").format(
            name=name, high=max(match.dice), low=min(match.dice)
        )
    return _("turn: {name}, to roll").format(name=name)
