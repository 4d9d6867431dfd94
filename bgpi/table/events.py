"""What goes into the table (events) and what comes out of it (a :class:`Step`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bgpi.base.faults import FaultSource
from bgpi.base.words import ButtonName, Player, check_colour
from bgpi.journal.records import ELECTRONIC, DiceSource, Record
from bgpi.rules import MatchRules
from bgpi.rules.clock import ClockRules
from bgpi.sensing.board import Observation
from bgpi.sensing.godice import Rest
from bgpi.sensing.settle import DEFAULT_SETTLE
from bgpi.table.hints import Hinted, HintRequest
from bgpi.table.phases import TAKEBACK_WAIT
from bgpi.table.seats import Chosen, Decided, DecisionRequest

if TYPE_CHECKING:
    from bgpi.table.core import Table

LONG_PRESS = 0.8  # seconds a button is held for its second meaning (beaver)


@dataclass(frozen=True, slots=True)
class Seen:
    """A raw observation of the board (checkers per zone) at time ``t``."""

    observation: Observation
    t: float


@dataclass(frozen=True, slots=True)
class Tick:
    """The clock: lets the settle filter pass on an observation that has held still."""

    t: float


@dataclass(frozen=True, slots=True)
class Press:
    """``player``'s ``button`` went down (``pressed``) or up at time ``t``."""

    player: Player
    button: ButtonName
    pressed: bool
    t: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "player", check_colour(self.player, "player"))


@dataclass(frozen=True, slots=True)
class DiceRolled:
    """The dice the shell rolled for ``player`` when a step asked for them, or those a
    person entered on the page while the table waits for them (``source`` says which)."""

    player: Player
    dice: tuple[int, ...]
    t: float
    source: DiceSource = ELECTRONIC

    def __post_init__(self) -> None:
        object.__setattr__(self, "player", check_colour(self.player, "player"))


@dataclass(frozen=True, slots=True)
class DiceDrawing:
    """The dice asked for ``player`` are being drawn with another board: they come later,
    as :class:`DiceRolled`; until then the table decides nothing."""

    player: Player
    count: int
    t: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "player", check_colour(self.player, "player"))


@dataclass(frozen=True, slots=True)
class DieRested:
    """A GoDice die (``die``: 0 or 1, as the pair was paired) said how it moves or rests:
    rolling, or at rest showing ``value`` (:class:`~bgpi.sensing.godice.Rest`). The table
    judges the throw while it waits for one (:mod:`bgpi.table.thrown`)."""

    die: int
    rest: Rest
    value: int
    t: float


@dataclass(frozen=True, slots=True)
class Fault:
    """A backend failed (``message`` says how) or, with ``message`` None, recovered."""

    source: FaultSource
    message: str | None
    t: float


@dataclass(frozen=True, slots=True)
class Outage:
    """What the table keeps of a :class:`Fault` until ``source`` recovers: what it said."""

    source: FaultSource
    message: str


@dataclass(frozen=True, slots=True)
class Silence:
    """A remote board owes a message (its reveal, or its seat's decision) and has said
    nothing past the patience: ``player``, the seat here, may claim the match by forfeit;
    with ``player`` None it spoke again and the offer is gone. The shell measures the
    silence (:mod:`bgpi.remote.board`); the claim itself is its message too
    (:attr:`Step.claim`)."""

    player: Player | None
    t: float


Event = (
    Seen
    | Tick
    | Press
    | DiceRolled
    | DiceDrawing
    | DieRested
    | Fault
    | Silence
    | Decided
    | Chosen
    | Hinted
)


@dataclass(frozen=True, slots=True)
class DiceRequest:
    """Roll ``count`` dice for ``player``: one die in the opening roll, else two."""

    player: Player
    count: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "player", check_colour(self.player, "player"))


@dataclass(frozen=True, slots=True)
class Step:
    """What one event led to: the next table, the records it decided (in order: the shell
    journals them before it shows anything), the dice it wants rolled, the decision it now
    waits for from a seat that is not a person here (:mod:`bgpi.table.seats`), why a
    seat's answer (or a person's ROLL while moving) was refused, and the hint a person here
    asked for (:mod:`bgpi.table.hints`), and the forfeit claim a person here made (the
    shell sends it to the silent board; the match ends once it is settled)."""

    table: Table
    records: tuple[Record, ...] = ()
    dice: DiceRequest | None = None
    request: DecisionRequest | None = None
    refused: str | None = None
    hint: HintRequest | None = None
    claim: Player | None = None


@dataclass(frozen=True, slots=True)
class TableConfig:
    """What the table needs to know of the board and the game."""

    caps: Observation  # slots per zone, from the geometry
    settle: float = DEFAULT_SETTLE
    long_press: float = LONG_PRESS
    # The opponent may accept an illegal play (the rule sheets' rule and the tournament
    # rule); False: the board always demands the correction (for beginners).
    accept_illegal: bool = True
    # What the next match is chosen from (the config's [rules] when the shell built this);
    # None: the last match's rules. The shell rebuilds the table's config between matches,
    # so a config edited mid-match takes effect for the next match only.
    next_match: MatchRules | None = None
    next_clock: ClockRules | None = None  # likewise the clock ([clock]); None: the last match's
    # The players who may ask the engine for a hint at the board.
    hints: frozenset[Player] = frozenset()
    # Seconds the computer waits after a person's play before it rolls, for a takeback.
    takeback_wait: float = TAKEBACK_WAIT
    # A GoDice pair is read at this board: the players may choose it among the dice sources.
    godice: bool = False
    # The club's players ([players] roster): the players choose each side's from it.
    roster: tuple[str, ...] = ()


def chain(first: Step, second: Step) -> Step:
    """``first`` then ``second``: the second's table, both steps' records."""
    return Step(second.table, first.records + second.records, second.dice)


__all__ = ["Chosen", "Decided", "DecisionRequest", "HintRequest", "Hinted"]
