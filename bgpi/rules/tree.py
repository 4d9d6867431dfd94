"""The tree of legal partial plays: every state a turn can pass through on its way to a legal
play, with the single moves between them.

Players move checkers in any order, so the tracker must recognise every prefix of every order
of every legal play, and nothing else. Nodes are distinct (position, dice left) pairs, so the
"tree" is really a DAG: 13/10 then 10/9 and 13/12 then 12/9 meet at the same node.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from bgpi.rules import packed
from bgpi.rules.dice import Roll, check_roll, dice_to_move
from bgpi.rules.packed import ABOVE, BITS, FIELD, ONE, OPP_BAR, OPP_BASE, OUTSIDE_HOME
from bgpi.rules.plays import _MOVES, Move, Play
from bgpi.rules.position import OFF, Position


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


@dataclass(frozen=True, slots=True)
class PlayTree:
    """Every legal partial play of one roll. ``nodes[0]`` is the start of the turn; nodes come
    in order of moves played; ``children[i]`` lists ``(move, node index)`` from node ``i``;
    ``parents[i]`` is the node that ``nodes[i].moves`` passes through last (-1 for the root)."""

    start: Position
    roll: Roll
    nodes: tuple[PartialPlay, ...]
    children: tuple[tuple[tuple[Move, int], ...], ...]
    parents: tuple[int, ...]

    @property
    def root(self) -> PartialPlay:
        return self.nodes[0]

    def complete(self) -> Iterator[PartialPlay]:
        """The nodes where a legal play ends: one per legal play."""
        return (node for node in self.nodes if node.complete)

    def plays(self) -> list[Play]:
        """The legal plays, as :func:`legal_plays` gives them (the same set of results)."""
        return [Play(node.moves, node.result) for node in self.complete()]


_State = tuple[int, tuple[int, ...]]  # (packed position, dice left)


def partial_plays(pos: Position, dice: Sequence[int]) -> PlayTree:
    """Build the tree of every legal partial play of ``dice`` in ``pos``.

    Breadth first, one level per move, merging equal states, until no die can be played;
    the deepest level holds the legal plays (the rules want as many dice used as can be), and
    a walk back keeps only the states that lead to one. Works on packed positions, since the
    tracker builds this once per roll and the heaviest rolls have thousands of states.
    """
    roll = check_roll(dice)
    start_dice = tuple(sorted(dice_to_move(roll), reverse=True))
    states: list[_State] = [(packed.pack(pos), start_dice)]
    paths: list[tuple[Move, ...]] = [()]
    parents: list[int] = [-1]
    edges: list[list[tuple[Move, int]]] = [[]]
    levels: list[list[int]] = [[0]]
    while len(levels) <= len(start_dice):
        level: dict[_State, int] = {}
        for parent in levels[-1]:
            for move, state in _successors(*states[parent]):
                child = level.get(state)
                if child is None:
                    child = level[state] = len(states)
                    states.append(state)
                    paths.append((*paths[parent], move))
                    parents.append(parent)
                    edges.append([])
                edges[parent].append((move, child))
        if not level:
            break
        levels.append(list(level.values()))
    most = len(levels) - 1
    ends = levels[most]
    if most == 1 and roll[0] != roll[1]:
        # Only one die of two can be played: the larger, if it can be.
        larger = [index for index in ends if paths[index][0].die == max(roll)]
        ends = larger or ends

    useful = [False] * len(states)
    for index in ends:
        useful[index] = True
    for level_indices in reversed(levels[:most]):
        for index in level_indices:
            useful[index] = any(useful[child] for _, child in edges[index])
    kept = [index for index, keep in enumerate(useful) if keep]
    number = {index: new for new, index in enumerate(kept)}
    nodes = tuple(
        PartialPlay(paths[i], states[i][0], states[i][1], len(paths[i]) == most) for i in kept
    )
    children = tuple(
        tuple((move, number[child]) for move, child in edges[index] if useful[child])
        for index in kept
    )
    # A node leads to a legal play only if the node that first reached it does too, so the
    # recorded parents and paths run through kept nodes only.
    return PlayTree(pos, roll, nodes, children, tuple(number.get(parents[i], -1) for i in kept))


def _successors(position: int, left: tuple[int, ...]) -> Iterator[tuple[Move, _State]]:
    """Each legal single move from a packed position with the dice ``left``, and the state
    it leaves. :func:`packed.step`, inlined: this runs tens of thousands of times a roll."""
    sources = packed.sources(position)
    for die in dict.fromkeys(left):
        index = left.index(die)
        rest = left[:index] + left[index + 1 :]
        for src in sources:
            dst = src - die
            if dst > 0:
                opposing = (position >> (BITS * (OPP_BASE + dst))) & FIELD
                if opposing > 1:
                    continue
                after = position + ONE[dst] - ONE[src]
                if opposing:
                    after += ONE[OPP_BAR] - ONE[OPP_BASE + dst]
            elif position & OUTSIDE_HOME or (dst < 0 and position & ABOVE[src]):
                continue
            else:
                opposing, after = 0, position + ONE[OFF] - ONE[src]
            yield _MOVES[src][die][opposing == 1], (after, rest)
