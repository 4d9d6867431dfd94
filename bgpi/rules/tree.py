"""The tree of legal partial plays: every state a turn can pass through on its way to a legal
play, with the single moves between them.

Players move checkers in any order, so the tracker must recognise every prefix of every order
of every legal play, and nothing else. Nodes are distinct (position, dice left) pairs, so the
"tree" is really a DAG: 13/10 then 10/9 and 13/12 then 12/9 meet at the same node.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Final

from bgpi.rules import packed
from bgpi.rules.dice import Roll, check_roll, dice_to_move
from bgpi.rules.packed import ABOVE, ONE, OPP_BAR, OPP_BASE, OUTSIDE_HOME
from bgpi.rules.plays import _MOVES, Move, Play
from bgpi.rules.position import BAR, OFF, Position


@dataclass(frozen=True, slots=True)
class PartialPlay:
    """A state within a turn: the moves so far (one order that reaches it), the position
    they leave (mover's view), the dice still to play, and whether a legal play ends here."""

    moves: tuple[Move, ...]
    state: int  # the position packed (bgpi.rules.packed): cheap to hash and to step from
    dice_left: tuple[int, ...]
    complete: bool

    @property
    def result(self) -> Position:
        return packed.unpack(self.state)


@dataclass(frozen=True, eq=False)
class PlayTree:
    """Every legal partial play of one roll, kept in arrays indexed by node: node 0 is the
    start of the turn, nodes come in order of moves played. ``states[i]``: the position
    packed; ``lefts[i]``: the dice still to play; ``parents[i]``: the node the first way to
    ``i`` passes through last (-1 for the root), by ``last_moves[i]``; ``most``: how many
    dice the legal plays use. The :class:`PartialPlay` objects, and each node's children
    as ``(move, node)``, are made only when asked for."""

    start: Position
    roll: Roll
    states: tuple[int, ...]
    lefts: tuple[tuple[int, ...], ...]
    parents: tuple[int, ...]
    last_moves: tuple[Move | None, ...]
    most: int
    _edges: list[list[int]]  # per node of the search, (child << 9) | move code
    _number: list[int]  # node of the search -> node of the tree, -1 if dropped
    _kept: tuple[int, ...]  # node of the tree -> node of the search

    def __len__(self) -> int:
        return len(self.states)

    def is_complete(self, index: int) -> bool:
        """Whether a legal play ends at node ``index``."""
        return len(self.lefts[0]) - len(self.lefts[index]) == self.most

    def depth(self, index: int) -> int:
        """How many moves lead to node ``index``."""
        return len(self.lefts[0]) - len(self.lefts[index])

    def moves_to(self, index: int) -> tuple[Move, ...]:
        """The moves of the first way to node ``index``."""
        moves: list[Move] = []
        while index > 0:
            move = self.last_moves[index]
            assert move is not None
            moves.append(move)
            index = self.parents[index]
        return tuple(reversed(moves))

    def node(self, index: int) -> PartialPlay:
        """Node ``index`` as a :class:`PartialPlay`."""
        return PartialPlay(
            self.moves_to(index), self.states[index], self.lefts[index], self.is_complete(index)
        )

    @cached_property
    def nodes(self) -> tuple[PartialPlay, ...]:
        paths: list[tuple[Move, ...]] = [()]
        for move, parent in zip(self.last_moves[1:], self.parents[1:], strict=True):
            assert move is not None
            paths.append((*paths[parent], move))
        return tuple(
            PartialPlay(path, state, left, self.is_complete(i))
            for i, (path, state, left) in enumerate(
                zip(paths, self.states, self.lefts, strict=True)
            )
        )

    @cached_property
    def children(self) -> tuple[tuple[tuple[Move, int], ...], ...]:
        """``children[i]``: each legal ``(move, node)`` from node ``i``."""
        number = self._number
        return tuple(
            tuple(
                (_BY_CODE[code & 511], number[code >> 9])
                for code in self._edges[old]
                if number[code >> 9] >= 0
            )
            for old in self._kept
        )

    @property
    def root(self) -> PartialPlay:
        return self.node(0)

    def complete(self) -> Iterator[PartialPlay]:
        """The nodes where a legal play ends: one per legal play."""
        return (self.node(i) for i in range(len(self.states)) if self.is_complete(i))

    def plays(self) -> list[Play]:
        """The legal plays, as :func:`legal_plays` gives them (the same set of results)."""
        return [Play(node.moves, node.result) for node in self.complete()]


# Moves as small codes on the edges: src * 14 + die * 2 + hit.
_BY_CODE: Final = [
    _MOVES[src][die][hit] for src in range(BAR + 1) for die in range(7) for hit in (0, 1)
]


# What moving a checker from ``src`` to ``dst`` adds to a packed state, and a hit on ``dst``.
_SHIFT: Final = [[ONE[dst] - ONE[src] for dst in range(BAR + 1)] for src in range(BAR + 1)]
_HIT: Final = [ONE[OPP_BAR] - ONE[OPP_BASE + dst] if dst else 0 for dst in range(BAR + 1)]


def partial_plays(pos: Position, dice: Sequence[int]) -> PlayTree:
    """Build the tree of every legal partial play of ``dice`` in ``pos``.

    Breadth first, one level per move, merging equal states, until no die can be played;
    the deepest level holds the legal plays (the rules want as many dice used as can be), and
    a walk back keeps only the states that lead to one. Works on packed positions, since the
    tracker builds this once per roll and the heaviest rolls have thousands of states: each
    state is read once as bytes for its occupied points and blocks, each move is two or four
    integer additions, and each edge one small integer.
    """
    roll = check_roll(dice)
    start_dice = tuple(sorted(dice_to_move(roll), reverse=True))
    search = _Search([packed.pack(pos)], [start_dice], [-1], [None], [[]])
    levels: list[list[int]] = [[0]]
    while len(levels) <= len(start_dice):
        level = search.expand(levels[-1])
        if not level:
            break
        levels.append(level)
    most = len(levels) - 1
    ends = levels[most]
    if most == 1 and roll[0] != roll[1]:
        # Only one die of two can be played: the larger, if it can be.
        larger = [i for i in ends if search.lefts[i] != start_dice[:1]]
        ends = larger or ends
    return search.tree(pos, roll, levels, ends, most)


@dataclass(slots=True)
class _Search:
    """The states met so far, in arrays indexed by the order of meeting."""

    states: list[int]
    lefts: list[tuple[int, ...]]
    parents: list[int]
    last_moves: list[Move | None]
    edges: list[list[int]]

    def expand(self, parents: list[int]) -> list[int]:
        """Meet every state one legal move from ``parents``; return the new ones."""
        states, lefts, edges = self.states, self.lefts, self.edges
        # The states met at this level, by the dice left: equal positions with different dice
        # left (a 5 or a 6 bearing off from the 3) are different nodes.
        found: dict[tuple[int, ...], dict[int, int]] = {}
        level: list[int] = []
        for parent in parents:
            state, left = states[parent], lefts[parent]
            raw = state.to_bytes(52, "little")
            sources = [BAR] if raw[BAR] else [p for p in range(24, 0, -1) if raw[p]]
            home = not state & OUTSIDE_HOME
            out = edges[parent]
            for die in dict.fromkeys(left):
                index = left.index(die)
                rest = left[:index] + left[index + 1 :]
                met = found.get(rest)
                if met is None:
                    met = found[rest] = {}
                for src in sources:
                    dst = src - die
                    if dst > 0:
                        hit = raw[OPP_BASE + dst]
                        if hit > 1:
                            continue
                        after = (
                            state + _SHIFT[src][dst] + _HIT[dst]
                            if hit
                            else state + _SHIFT[src][dst]
                        )
                    elif not home or (dst < 0 and state & ABOVE[src]):
                        continue
                    else:
                        dst, hit, after = OFF, 0, state + _SHIFT[src][OFF]
                    child = met.get(after)
                    if child is None:
                        child = met[after] = len(states)
                        states.append(after)
                        lefts.append(rest)
                        self.parents.append(parent)
                        self.last_moves.append(_MOVES[src][die][hit])
                        edges.append([])
                        level.append(child)
                    out.append((child << 9) | (src * 14 + die * 2 + hit))
        return level

    def tree(
        self, pos: Position, roll: Roll, levels: list[list[int]], ends: list[int], most: int
    ) -> PlayTree:
        """The tree of the states that lead to one of ``ends``."""
        useful = [False] * len(self.states)
        for index in ends:
            useful[index] = True
        edges = self.edges
        for level in reversed(levels[:most]):
            for index in level:
                useful[index] = any(useful[code >> 9] for code in edges[index])
        kept = tuple(index for index, keep in enumerate(useful) if keep)
        number = [-1] * len(self.states)
        for new, index in enumerate(kept):
            number[index] = new
        # A node leads to a legal play only if the node that first reached it does too, so the
        # recorded parents and paths run through kept nodes only.
        states, lefts, parents, moves = self.states, self.lefts, self.parents, self.last_moves
        return PlayTree(
            start=pos,
            roll=roll,
            states=tuple(states[i] for i in kept),
            lefts=tuple(lefts[i] for i in kept),
            parents=tuple(number[parents[i]] if i else -1 for i in kept),
            last_moves=tuple(moves[i] for i in kept),
            most=most,
            _edges=edges,
            _number=number,
            _kept=kept,
        )
