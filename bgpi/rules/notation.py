"""Move notation as players write it: ``24/18 13/11*``, ``bar/22(2)``, ``6/off``, ``24/23*/22``.

Points are in the mover's numbering (another, such as the board's printed one, is a
``name`` given to :func:`format_moves`). :func:`format_play` joins the moves of one checker into
one path (keeping a point where it hit), sorts paths from the back and counts repeats;
:func:`parse_play` reads such text back against a position and roll, and returns the one legal
play it describes.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable, Sequence

from bgpi.rules.errors import AmbiguousPlayError, IllegalPlayError, InvalidNotationError
from bgpi.rules.plays import Move, Play, legal_plays
from bgpi.rules.position import BAR, OFF, Position

_TOKEN = re.compile(r"^(?P<path>[^()]+?)(?:\((?P<count>\d)\))?$")
_POINT = re.compile(r"^(?P<point>bar|off|\d{1,2})(?P<hit>\*?)$")


def point_name(point: int) -> str:
    """``bar``, ``off`` or the point's number."""
    return {BAR: "bar", OFF: "off"}.get(point, str(point))


def format_moves(moves: Sequence[Move], *, name: Callable[[int], str] = point_name) -> str:
    """Notation for a sequence of moves, e.g. ``13/7*/5 6/5``; ``""`` for no moves.

    ``name`` writes a point of the mover's numbering (the paths are still ordered from the
    mover's back), so the same play can be written in another numbering."""
    paths: list[list[tuple[int, bool]]] = []
    for move in sorted(moves, key=lambda m: (-m.src, -m.dst)):
        for path in paths:
            if path[-1][0] == move.src and move.src != OFF:
                path.append((move.dst, move.hit))
                break
        else:
            paths.append([(move.src, False), (move.dst, move.hit)])
    # Keep the start, the end and every point where the checker hit on its way.
    routes = [
        tuple(step for step in path if step is path[0] or step is path[-1] or step[1])
        for path in paths
    ]
    # Checkers on the same route are written once with a count; the route shows a hit if
    # any of them hit ("8/2*(2)": the first one hit, the second landed on its own point).
    counts = Counter(tuple(point for point, _ in route) for route in routes)
    hits = {point for route in routes for point, hit in route if hit}
    texts = []
    for points in sorted(counts, key=lambda points: (-points[0], -points[-1])):
        text = "/".join(name(p) + ("*" if p in hits and p != points[0] else "") for p in points)
        texts.append(text if counts[points] == 1 else f"{text}({counts[points]})")
    return " ".join(texts)


def format_play(play: Play) -> str:
    """Notation for a play; a play with no moves (a dance or a block) is ``"no move"``."""
    return format_moves(play.moves) or "no move"


def parse_play(pos: Position, dice: Sequence[int], text: str) -> Play:
    """The legal play of ``dice`` in ``pos`` that ``text`` describes.

    A checker landing on a blot hits it whether or not ``*`` is written; a point passed on the
    way hits only if marked, so ``24/18`` with 3-3 over a blot on 21 is the play that does not
    hit there and ``24/21*/18`` the one that does.
    """
    plays = legal_plays(pos, dice)
    if text.strip().lower() in ("", "no move", "none", "-"):
        if plays[0].moves:
            raise IllegalPlayError(f"{text!r}: the roll {tuple(dice)} can be played in {pos.id()}")
        return plays[0]
    result = _result_of(pos, text)
    matches = [play for play in plays if play.result == result]
    if not matches:
        raise IllegalPlayError(
            f"{text!r} is not a legal play of {dice[0]}-{dice[1]} in position {pos.id()}"
        )
    if len(matches) > 1:
        raise AmbiguousPlayError(f"{text!r} fits {len(matches)} plays in position {pos.id()}")
    return matches[0]


def _read_point(text: str, token: str) -> tuple[int, bool]:
    match = _POINT.match(text)
    if not match:
        raise InvalidNotationError(f"{text!r} in {token!r} is not a point, 'bar' or 'off'")
    name = match["point"]
    point = {"bar": BAR, "off": OFF}.get(name)
    if point is None:
        point = int(name)
        if not 1 <= point <= BAR:
            raise InvalidNotationError(f"point {point} in {token!r} is not 1-25")
    return point, bool(match["hit"])


def _paths(text: str) -> list[list[tuple[int, bool]]]:
    """Each checker's path as (point, hit there) steps, repeated as the counts say."""
    paths = []
    for token in text.lower().split():
        match = _TOKEN.match(token)
        if not match:
            raise InvalidNotationError(f"cannot read {token!r}")
        steps = [_read_point(part, token) for part in match["path"].split("/")]
        if len(steps) < 2:
            raise InvalidNotationError(f"{token!r} needs a start and an end, like 13/7")
        if steps[0][1]:
            raise InvalidNotationError(f"{token!r}: a checker cannot hit where it starts")
        points = [p for p, _ in steps]
        if any(a <= b for a, b in itertools.pairwise(points)):
            raise InvalidNotationError(f"{token!r} does not move towards home")
        paths.extend([steps] * int(match["count"] or 1))
    return paths


def _result_of(pos: Position, text: str) -> Position:
    """The position the written play leaves, before asking whether it is legal."""
    player, opponent = list(pos.player), list(pos.opponent)
    hit_here: set[int] = set()  # a * after another checker of this play hit there is fine
    for steps in _paths(text):
        start, end = steps[0][0], steps[-1][0]
        player[start] -= 1
        player[end] += 1
        for point, hit in steps[1:]:
            lands = point == end
            if point != OFF and opponent[BAR - point] == 1 and (hit or lands):
                opponent[BAR - point] = 0
                opponent[BAR] += 1
                hit_here.add(point)
            elif hit and point not in hit_here:
                raise IllegalPlayError(f"{text!r}: there is no blot to hit on {point}")
    for point, count in enumerate(player):
        if count < 0:
            raise IllegalPlayError(
                f"{text!r} moves more checkers from {point_name(point)} than are there "
                f"in position {pos.id()}"
            )
    return Position._trusted(tuple(player), tuple(opponent))
