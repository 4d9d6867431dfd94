"""A backgammon position, seen from the player on roll.

Both sides are stored in their own numbering (gnubg's): for each, index 1-24 are the points
counted from that side's ace point, 25 is the bar and 0 counts the checkers borne off.
The player on roll moves from 24 towards 1 and off; the opponent's point ``q`` is the player's
point ``25 - q``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from bgpi.rules import bits
from bgpi.rules.errors import InvalidPositionError

OFF: Final = 0
BAR: Final = 25
CHECKERS: Final = 15
POINTS: Final = 24

# The starting position of either side, in its own numbering.
_INITIAL_SIDE: Final = (
    0,
    0,
    0,
    0,
    0,
    0,
    5,
    0,
    3,
    0,
    0,
    0,
    0,
    5,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    2,
    0,
)


def _check_side(side: tuple[int, ...], who: str) -> None:
    if len(side) != 26:
        raise InvalidPositionError(f"{who} has {len(side)} entries, expected 26 (off, 1-24, bar)")
    for index, count in enumerate(side):
        if not isinstance(count, int) or count < 0:
            raise InvalidPositionError(f"{who} has {count!r} checkers at index {index}")
    if sum(side) != CHECKERS:
        raise InvalidPositionError(
            f"{who} has {sum(side)} checkers (on board, bar and off), expected {CHECKERS}"
        )


@dataclass(frozen=True, slots=True)
class Position:
    """Checkers of the player on roll and of the opponent, each in their own numbering.

    ``player[i]`` / ``opponent[i]``: index 0 = borne off, 1-24 = points, 25 = bar.
    Immutable and hashable; build one with :meth:`initial`, :meth:`from_id`,
    :meth:`from_points` or the constructor (which validates).
    """

    player: tuple[int, ...]
    opponent: tuple[int, ...]

    def __post_init__(self) -> None:
        _check_side(self.player, "player on roll")
        _check_side(self.opponent, "opponent")
        for point in range(1, POINTS + 1):
            if self.player[point] and self.opponent[BAR - point]:
                raise InvalidPositionError(
                    f"point {point} holds {self.player[point]} checkers of the player on roll "
                    f"and {self.opponent[BAR - point]} of the opponent"
                )

    @classmethod
    def _trusted(cls, player: tuple[int, ...], opponent: tuple[int, ...]) -> Position:
        """Build without validation: only for the move generator, whose results are valid
        by construction (the property tests check that) and which builds thousands."""
        pos = object.__new__(cls)
        _set_player(pos, player)
        _set_opponent(pos, opponent)
        return pos

    @classmethod
    def initial(cls) -> Position:
        """The starting position."""
        return cls._trusted(_INITIAL_SIDE, _INITIAL_SIDE)

    @classmethod
    def from_points(
        cls,
        player: dict[int, int],
        opponent: dict[int, int],
    ) -> Position:
        """A position from ``{point: count}`` maps (25 = bar) in each side's own numbering;
        the checkers not listed are borne off."""
        return cls(
            _side_from_points(player, "player on roll"), _side_from_points(opponent, "opponent")
        )

    @classmethod
    def from_id(cls, position_id: str) -> Position:
        """Decode a gnubg Position ID (14 characters of base64)."""
        try:
            key = bits.decode(position_id, 10, "Position ID")
        except ValueError as exc:
            raise InvalidPositionError(str(exc)) from None
        sides: list[list[int]] = [[0] * 26, [0] * 26]
        side, index, total = 0, 1, 0
        for bit in key:
            if side == 2:
                if bit:
                    raise InvalidPositionError(f"Position ID {position_id!r} has stray bits")
                continue
            if bit:
                sides[side][index] += 1
                total += 1
                if total > 2 * CHECKERS:
                    break
                continue
            index += 1
            if index > BAR:
                side, index = side + 1, 1
        for counts in sides:
            counts[OFF] = CHECKERS - sum(counts)
            if counts[OFF] < 0:
                raise InvalidPositionError(
                    f"Position ID {position_id!r} has more than {CHECKERS} checkers on one side"
                )
        try:
            return cls(tuple(sides[1]), tuple(sides[0]))
        except InvalidPositionError as exc:
            raise InvalidPositionError(f"Position ID {position_id!r}: {exc}") from None

    def id(self) -> str:
        """The gnubg Position ID: each side from its ace point to the bar, a 1 per checker and
        a 0 after each point.

        The opponent comes first, then the player on roll. gnubg's code does it in this order
        (``anBoard[0]`` is the side not on roll), although its manual words it the other way;
        published gnubg records (``sG/BgCGMM+YAIw``, where the side to play 4-4 has 167 pips)
        only decode right this way round.
        """
        key: list[int] = []
        for side in (self.opponent, self.player):
            for index in range(1, BAR + 1):
                key.extend([1] * side[index])
                key.append(0)
        return bits.encode(key, 10)

    def swap(self) -> Position:
        """The same position seen by the opponent (who becomes the player on roll)."""
        return Position._trusted(self.opponent, self.player)

    @property
    def pip_count(self) -> tuple[int, int]:
        """Pips still to travel: (player on roll, opponent). The bar counts 25."""
        return _pips(self.player), _pips(self.opponent)

    @property
    def borne_off(self) -> tuple[int, int]:
        """Checkers borne off: (player on roll, opponent)."""
        return self.player[OFF], self.opponent[OFF]

    def opponent_at(self, point: int) -> int:
        """Opponent checkers on ``point`` in the numbering of the player on roll."""
        return self.opponent[BAR - point]

    def all_home(self) -> bool:
        """Whether every checker of the player on roll is in the home board or off."""
        return not any(self.player[7:])

    def __str__(self) -> str:
        return _diagram(self)

    def __repr__(self) -> str:
        return f"Position.from_id({self.id()!r})"


# The slot descriptors set a frozen instance's fields faster than object.__setattr__.
_set_player = Position.__dict__["player"].__set__
_set_opponent = Position.__dict__["opponent"].__set__


def _side_from_points(points: dict[int, int], who: str) -> tuple[int, ...]:
    side = [0] * 26
    for point, count in points.items():
        if not 1 <= point <= BAR:
            raise InvalidPositionError(f"{who}: point {point} is not 1-24 or 25 (bar)")
        side[point] = count
    side[OFF] = CHECKERS - sum(side)
    if side[OFF] < 0:
        raise InvalidPositionError(
            f"{who} has {sum(side) - side[OFF]} checkers, at most {CHECKERS}"
        )
    return tuple(side)


def _pips(side: Sequence[int]) -> int:
    return sum(index * count for index, count in enumerate(side))


def _row(points: Iterable[int], pos: Position, height: int) -> list[str]:
    """Text rows of checkers for ``points`` (player's numbering): X = on roll, O = opponent."""
    rows = []
    for level in range(height):
        cells = []
        for point in points:
            mine, theirs = pos.player[point], pos.opponent_at(point)
            count, mark = (mine, "X") if mine else (theirs, "O")
            if count > level:
                cells.append(
                    f"{count:>2}" if level == height - 1 and count > height else f" {mark}"
                )
            else:
                cells.append("  ")
        rows.append(cells)
    return [" ".join(r[:6]) + " | " + " ".join(r[6:]) for r in rows]


def _diagram(pos: Position) -> str:
    """A board diagram from the view of the player on roll (X), moving to the lower right."""
    top_points, bottom_points = range(13, 25), range(12, 0, -1)
    numbers_top = (
        " ".join(f"{p:>2}" for p in range(13, 19))
        + " | "
        + " ".join(f"{p:>2}" for p in range(19, 25))
    )
    numbers_bottom = (
        " ".join(f"{p:>2}" for p in range(12, 6, -1))
        + " | "
        + " ".join(f"{p:>2}" for p in range(6, 0, -1))
    )
    top = _row(top_points, pos, 5)
    bottom = list(reversed(_row(bottom_points, pos, 5)))
    pips = pos.pip_count
    lines = [
        numbers_top,
        *top,
        f"bar: X {pos.player[BAR]}  O {pos.opponent[BAR]}   "
        f"off: X {pos.player[OFF]}  O {pos.opponent[OFF]}",
        *bottom,
        numbers_bottom,
        f"X on roll, pips X {pips[0]}  O {pips[1]}   Position ID {pos.id()}",
    ]
    return "\n".join(line.rstrip() for line in lines)
