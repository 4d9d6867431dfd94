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

# A sequence's end as the generator records it: the moves and the two sides they leave.
_End = tuple[tuple["Move", ...], tuple[int, ...], tuple[int, ...]]


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
# which matters when one roll yields thousands of plays: the generator's results are trusted,
# as it only makes valid positions.
_set_moves = Play.__dict__["moves"].__set__
_set_result = Play.__dict__["result"].__set__
_set_player = Position.__dict__["player"].__set__
_set_opponent = Position.__dict__["opponent"].__set__
_new = object.__new__


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
    d1, d2 = check_roll(dice)
    found, most = _sequences(pos, d1) if d1 == d2 else _two_dice(pos, d1, d2)
    ends = [end for end in found.values() if len(end[0]) == most]
    if most == 1 and d1 != d2:
        # Only one die of two can be played: the larger, if it can be.
        larger = [end for end in ends if end[0][0].die == max(d1, d2)]
        ends = larger or ends
    found_plays = []
    for moves, player, opponent in ends:  # _play, inlined: heavy rolls give thousands
        result = _new(Position)
        _set_player(result, player)
        _set_opponent(result, opponent)
        play = _new(Play)
        _set_moves(play, moves)
        _set_result(play, result)
        found_plays.append(play)
    return found_plays


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


# What a move adds to a result's short key (below). The key starts at 0 and adds, for each
# index, the change in the mover's count there times 16**index: a turn changes a count by at
# most 4, and digits from -7 to 8 write each integer one way only, so equal keys are equal
# mover sides. A hit adds its point's bit above those (a point is hit at most once a turn: the
# blot goes to the bar and cannot come back before the turn ends), past a guard of 4 bits, so
# that the sum of those digits, negative or not, never reaches it.
_NIBBLES: Final = 4 * (BAR + 1) + 4
_SHIFT: Final = [
    [(1 << (4 * dst)) - (1 << (4 * src)) for dst in range(BAR + 1)] for src in range(BAR + 1)
]
_HIT: Final = [1 << (_NIBBLES + dst) for dst in range(BAR + 1)]


def _sequences(  # noqa: C901, PLR0915 (the hot path: inlined on purpose)
    pos: Position, die: int
) -> tuple[dict[int, _End], int]:
    """Depth first over the move sequences of a double of ``die``: for each position where a
    sequence must stop, the longest sequence that reaches it and the position's two sides;
    and the most moves any sequence makes.

    The hot path of the whole product, so it works in place on two lists, passes down the
    list of points that may hold checkers instead of scanning all 24, and inlines the step
    rules of :func:`_step` (which :func:`legal_moves` and :func:`apply_move` use). Results are
    told apart by a short integer key kept up to date move by move (a few additions), so a
    sequence's end costs a small-int hash, and the sides are copied once per new result.
    """
    player, opponent = list(pos.player), list(pos.opponent)
    found: dict[int, _End] = {}
    longest = 0  # a sequence shorter than one already found can never be legal

    def visit(  # noqa: C901, PLR0912
        dice: tuple[int, ...], depth: int, sources: list[int], moves: tuple[Move, ...], key: int
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
            hit = dst != OFF and opponent[BAR - dst] == 1
            after = key + _SHIFT[src][dst] + _HIT[dst] if hit else key + _SHIFT[src][dst]
            if last:
                longest = depth + 1
                seen = found.get(after)
                if seen is not None:
                    # Keep the longest way to a result: bearing off the last checker with one
                    # die reaches the same end as using both, and only using both is legal.
                    if len(seen[0]) <= depth:
                        found[after] = ((*moves, _MOVES[src][die][hit]), seen[1], seen[2])
                    continue
            player[src] -= 1
            player[dst] += 1
            if hit:
                opponent[BAR - dst] = 0
                opponent[BAR] += 1
            if last:  # every die played: record here rather than pay for one more call
                found[after] = ((*moves, _MOVES[src][die][hit]), tuple(player), tuple(opponent))
            else:
                # Go on from this source down only (see the module's docstring).
                rest = sources[index:]
                if dst != OFF and dst not in rest:
                    rest = sorted((*rest, dst), reverse=True)
                visit(dice, depth + 1, rest, (*moves, _MOVES[src][die][hit]), after)
            player[src] += 1
            player[dst] -= 1
            if hit:
                opponent[BAR - dst] = 1
                opponent[BAR] -= 1
        if not moved and depth >= longest:
            longest = depth
            seen = found.get(key)
            if seen is None:
                found[key] = (moves, tuple(player), tuple(opponent))
            elif depth > len(seen[0]):
                found[key] = (moves, seen[1], seen[2])

    occupied = [src for src in range(BAR, 0, -1) if player[src]]
    visit((die,) * 4, 0, occupied, (), 0)
    return found, longest


def _two_dice(  # noqa: C901, PLR0912, PLR0915 (the hot path: inlined on purpose)
    pos: Position, d1: int, d2: int
) -> tuple[dict[int, _End], int]:
    """:func:`_sequences` for two different dice: the same ends in the same order, as two
    nested loops over local lists rather than a recursive closure, which saves a call and
    the closure's cell lookups per first move (a fifth of a typical roll's time)."""
    player, opponent = list(pos.player), list(pos.opponent)
    found: dict[int, _End] = {}
    longest = 0
    occupied = [src for src in range(BAR, 0, -1) if player[src]]
    for first, second in ((d1, d2), (d2, d1)):
        moved = False
        for src in occupied:
            if not player[src]:
                continue
            if player[BAR] and src != BAR:
                break  # the bar sorts first; nothing else moves while it holds a checker
            dst = src - first
            if dst > 0:
                if opponent[BAR - dst] > 1:
                    continue
            elif any(player[7:]) or (dst < 0 and any(player[src + 1 : 7])):
                continue
            else:
                dst = OFF
            moved = True
            hit = dst != OFF and opponent[BAR - dst] == 1
            key = _SHIFT[src][dst] + _HIT[dst] if hit else _SHIFT[src][dst]
            move = _MOVES[src][first][hit]
            player[src] -= 1
            player[dst] += 1
            if hit:
                opponent[BAR - dst] = 0
                opponent[BAR] += 1
            rest = occupied
            if dst != OFF and dst not in occupied:
                rest = sorted((*occupied, dst), reverse=True)
            moved2 = False
            for src2 in rest:
                if not player[src2]:
                    continue
                if player[BAR] and src2 != BAR:
                    break
                dst2 = src2 - second
                if dst2 > 0:
                    if opponent[BAR - dst2] > 1:
                        continue
                elif any(player[7:]) or (dst2 < 0 and any(player[src2 + 1 : 7])):
                    continue
                else:
                    dst2 = OFF
                moved2 = True
                longest = 2
                hit2 = dst2 != OFF and opponent[BAR - dst2] == 1
                after = key + _SHIFT[src2][dst2] + _HIT[dst2] if hit2 else key + _SHIFT[src2][dst2]
                seen = found.get(after)
                if seen is not None:
                    # The longest way to a result: see _sequences.
                    if len(seen[0]) <= 1:
                        found[after] = ((move, _MOVES[src2][second][hit2]), seen[1], seen[2])
                    continue
                player[src2] -= 1
                player[dst2] += 1
                if hit2:
                    opponent[BAR - dst2] = 0
                    opponent[BAR] += 1
                found[after] = ((move, _MOVES[src2][second][hit2]), tuple(player), tuple(opponent))
                player[src2] += 1
                player[dst2] -= 1
                if hit2:
                    opponent[BAR - dst2] = 1
                    opponent[BAR] -= 1
            if not moved2 and longest <= 1:  # the second die cannot follow this first move
                longest = 1
                if key not in found:
                    found[key] = ((move,), tuple(player), tuple(opponent))
            player[src] += 1
            player[dst] -= 1
            if hit:
                opponent[BAR - dst] = 1
                opponent[BAR] -= 1
        if not moved and longest == 0 and 0 not in found:  # neither die moves: no move at all
            found[0] = ((), tuple(player), tuple(opponent))
    return found, longest
