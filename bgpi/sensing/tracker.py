"""The move tracker: from settled observations of the board to legal plays.

Once per roll it builds the tree of legal partial plays and indexes every state by the
observation it gives. Each settled observation is then answered from that index:

* **at node**: the board shows a legal partial or complete play;
* **in flight**: the board is a legal state with one or two checkers in the players' hands
  (a checker being moved, an opposing blot on its way to the bar, both at once); the answer
  names every zone where the lifted checker may still legally land;
* **wrong**: nothing legal fits; the answer is the difference from the nearest legal state.

Observations are compared in the *mover's frame*, packed into one integer: byte ``p`` (1-24)
counts the checkers on the mover's point ``p``, byte 25 the mover's bar, byte 26 the
opponent's bar, bytes 0 and 27 the mover's and the opponent's trays. So the index is a dict of
ints, and "this state with a checker lifted from X" is one subtraction.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property
from typing import Final

from bgpi.rules import packed
from bgpi.rules.dice import Roll
from bgpi.rules.packed import BITS, FIELD, ONE, OPP_BAR
from bgpi.rules.plays import Play
from bgpi.rules.position import BAR, OFF, Position
from bgpi.rules.tree import PlayTree, partial_plays
from bgpi.sensing.board import BoardDiff, Observation, board_diff, zone_of

FRAME: Final = 28  # bytes of a mover-frame observation
_POINTS: Final = packed.mask(1, 24)
_BARS: Final = packed.mask(BAR, OPP_BAR)
_OPP_TRAY: Final = 27
_TOP_BITS: Final = int.from_bytes(b"\x80" * FRAME, "little")
# One or two checkers in hand, from any of the mover's points or the bar, and what adding
# them back to an observation adds to its packed frame.
_LIFTS: Final[list[tuple[tuple[int, ...], int]]] = [((x,), ONE[x]) for x in range(1, BAR + 1)] + [
    ((x, y), ONE[x] + ONE[y]) for x in range(1, BAR + 1) for y in range(x, BAR + 1)
]


class Kind(Enum):
    AT_NODE = "at node"
    IN_FLIGHT = "in flight"
    WRONG = "wrong"


@dataclass(frozen=True, slots=True)
class Reading:
    """The tracker's answer for one settled observation.

    ``nodes``: at node, the states the board shows (several only when stacks above the slots
    hide the difference); in flight, the states the hands started from; wrong, the nearest
    legal state. ``complete``: the complete plays among ``nodes`` (at node only).
    ``lifted``: zones checkers were lifted from. ``destinations``: zones where a lifted
    checker of the mover may legally land (the mover's tray zone stands for "off").
    ``diff``: what to change to reach ``nodes[0]`` (wrong only).
    """

    kind: Kind
    nodes: tuple[int, ...]
    complete: tuple[int, ...] = ()
    lifted: frozenset[int] = frozenset()
    destinations: frozenset[int] = frozenset()
    diff: BoardDiff = field(default_factory=BoardDiff)


class TurnTracker:
    """Everything the tracker knows about one turn, prepared once per roll."""

    def __init__(self, start: Position, roll: Roll, mover: int, caps: Sequence[int]) -> None:
        self.start, self.roll, self.mover = start, roll, mover
        self.tree: PlayTree = partial_plays(start, roll)
        self._zones = _frame_zones(mover)
        self._caps = bytes(caps[zone] for zone in self._zones)
        # Adding 127 - cap to each byte sets its top bit exactly where a count passes its cap
        # (counts never exceed 15, so no byte carries into the next): one test for all zones.
        self._over = int.from_bytes(bytes(127 - cap for cap in self._caps), "little")
        self._sensed_trays = self._caps[OFF] > 0 or self._caps[_OPP_TRAY] > 0
        self._states = [node.state for node in self.tree.nodes]
        self._index = {
            (state, node.dice_left): i
            for i, (state, node) in enumerate(zip(self._states, self.tree.nodes, strict=True))
        }
        self._frames = [self._frame_of(state) for state in self._states]
        self._by_frame: dict[int, list[int]] = {}
        for i, frame in enumerate(self._frames):
            self._by_frame.setdefault(frame, []).append(i)
        self._dests: dict[tuple[int, int], frozenset[int]] = {}

    # -- answers -----------------------------------------------------------------------

    def read(self, observation: Observation, near: int | None = None) -> Reading:
        """Answer a settled observation. ``near``: the node the board last showed, which the
        wrong-board guidance prefers as the state to return to."""
        frame = self._pack(observation)
        nodes = self._by_frame.get(frame)
        if nodes:
            return Reading(
                Kind.AT_NODE,
                tuple(nodes),
                complete=tuple(i for i in nodes if self.tree.nodes[i].complete),
                destinations=self._landing(frame, exclude=nodes),
            )
        flights = list(self._flights(frame))
        if flights:
            # "8/7, then the checker on 7 lifted" looks like "the checker on 8 lifted": every
            # explanation adds destinations, the one with the fewest moves names the source.
            fewest = min(len(self.tree.nodes[node].moves) for node, _, _ in flights)
            first = [f for f in flights if len(self.tree.nodes[f[0]].moves) == fewest]
            return Reading(
                Kind.IN_FLIGHT,
                tuple(dict.fromkeys(node for node, _, _ in first + flights)),
                lifted=frozenset(z for _, lifted, _ in first for z in lifted),
                destinations=frozenset(z for _, _, dests in flights for z in dests),
            )
        nearest = self._nearest(frame, near)
        return Reading(Kind.WRONG, (nearest,), diff=board_diff(observation, self.expected(nearest)))

    def expected(self, node: int) -> Observation:
        """The observation of ``node``, in zones."""
        raw = self._frames[node].to_bytes(FRAME, "little")
        counts = [0] * (max(self._zones) + 1)
        for index, zone in enumerate(self._zones):
            counts[zone] = raw[index]
        return tuple(counts)

    def play(self, node: int) -> Play:
        """The play that ends at ``node`` (one order of its moves)."""
        partial = self.tree.nodes[node]
        return Play(partial.moves, partial.result)

    @cached_property
    def root_destinations(self) -> dict[int, frozenset[int]]:
        """For each zone the mover may lift a checker from at the start, where it may go."""
        return {
            self._zone(src): frozenset(self._zone(d) for d in self._destinations(0, src))
            for src in packed.sources(self._states[0])
            if self._destinations(0, src)
        }

    # -- in flight ----------------------------------------------------------------------

    def _flights(self, frame: int) -> Iterator[tuple[int, tuple[int, ...], frozenset[int]]]:
        """(node, zones lifted, destinations) for every way ``frame`` is a legal state with
        checkers in hand: one or two lifted, a hitter placed on the blot before the blot is
        lifted, or the blot put on the bar before the hitter moves."""
        raw = frame.to_bytes(FRAME, "little")
        patterns: list[tuple[tuple[int, ...], tuple[int, ...], int]]
        patterns = [(lifted, (), offset) for lifted, offset in _LIFTS]
        for y in range(1, 25):
            if raw[y] >= 2:  # a hitter put on the blot before the blot is lifted
                patterns += [((x,), (y,), ONE[x] - ONE[y]) for x in range(1, BAR + 1) if x != y]
        if raw[OPP_BAR]:  # the blot put on the bar before (or while) the hitter moves
            patterns += [(lifted, (OPP_BAR,), offset - ONE[OPP_BAR]) for lifted, offset in _LIFTS]
        for lifted, placed, offset in patterns:
            for node in self._by_frame.get(frame + offset, ()):
                destinations = self._explain(node, lifted, placed)
                if destinations is not None:
                    yield node, tuple(self._zone(z) for z in lifted), destinations

    def _explain(
        self, node: int, lifted: tuple[int, ...], placed: tuple[int, ...]
    ) -> frozenset[int] | None:
        """The destinations if hands moving from ``node`` can leave checkers lifted from
        ``lifted`` (and put on ``placed``), else None."""
        state = self._states[node]
        movers = [z for z in lifted if packed.count(state, z) and self._destinations(node, z)]
        blots = [z for z in lifted if z not in movers and self._hittable(node, z)]
        if len(movers) + len(blots) < len(lifted):
            return None
        if placed == (OPP_BAR,):
            if not blots:
                return None
        elif placed and not self._hittable(node, placed[0]):
            return None
        return frozenset(self._zone(d) for z in movers for d in self._destinations(node, z))

    def _landing(self, frame: int, exclude: Sequence[int]) -> frozenset[int]:
        """At a node that is also "another node with a checker in hand" (bearing off with no
        tray sensors looks the same as holding the checker): that checker's destinations."""
        if self._sensed_trays:
            return frozenset()
        found: set[int] = set()
        for z in range(1, BAR + 1):
            for node in self._by_frame.get(frame + ONE[z], ()):
                if node not in exclude:
                    found |= {self._zone(d) for d in self._destinations(node, z)}
        return frozenset(found)

    def _destinations(self, node: int, src: int) -> frozenset[int]:
        """Where the mover's checker on ``src`` may go from ``node`` through the dice still to
        play, each step staying in the tree (a prefix of a legal play): 0 = off."""
        key = (node, src)
        found = self._dests.get(key)
        if found is None:
            collected: set[int] = set()
            if packed.count(self._states[node], src):
                self._follow(self._states[node], self.tree.nodes[node].dice_left, src, collected)
            found = self._dests[key] = frozenset(collected)
        return found

    def _hittable(self, node: int, point: int) -> bool:
        """Whether an opposing blot on the mover's ``point`` is hit by some legal way on."""
        state = self._states[node]
        if not 1 <= point <= 24 or packed.count(state, packed.OPP_BASE + point) != 1:
            return False
        return any(point in self._destinations(node, src) for src in packed.sources(state))

    def _follow(self, state: int, left: tuple[int, ...], src: int, found: set[int]) -> None:
        for die in dict.fromkeys(left):
            moved = packed.step(state, src, die)
            if moved is None:
                continue
            after, dst, _ = moved
            index = left.index(die)
            rest = left[:index] + left[index + 1 :]
            if (after, rest) in self._index:
                found.add(dst)
                if dst != OFF:
                    self._follow(after, rest, dst, found)

    # -- wrong --------------------------------------------------------------------------

    def _nearest(self, frame: int, near: int | None) -> int:
        """The legal state closest to ``frame`` (fewest checkers to move), looking at the
        last state shown, the start, and their neighbours in the tree."""
        candidates = {0, *(child for _, child in self.tree.children[0])}
        if near is not None:
            candidates |= {near, *(child for _, child in self.tree.children[near])}
            parent = self.tree.parents[near]
            while parent >= 0:
                candidates.add(parent)
                parent = self.tree.parents[parent]
        raw = frame.to_bytes(FRAME, "little")

        def distance(node: int) -> tuple[int, int]:
            other = self._frames[node].to_bytes(FRAME, "little")
            return sum(abs(a - b) for a, b in zip(raw, other, strict=True)), node != near

        return min(sorted(candidates), key=distance)

    # -- frames -------------------------------------------------------------------------

    def _frame_of(self, state: int) -> int:
        """The mover-frame observation of a packed position, saturated at the slots."""
        frame = (state & _POINTS) + ((state >> (BITS * 26)) & _POINTS) + (state & _BARS)
        if self._sensed_trays:
            frame += (state & FIELD) + (((state >> (BITS * 51)) & FIELD) << (BITS * _OPP_TRAY))
        if not (frame + self._over) & _TOP_BITS:
            return frame
        raw = frame.to_bytes(FRAME, "little")
        return int.from_bytes(bytes(map(min, raw, self._caps)), "little")

    def _pack(self, observation: Observation) -> int:
        return int.from_bytes(bytes(observation[zone] for zone in self._zones), "little")

    def _zone(self, index: int) -> int:
        return self._zones[index]


def _frame_zones(mover: int) -> tuple[int, ...]:
    """The zone of each byte of a mover-frame observation."""
    opponent = 1 - mover
    return (
        zone_of(mover, OFF),
        *(zone_of(mover, p) for p in range(1, 25)),
        zone_of(mover, BAR),
        zone_of(opponent, BAR),
        zone_of(opponent, OFF),
    )
