"""Positions packed into one integer, for code that handles thousands of them per roll.

Byte ``i`` (0-25) holds the mover's checkers at the mover's index ``i`` (0 = off, 25 = bar);
byte ``51 - q`` holds the opponent's checkers at the opponent's own index ``q``, so byte
``26 + p`` is the opponent on the mover's point ``p``, byte 26 the opponent's bar and byte 51
the opponent's borne-off checkers. A move is then two or four integer additions, and a state
hashes as fast as an int: this is what makes the partial-play tree cheap to build.
"""

from __future__ import annotations

from typing import Final

from bgpi.rules.position import BAR, OFF, Position

BITS: Final = 8
FIELD: Final = (1 << BITS) - 1
OPP_BAR: Final = 26  # byte of the opponent's bar
OPP_BASE: Final = 26  # byte of the opponent on the mover's point p is OPP_BASE + p


def one(byte: int) -> int:
    """One checker at ``byte``."""
    return 1 << (BITS * byte)


def mask(first: int, last: int) -> int:
    """Every bit of the bytes ``first`` to ``last`` inclusive."""
    return ((1 << (BITS * (last - first + 1))) - 1) << (BITS * first)


ONE: Final = tuple(one(byte) for byte in range(52))
OUTSIDE_HOME: Final = mask(7, BAR)  # mover checkers that stop the bear-off
ABOVE: Final = tuple(mask(p + 1, 6) if p < 6 else 0 for p in range(BAR + 1))


def pack(pos: Position) -> int:
    return pack_sides(pos.player, pos.opponent)


def pack_sides(player: tuple[int, ...], opponent: tuple[int, ...]) -> int:
    return int.from_bytes(bytes(player) + bytes(opponent[::-1]), "little")


def unpack(state: int) -> Position:
    raw = state.to_bytes(52, "little")
    return Position._trusted(tuple(raw[:26]), tuple(raw[51:25:-1]))


def count(state: int, byte: int) -> int:
    return (state >> (BITS * byte)) & FIELD


def step(state: int, src: int, die: int) -> tuple[int, int, bool] | None:
    """The state after moving a mover's checker from ``src`` by ``die``, where it landed
    (0 = off) and whether it hit; None if the rules forbid that single move now."""
    if not count(state, src) or (src != BAR and count(state, BAR)):
        return None
    dst = src - die
    if dst > 0:
        opposing = count(state, OPP_BASE + dst)
        if opposing > 1:
            return None
        state += one(dst) - one(src)
        if opposing:
            state += one(OPP_BAR) - one(OPP_BASE + dst)
        return state, dst, bool(opposing)
    # Bearing off: every checker home, and a die larger than needed only from the highest point.
    if state & OUTSIDE_HOME or (dst < 0 and state & ABOVE[src]):
        return None
    return state + one(OFF) - one(src), OFF, False


def sources(state: int) -> list[int]:
    """The mover's occupied points, highest first; the bar alone while it holds a checker."""
    if count(state, BAR):
        return [BAR]
    return [p for p in range(24, 0, -1) if (state >> (BITS * p)) & FIELD]
