"""The tree of legal partial plays: every state a turn can pass through on its way to a legal
play, with the single moves between them.

Players move checkers in any order, so the tracker must recognise every prefix of every order
of every legal play, and nothing else. Nodes are distinct (position, dice left) pairs, so the
"tree" is really a DAG: 13/10 then 10/9 and 13/12 then 12/9 meet at the same node.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from bgpi.rules.dice import Roll, check_roll, dice_to_move
from bgpi.rules.plays import Move, Play, legal_moves, legal_plays
from bgpi.rules.position import BAR, OFF, Position


@dataclass(frozen=True, slots=True)
class PartialPlay:
    """A state within a turn: the moves so far (one order that reaches it), the position
    they leave (mover's view), the dice still to play, and whether a legal play ends here."""

    moves: tuple[Move, ...]
    result: Position
    dice_left: tuple[int, ...]
    complete: bool


@dataclass(frozen=True, slots=True)
class PlayTree:
    """Every legal partial play of one roll. ``nodes[0]`` is the start of the turn; nodes come
    in order of moves played; ``children[i]`` lists ``(move, node index)`` from node ``i``."""

    start: Position
    roll: Roll
    nodes: tuple[PartialPlay, ...]
    children: tuple[tuple[tuple[Move, int], ...], ...]

    @property
    def root(self) -> PartialPlay:
        return self.nodes[0]

    def complete(self) -> Iterator[PartialPlay]:
        """The nodes where a legal play ends: one per legal play."""
        return (node for node in self.nodes if node.complete)

    def plays(self) -> list[Play]:
        """The legal plays, as :func:`legal_plays` gives them (the same set of results)."""
        return [Play(node.moves, node.result) for node in self.complete()]


def partial_plays(pos: Position, dice: Sequence[int]) -> PlayTree:
    """Build the tree of every legal partial play of ``dice`` in ``pos``."""
    roll = check_roll(dice)
    finals = legal_plays(pos, roll)
    most = len(finals[0].moves)
    legal_results = {play.result for play in finals}
    # When only one die of two can be played, the rule picks which: only that die may end it.
    final_dice = {play.moves[0].die for play in finals} if most == 1 else set()

    # Breadth first, one level per move, merging equal states.
    start_dice = tuple(sorted(dice_to_move(roll), reverse=True))
    levels: list[dict[tuple[Position, tuple[int, ...]], int]] = [{(pos, start_dice): 0}]
    states: list[tuple[Position, tuple[int, ...], tuple[Move, ...]]] = [(pos, start_dice, ())]
    edges: list[list[tuple[Move, int]]] = [[]]
    for _depth in range(most):
        level: dict[tuple[Position, tuple[int, ...]], int] = {}
        for parent in levels[-1].values():
            parent_pos, left, moves = states[parent]
            for die in dict.fromkeys(left):
                rest = _without(left, die)
                for move in legal_moves(parent_pos, die):
                    child = _moved(parent_pos, move)
                    index = level.get((child, rest))
                    if index is None:
                        index = len(states)
                        level[(child, rest)] = index
                        states.append((child, rest, (*moves, move)))
                        edges.append([])
                    edges[parent].append((move, index))
        levels.append(level)

    # Keep only states that lead to a legal play, walking back from the last level.
    useful = [False] * len(states)
    for (child, rest), index in levels[most].items():
        used = _without_all(start_dice, rest)
        useful[index] = child in legal_results and (not final_dice or used[0] in final_dice)
    for level in reversed(levels[:most]):
        for index in level.values():
            useful[index] = any(useful[child] for _, child in edges[index])
    return _compact(pos, roll, states, edges, useful, most)


def _compact(
    pos: Position,
    roll: Roll,
    states: list[tuple[Position, tuple[int, ...], tuple[Move, ...]]],
    edges: list[list[tuple[Move, int]]],
    useful: list[bool],
    most: int,
) -> PlayTree:
    """Renumber the useful states and drop the rest."""
    number: dict[int, int] = {}
    for index, keep in enumerate(useful):
        if keep:
            number[index] = len(number)
    nodes = tuple(
        PartialPlay(moves, result, left, complete=len(moves) == most)
        for index, (result, left, moves) in enumerate(states)
        if useful[index]
    )
    children = tuple(
        tuple((move, number[child]) for move, child in edges[index] if useful[child])
        for index in number
    )
    return PlayTree(pos, roll, nodes, children)


def _moved(pos: Position, move: Move) -> Position:
    player, opponent = list(pos.player), pos.opponent
    player[move.src] -= 1
    player[move.dst] += 1
    if move.hit:
        theirs = list(opponent)
        theirs[BAR - move.dst] = 0
        theirs[BAR] += 1
        opponent = tuple(theirs)
    assert move.dst == OFF or not move.hit or pos.opponent[BAR - move.dst] == 1
    return Position._trusted(tuple(player), opponent)


def _without(dice: tuple[int, ...], die: int) -> tuple[int, ...]:
    """``dice`` with one ``die`` removed."""
    index = dice.index(die)
    return dice[:index] + dice[index + 1 :]


def _without_all(dice: tuple[int, ...], rest: tuple[int, ...]) -> tuple[int, ...]:
    """The dice of ``dice`` that are not in ``rest``: the dice used."""
    used = list(dice)
    for die in rest:
        used.remove(die)
    return tuple(used)
