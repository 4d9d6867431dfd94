"""Moves, plays and the generator of every legal play for a position and roll.

A *move* takes one checker by one die; a *play* is all the moves of one roll.

Generation enumerates move sequences depth first on mutable lists (the hot path), and keeps
one play per distinct resulting position. For doubles it only walks sequences whose source
points never rise: every legal sequence of equal dice can be reordered that way with the same
result (blocks do not change during a play, checkers only move down, and moving the highest
checkers first only helps bearing off), so this visits each multiset of moves once instead of
up to 24 orders of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from bgpi.rules.dice import check_roll
from bgpi.rules.position import BAR, OFF, Position

# A position as the generator handles it: (player, opponent) count tuples.
_Key = tuple[tuple[int, ...], tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class Move:
    """One checker moved by one die, in the mover's numbering (25 = bar, 0 = off)."""

    src: int
    dst: int
    die: int
    hit: bool = False

    def __repr__(self) -> str:
        hit = ", hit=True" if self.hit else ""
        return f"Move({self.src}, {self.dst}, {self.die}{hit})"


@dataclass(frozen=True, slots=True)
class Play:
    """All the moves of one roll and the position they leave (still from the mover's view)."""

    moves: tuple[Move, ...]
    result: Position

    def __str__(self) -> str:
        # notation imports this module to parse, so it is imported here, when first printed.
        from bgpi.rules.notation import format_play  # noqa: PLC0415

        return format_play(self)


# The slot descriptors set a frozen instance's fields faster than the dataclass __init__,
# which matters when one roll yields thousands of plays.
_set_moves = Play.__dict__["moves"].__set__
_set_result = Play.__dict__["result"].__set__
_set_player = Position.__dict__["player"].__set__
_set_opponent = Position.__dict__["opponent"].__set__
_new = object.__new__


def _play(moves: tuple[Move, ...], player: tuple[int, ...], opponent: tuple[int, ...]) -> Play:
    """A play and its result, trusted: the generator only makes valid positions."""
    result = _new(Position)
    _set_player(result, player)
    _set_opponent(result, opponent)
    play = _new(Play)
    _set_moves(play, moves)
    _set_result(play, result)
    return play


def apply_move(pos: Position, move: Move) -> Position:
    """The position after ``move`` (mover's view), checked for legality of the single step."""
    player, opponent = list(pos.player), list(pos.opponent)
    dst = _step(player, opponent, move.src, move.die)
    if dst is None or dst != move.dst:
        raise ValueError(f"{move!r} cannot be played in {pos!r}")
    hit = _do(player, opponent, move.src, dst)
    if hit != move.hit:
        raise ValueError(f"{move!r} {'hits' if hit else 'does not hit'} in {pos!r}")
    return Position._trusted(tuple(player), tuple(opponent))


def legal_moves(pos: Position, die: int) -> list[Move]:
    """Every single move of ``die`` that the rules allow now, ignoring the rest of the roll."""
    player, opponent = pos.player, pos.opponent
    moves = []
    for src in _sources(player):
        dst = _step(player, opponent, src, die)
        if dst is not None:
            moves.append(_MOVES[src][die][dst != OFF and opponent[BAR - dst] == 1])
    return moves


def legal_plays(pos: Position, dice: Sequence[int]) -> list[Play]:
    """Every legal play of ``dice`` in ``pos``, one per distinct resulting position.

    Both dice must be used if they can; if only one can, the larger if it can; a double gives
    four moves, as many as can be played. When nothing can move, the one play has no moves.
    """
    return [_play(moves, player, opponent) for (player, opponent), moves in _legal(pos, dice)]


def _legal(pos: Position, dice: Sequence[int]) -> list[tuple[_Key, tuple[Move, ...]]]:
    """The legal plays as (result key, moves): the sequences that use the most dice, and
    when that is one die of two, those that use the larger if any can."""
    d1, d2 = check_roll(dice)
    found, most = _sequences(pos, d1, d2)
    keep = [(key, moves) for key, moves in found.items() if len(moves) == most]
    if most == 1 and d1 != d2:
        larger = [(key, moves) for key, moves in keep if moves[0].die == max(d1, d2)]
        keep = larger or keep
    return keep


def _sources(player: Sequence[int]) -> list[int]:
    """Points the mover may move from: the bar alone while it holds a checker."""
    if player[BAR]:
        return [BAR]
    return [src for src in range(24, 0, -1) if player[src]]


def _step(player: Sequence[int], opponent: Sequence[int], src: int, die: int) -> int | None:
    """Where a checker on ``src`` lands with ``die`` (0 = off), or None if it may not move."""
    if not player[src] or (player[BAR] and src != BAR):
        return None
    dst = src - die
    if dst > 0:
        return dst if opponent[BAR - dst] < 2 else None
    # Bearing off: every checker home, and a die larger than needed only from the highest point.
    if any(player[7:]) or (dst < 0 and any(player[src + 1 : 7])):
        return None
    return OFF


def _do(player: list[int], opponent: list[int], src: int, dst: int) -> bool:
    """Move one checker in place; return whether it hit a blot."""
    player[src] -= 1
    player[dst] += 1
    if dst != OFF and opponent[BAR - dst] == 1:
        opponent[BAR - dst] = 0
        opponent[BAR] += 1
        return True
    return False


# Every possible move, built once: the generator hands out these shared immutable values
# instead of constructing thousands of new ones per call. Index: [src][die][hit].
_MOVES: Final = [
    [
        [
            Move(src, max(src - die, OFF) if src != BAR else BAR - die, die, hit)
            for hit in (False, True)
        ]
        for die in range(7)
    ]
    for src in range(BAR + 1)
]


def _sequences(  # noqa: C901, PLR0915 (the hot path: inlined on purpose)
    pos: Position, d1: int, d2: int
) -> tuple[dict[_Key, tuple[Move, ...]], int]:
    """Depth first over the move sequences of a roll: for each position where a sequence must
    stop, the longest sequence that reaches it; and the most moves any sequence makes.

    The hot path of the whole product, so it works in place on two lists, passes down the
    list of points that may hold checkers instead of scanning all 24, and inlines the step
    rules of :func:`_step` (which :func:`legal_moves` and :func:`apply_move` use).
    """
    player, opponent = list(pos.player), list(pos.opponent)
    found: dict[_Key, tuple[Move, ...]] = {}
    longest = 0  # a sequence shorter than one already found can never be legal
    doubles = d1 == d2

    def visit(  # noqa: C901, PLR0912
        dice: tuple[int, ...], depth: int, sources: list[int], moves: tuple[Move, ...]
    ) -> None:
        nonlocal longest
        moved = False
        die = dice[depth]
        last = depth + 1 == len(dice)
        for index, src in enumerate(sources):
            if not player[src]:
                continue
            if player[BAR] and src != BAR:
                break  # the bar sorts first; nothing else moves while it holds a checker
            dst = src - die
            if dst > 0:
                if opponent[BAR - dst] > 1:
                    continue
            elif any(player[7:]) or (dst < 0 and any(player[src + 1 : 7])):
                continue
            else:
                dst = OFF
            moved = True
            player[src] -= 1
            player[dst] += 1
            hit = dst != OFF and opponent[BAR - dst] == 1
            if hit:
                opponent[BAR - dst] = 0
                opponent[BAR] += 1
            if last:  # every die played: record here rather than pay for one more call
                longest = depth + 1
                key = (tuple(player), tuple(opponent))
                # Keep the longest way to a result: bearing off the last checker with one
                # die reaches the same end as using both, and only using both is legal.
                if key not in found or len(found[key]) <= depth:
                    found[key] = (*moves, _MOVES[src][die][hit])
            else:
                # Doubles go on from this source down only (see the module's docstring).
                rest = sources[index:] if doubles else sources
                if dst != OFF and dst not in rest:
                    rest = sorted((*rest, dst), reverse=True)
                visit(dice, depth + 1, rest, (*moves, _MOVES[src][die][hit]))
            player[src] += 1
            player[dst] -= 1
            if hit:
                opponent[BAR - dst] = 1
                opponent[BAR] -= 1
        if not moved and depth >= longest:
            longest = depth
            key = (tuple(player), tuple(opponent))
            if key not in found or depth > len(found[key]):
                found[key] = moves

    occupied = [src for src in range(BAR, 0, -1) if player[src]]
    if doubles:
        visit((d1,) * 4, 0, occupied, ())
    else:
        visit((d1, d2), 0, occupied, ())
        visit((d2, d1), 0, occupied, ())
    return found, longest
