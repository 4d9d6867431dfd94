"""The move tracker: from settled observations of the board to legal plays.

Once per roll it builds the tree of legal partial plays and indexes every state by the
observation it gives: when an answer first needs them, or when the caller has idle time
(:meth:`TurnTracker.prepare`), since the first observation after a roll is nearly always the
untouched start, which is answered without them. Each settled observation is then answered
from that index:

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

from bgpi.base.words import Player
from bgpi.rules import packed
from bgpi.rules.dice import Roll, dice_to_move
from bgpi.rules.packed import BITS, FIELD, ONE, OPP_BAR
from bgpi.rules.plays import Play, apply_move, legal_plays
from bgpi.rules.position import BAR, OFF, Position
from bgpi.rules.tree import PartialPlay, PlayTree, partial_plays
from bgpi.sensing.board import BoardDiff, Observation, board_diff, zone_of

FRAME: Final = 28  # bytes of a mover-frame observation
_POINTS: Final = packed.mask(1, 24)
_BARS: Final = packed.mask(BAR, OPP_BAR)
_MOVER_ZONES: Final = packed.mask(1, BAR)  # the mover's points and bar
_OPP_POINTS: Final = BITS * packed.OPP_BASE  # the opponent on the mover's points, shifted down
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


@dataclass(frozen=True, slots=True)
class _Lookup:
    """The tree indexed for answers: each node's packed state and frame, the nodes of each
    frame, each (state, dice left) and each complete play's result to its node."""

    states: tuple[int, ...]
    frames: list[int]
    by_frame: dict[int, list[int]]
    keys: dict[tuple[int, tuple[int, ...]], int]
    ends: dict[int, int]


@dataclass(frozen=True, slots=True)
class _Flight:
    """One explanation of a board in flight: from ``node``, checkers lifted from ``lifted``
    (zones; a blot put on the bar counts there too), which may land on ``destinations``;
    ``hands``: how many checkers are in the hands."""

    node: int
    lifted: tuple[int, ...]
    destinations: frozenset[int]
    hands: int


class TurnTracker:
    """Everything the tracker knows about one turn, prepared once per roll."""

    def __init__(self, start: Position, roll: Roll, mover: Player, caps: Sequence[int]) -> None:
        self.start, self.roll, self.mover = start, roll, mover
        self.caps: Observation = tuple(caps)  # slots per zone, indexed like an observation
        self._zones = _frame_zones(mover)
        self._caps = bytes(caps[zone] for zone in self._zones)
        # Adding 127 - cap to each byte sets its top bit exactly where a count passes its cap
        # (counts never exceed 15, so no byte carries into the next): one test for all zones.
        self._over = int.from_bytes(bytes(127 - cap for cap in self._caps), "little")
        self._cap_frame = int.from_bytes(self._caps, "little")
        self._sensed_trays = self._caps[OFF] > 0 or self._caps[_OPP_TRAY] > 0
        # The tree and its index wait until an answer needs them: the first observation after
        # the roll is almost always the untouched start, answered from these alone, so the
        # dice light up at once and the tree is built while the hand reaches for a checker.
        self._root = packed.pack(start)
        self._root_frame = self._frame_of(self._root)
        # Whether no zone the mover has checkers on holds more than its slots (see _at_root).
        self._root_alone = not ((self._root & _MOVER_ZONES) + self._over) & _TOP_BITS
        self._dests: dict[tuple[int, int], frozenset[int]] = {}

    def prepare(self) -> None:
        """Build the tree and its index now (each answer builds them when it first needs them):
        for a caller with idle time between the roll and the first move."""
        self._lookup  # noqa: B018 (built on first access)

    @cached_property
    def tree(self) -> PlayTree:
        """Every legal partial play of the roll, built on first use."""
        return partial_plays(self.start, self.roll)

    @cached_property
    def _lookup(self) -> _Lookup:
        tree = self.tree
        states = tree.states
        ending = len(tree.lefts[0]) - tree.most  # the dice left where a legal play ends
        frames = [self._frame_of(state) for state in states] if self._sensed_trays else []
        if not frames:  # _frame_of without the trays, inlined: thousands of states a roll
            over, top, caps = self._over, _TOP_BITS, self._cap_frame
            for state in states:
                frame = (state & _POINTS) + ((state >> _OPP_POINTS) & _POINTS) + (state & _BARS)
                saturated = (frame + over) & top
                if saturated:
                    full = (saturated >> 7) * FIELD
                    frame += (caps & full) - (frame & full)
                frames.append(frame)
        by_frame: dict[int, list[int]] = {}
        for i, frame in enumerate(frames):
            by_frame.setdefault(frame, []).append(i)
        return _Lookup(
            states=states,
            frames=frames,
            by_frame=by_frame,
            keys={key: i for i, key in enumerate(zip(states, tree.lefts, strict=True))},
            ends={state: i for i, state in enumerate(states) if len(tree.lefts[i]) == ending},
        )

    # -- answers -----------------------------------------------------------------------

    def read(self, observation: Observation, near: int | None = None) -> Reading:
        """Answer a settled observation. ``near``: the node the board last showed, which the
        wrong-board guidance prefers as the state to return to."""
        frame = self._pack(observation)
        if frame == self._root_frame and self._root_alone and "_lookup" not in self.__dict__:
            return self._at_root()
        nodes = self._lookup.by_frame.get(frame)
        if nodes:
            return Reading(
                Kind.AT_NODE,
                tuple(nodes),
                complete=tuple(i for i in nodes if self.tree.is_complete(i)),
                destinations=self._landing(frame, nodes, near),
            )
        flights = list(self._flights(frame))
        if flights:
            # One checker in hand explains the board better than two: after a bear-off the
            # sensors cannot see, "the next checker lifted" also reads as "the checker borne
            # off and the next both in hand", whose destinations are the old ones.
            hands = min(flight.hands for flight in flights)
            flights = [flight for flight in flights if flight.hands == hands]
            # "8/7, then the checker on 7 lifted" looks like "the checker on 8 lifted": every
            # explanation adds destinations, the one with the fewest moves names the source.
            fewest = min(self.tree.depth(flight.node) for flight in flights)
            first = [f for f in flights if self.tree.depth(f.node) == fewest]
            return Reading(
                Kind.IN_FLIGHT,
                tuple(dict.fromkeys(flight.node for flight in first + flights)),
                lifted=frozenset(z for flight in first for z in flight.lifted),
                destinations=frozenset(z for flight in flights for z in flight.destinations),
            )
        nearest = self._nearest(frame, near)
        return Reading(Kind.WRONG, (nearest,), diff=board_diff(observation, self.expected(nearest)))

    def expected(self, node: int) -> Observation:
        """The observation of ``node``, in zones."""
        raw = self._lookup.frames[node].to_bytes(FRAME, "little")
        counts = [0] * (max(self._zones) + 1)
        for index, zone in enumerate(self._zones):
            counts[zone] = raw[index]
        return tuple(counts)

    def play(self, node: int) -> Play:
        """The play that ends at ``node`` (one order of its moves)."""
        partial = self.node(node)
        return Play(partial.moves, partial.result)

    def node(self, index: int) -> PartialPlay:
        """The partial play at node ``index``; the start (0) is known before the tree is built,
        so showing the dice does not wait for it."""
        if index == 0 and "tree" not in self.__dict__:
            return self._start_node
        return self.tree.node(index)

    def ends_at(self, result: Position) -> int | None:
        """The node where the legal play leaving ``result`` ends, or None if no legal play of
        the roll leaves it: checks a committed play without generating the plays again."""
        return self._lookup.ends.get(packed.pack(result))

    def is_legal(self, play: Play) -> bool:
        """Whether ``play``'s moves can be played one by one from the start and leave what a
        legal play of the roll leaves: the check ``legal_plays`` gave, from the index once
        the tree is built (as it is by the time a play is made on the board)."""
        position = self.start
        try:
            for move in play.moves:
                position = apply_move(position, move)
        except ValueError:
            return False
        if position != play.result:
            return False
        if "_lookup" in self.__dict__:
            return self.ends_at(position) is not None
        # No answer has needed the tree yet (a journal being replayed): the generator finds
        # the results sooner than the tree is built.
        return position in {legal.result for legal in legal_plays(self.start, self.roll)}

    @cached_property
    def _start_node(self) -> PartialPlay:
        left = tuple(sorted(dice_to_move(self.roll), reverse=True))
        return PartialPlay((), self._root, left, complete=not self._can_move())

    def _can_move(self) -> bool:
        """Whether any die of the roll can be played at the start (else the play is empty)."""
        return any(
            packed.step(self._root, src, die) is not None
            for die in set(self.roll)
            for src in packed.sources(self._root)
        )

    def _at_root(self) -> Reading:
        """The reading of the untouched start, when no zone the mover has checkers on holds
        more than its slots: then no other state looks the same, nor the same plus a checker
        in hand, so the tree is not needed. For every move empties some of its source for
        good, and the highest source a state has moved from shows fewer checkers than at the
        start, its count there being below the slots."""
        return Reading(Kind.AT_NODE, (0,), complete=(0,) if self._start_node.complete else ())

    @cached_property
    def root_destinations(self) -> dict[int, frozenset[int]]:
        """For each zone the mover may lift a checker from at the start, where it may go."""
        return {
            self._zone(src): frozenset(self._zone(d) for d in self._destinations(0, src))
            for src in packed.sources(self._root)
            if self._destinations(0, src)
        }

    # -- in flight ----------------------------------------------------------------------

    def _flights(self, frame: int) -> Iterator[_Flight]:
        """Every way ``frame`` is a legal state with checkers in hand: one or two lifted, a
        hitter placed on the blot before the blot is lifted, or the blot put on the bar
        before the hitter moves."""
        raw = frame.to_bytes(FRAME, "little")
        patterns: list[tuple[tuple[int, ...], tuple[int, ...], int]]
        patterns = [(lifted, (), offset) for lifted, offset in _LIFTS]
        for y in range(1, 25):
            if raw[y] >= 2:  # a hitter put on the blot before the blot is lifted
                patterns += [((x,), (y,), ONE[x] - ONE[y]) for x in range(1, BAR + 1) if x != y]
        if raw[OPP_BAR]:  # the blot put on the bar before (or while) the hitter moves
            patterns += [(lifted, (OPP_BAR,), offset - ONE[OPP_BAR]) for lifted, offset in _LIFTS]
        for lifted, placed, offset in patterns:
            for node in self._lookup.by_frame.get(frame + offset, ()):
                destinations = self._explain(node, lifted, placed)
                if destinations is not None:
                    zones = tuple(self._zone(z) for z in lifted)
                    # A blot put on the bar is in no hand; a hitter on an unlifted blot
                    # counts as the hand about to lift the blot.
                    hands = len(lifted) - (placed == (OPP_BAR,))
                    yield _Flight(node, zones, destinations, hands)

    def _explain(
        self, node: int, lifted: tuple[int, ...], placed: tuple[int, ...]
    ) -> frozenset[int] | None:
        """The destinations if hands moving from ``node`` can leave checkers lifted from
        ``lifted`` (and put on ``placed``), else None."""
        state = self._lookup.states[node]
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

    def _landing(self, frame: int, nodes: Sequence[int], near: int | None) -> frozenset[int]:
        """Where a checker the sensors cannot see lifted may go, at a node: from a point
        fuller than its switches (lifting one leaves them all closed), and, with no tray
        switches, the checker just borne off from the node the board showed last (``near``;
        None: any), which may still be in the hand (bearing off looks the same as holding
        it). So the destinations of a checker borne off before are not lit again."""
        found: set[int] = set()
        for node in nodes:
            state = self._lookup.states[node]
            for src in packed.sources(state):
                if packed.count(state, src) > self._caps[src]:
                    found |= {self._zone(d) for d in self._destinations(node, src)}
        if self._sensed_trays:
            return frozenset(found)
        for z in range(1, BAR + 1):
            for parent in self._lookup.by_frame.get(frame + ONE[z], ()):
                if near is not None and parent != near:
                    continue
                if any(
                    (move.src, move.dst) == (z, OFF) and child in nodes
                    for move, child in self.tree.children[parent]
                ):
                    found |= {self._zone(d) for d in self._destinations(parent, z)}
        return frozenset(found)

    def _destinations(self, node: int, src: int) -> frozenset[int]:
        """Where the mover's checker on ``src`` may go from ``node`` through the dice still to
        play, each step staying in the tree (a prefix of a legal play): 0 = off."""
        key = (node, src)
        found = self._dests.get(key)
        if found is None:
            collected: set[int] = set()
            state = self._lookup.states[node]
            if packed.count(state, src):
                self._follow(state, self.tree.lefts[node], src, collected)
            found = self._dests[key] = frozenset(collected)
        return found

    def _hittable(self, node: int, point: int) -> bool:
        """Whether an opposing blot on the mover's ``point`` is hit by some legal way on."""
        state = self._lookup.states[node]
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
            if (after, rest) in self._lookup.keys:
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
            other = self._lookup.frames[node].to_bytes(FRAME, "little")
            return sum(abs(a - b) for a, b in zip(raw, other, strict=True)), node != near

        return min(sorted(candidates), key=distance)

    # -- frames -------------------------------------------------------------------------

    def _frame_of(self, state: int) -> int:
        """The mover-frame observation of a packed position, saturated at the slots."""
        frame = (state & _POINTS) + ((state >> _OPP_POINTS) & _POINTS) + (state & _BARS)
        if self._sensed_trays:
            frame += (state & FIELD) + (((state >> (BITS * 51)) & FIELD) << (BITS * _OPP_TRAY))
        over = (frame + self._over) & _TOP_BITS
        if not over:
            return frame
        # Each byte over its cap becomes the cap: its top bit, spread to the whole byte.
        full = (over >> 7) * FIELD
        return frame - (frame & full) + (self._cap_frame & full)

    def _pack(self, observation: Observation) -> int:
        return int.from_bytes(bytes(observation[zone] for zone in self._zones), "little")

    def _zone(self, index: int) -> int:
        return self._zones[index]


def _frame_zones(mover: Player) -> tuple[int, ...]:
    """The zone of each byte of a mover-frame observation."""
    opponent = mover.other
    return (
        zone_of(mover, OFF),
        *(zone_of(mover, p) for p in range(1, 25)),
        zone_of(mover, BAR),
        zone_of(opponent, BAR),
        zone_of(opponent, OFF),
    )
