"""The facts of a match, as the table decides them and the journal keeps them.

Every decision of the table (a roll, a play, a cube action, the end of a game) is one record.
The table's state is a pure function of its records: the shell appends each record to the
journal before it shows it, and on start replays them to the same state. The export writes
them as a match file. A record is a small immutable value with a JSON form.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import MISSING, asdict, dataclass, fields
from enum import StrEnum
from typing import Any, ClassVar, Final

from bgpi.base.words import Player, check_colour
from bgpi.rules import MatchRules, Move
from bgpi.rules.clock import NO_CLOCK, ClockRules
from bgpi.rules.result import GameResult


class Kind(StrEnum):
    """Each record's kind, as the journal and the JSON form name it."""

    MATCH = "match"
    GAME = "game"
    DIE = "die"
    OPENING = "opening"
    ROLL = "roll"
    PLAY = "play"
    CUBE = "cube"
    RESIGN = "resign"
    ANSWER = "answer"
    ILLEGAL = "illegal"
    END = "end"
    CLOCK = "clock"
    FLAG = "flag"
    FORFEIT = "forfeit"
    TAKEBACK = "takeback"
    REFUSED = "refused"  # a takeback asked and refused
    RETHROW = "rethrow"


class Cube(StrEnum):
    """A cube action: the player on roll doubles; the other takes, drops or beavers."""

    DOUBLE = "double"
    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"


class Seat(StrEnum):
    """Who plays a side: a person at this board, the engine, or a person at a remote board.
    Whatever the seat, the checkers of this board are moved by the hands at it."""

    PERSON = "person"
    ENGINE = "engine"
    REMOTE = "remote"


PEOPLE: Final = (Seat.PERSON, Seat.PERSON)


class DiceSource(StrEnum):
    """Where a board's dice come from: rolled by the board (the OS CSPRNG, or commit-reveal
    with a remote board), thrown by hand and entered (buttons or the phone), or thrown by
    hand and read from two GoDice (Bluetooth smart dice)."""

    ELECTRONIC = "electronic"
    ENTERED = "entered"
    GODICE = "godice"

    @property
    def physical(self) -> bool:
        """Whether the players throw dice of their own (which a remote board cannot see)."""
        return self is not DiceSource.ELECTRONIC


ELECTRONIC: Final = DiceSource.ELECTRONIC


def _source(value: str) -> DiceSource:
    """A record's dice source (JSON holds its name); ``ValueError`` naming a wrong one."""
    try:
        return DiceSource(value)
    except ValueError:
        raise ValueError(f"no dice source {value!r}: {', '.join(DiceSource)}") from None


@dataclass(frozen=True, slots=True)
class MatchStarted(MatchRules):
    """A new match (or money session) under these rules (``length`` 0 is money), between
    ``names``. The rules' fields are :class:`MatchRules`' own, declared there only, and
    checked as they are: a money option in a match is refused."""

    kind: ClassVar[Kind] = Kind.MATCH
    names: tuple[str, str] = ("White", "Black")
    seats: tuple[Seat, Seat] = PEOPLE  # White's, Black's
    clock: ClockRules = NO_CLOCK  # off: a journal from before the clock reads so
    dice: DiceSource = ELECTRONIC  # a journal from before the choice: the board's dice

    def __post_init__(self) -> None:
        MatchRules.__post_init__(self)
        object.__setattr__(self, "clock", ClockRules.read(self.clock))
        if self.clock.on and not self.length:
            raise ValueError("a clock is for a match, not money play")
        try:
            seats = tuple(Seat(seat) for seat in self.seats)
        except ValueError:
            raise ValueError(f"seats {self.seats!r} are not two of {', '.join(Seat)}") from None
        if len(seats) != 2:
            raise ValueError(f"seats {self.seats!r} are not one per player")
        object.__setattr__(self, "seats", seats)
        object.__setattr__(self, "dice", _source(self.dice))
        if self.dice.physical and Seat.REMOTE in seats:
            # No board can vouch for the dice thrown at the other: commit-reveal only.
            raise ValueError(f"a remote match rolls commit-reveal dice, not {self.dice} dice")

    @classmethod
    def of(
        cls,
        rules: MatchRules,
        names: tuple[str, str],
        seats: tuple[Seat, Seat] = PEOPLE,
        clock: ClockRules = NO_CLOCK,
        dice: DiceSource = ELECTRONIC,
    ) -> MatchStarted:
        values = {f.name: getattr(rules, f.name) for f in fields(MatchRules)}
        return cls(**values, names=names, seats=seats, clock=clock, dice=dice)

    def rules(self) -> MatchRules:
        """The match's rules alone."""
        return MatchRules(**{f.name: getattr(self, f.name) for f in fields(MatchRules)})


@dataclass(frozen=True, slots=True)
class GameStarted:
    """The board is set up and the players may roll for the opening."""

    kind: ClassVar[Kind] = Kind.GAME


@dataclass(frozen=True, slots=True)
class OpeningDie:
    """One player's die of the opening roll, kept as soon as it is rolled (and shown); the
    pair then follows as :class:`OpeningRolled`. Exports skip it."""

    kind: ClassVar[Kind] = Kind.DIE
    player: Player
    die: int
    source: DiceSource = ELECTRONIC

    def __post_init__(self) -> None:
        object.__setattr__(self, "source", _source(self.source))
        _read_player(self)


@dataclass(frozen=True, slots=True)
class OpeningRolled:
    """Each player's die of the opening roll (a tie rolls again)."""

    kind: ClassVar[Kind] = Kind.OPENING
    white: int
    black: int


@dataclass(frozen=True, slots=True)
class Rolled:
    """The player on turn rolled (the dice ``source`` says how; a match file only says
    the dice)."""

    kind: ClassVar[Kind] = Kind.ROLL
    player: Player
    dice: tuple[int, int]
    source: DiceSource = ELECTRONIC

    def __post_init__(self) -> None:
        object.__setattr__(self, "source", _source(self.source))
        _read_player(self)


@dataclass(frozen=True, slots=True)
class Played:
    """The player on turn ended the turn with this play (its moves, mover's numbering)."""

    kind: ClassVar[Kind] = Kind.PLAY
    player: Player
    moves: tuple[tuple[int, int, int, bool], ...]

    def __post_init__(self) -> None:
        _read_player(self)

    @classmethod
    def of(cls, player: Player, moves: tuple[Move, ...]) -> Played:
        return cls(player, tuple((m.src, m.dst, m.die, m.hit) for m in moves))

    def move_values(self) -> tuple[Move, ...]:
        return tuple(Move(*move) for move in self.moves)


@dataclass(frozen=True, slots=True)
class CubeAction:
    """``action`` by ``player`` (a string naming one is read as the :class:`Cube`)."""

    kind: ClassVar[Kind] = Kind.CUBE
    player: Player
    action: Cube

    def __post_init__(self) -> None:
        _read_player(self)
        try:
            action = Cube(self.action)
        except ValueError:
            raise ValueError(f"no cube action {self.action!r}") from None
        object.__setattr__(self, "action", action)


@dataclass(frozen=True, slots=True)
class ResignOffered:
    """``player`` offers to resign the game as ``result`` (1 single, 2 gammon, 3
    backgammon), times the cube; the other accepts or declines."""

    kind: ClassVar[Kind] = Kind.RESIGN
    player: Player
    result: int

    def __post_init__(self) -> None:
        _read_player(self)


@dataclass(frozen=True, slots=True)
class ResignAnswered:
    """``player`` accepted the resignation offered (the game's end follows) or declined it
    (the game goes on where it was)."""

    kind: ClassVar[Kind] = Kind.ANSWER
    player: Player
    accepted: bool

    def __post_init__(self) -> None:
        _read_player(self)


@dataclass(frozen=True, slots=True)
class IllegalAccepted:
    """``player`` ended the turn on a play the rules do not allow, and the opponent accepted
    it: the game goes on from ``position``, the Position ID of the board as the mover left
    it (in the mover's view)."""

    kind: ClassVar[Kind] = Kind.ILLEGAL
    player: Player
    position: str

    def __post_init__(self) -> None:
        _read_player(self)


@dataclass(frozen=True, slots=True)
class GameEnded:
    """A game won by a play that bore off the last checker (``result``), by a drop
    (``result`` 1, the cube's value before the double), or by an accepted resignation
    (``result`` what was offered)."""

    kind: ClassVar[Kind] = Kind.END
    winner: Player
    result: int
    points: int
    dropped: bool = False
    resigned: bool = False

    def __post_init__(self) -> None:
        _read_player(self, "winner")

    @property
    def game_result(self) -> GameResult:
        return GameResult(self.result)


def _read_player(record: object, name: str = "player") -> None:
    """A record's player (or winner) as a :class:`Player`: the journal's JSON holds its
    number."""
    object.__setattr__(record, name, check_colour(getattr(record, name), name))


@dataclass(frozen=True, slots=True)
class Clocked:
    """The clock as the step before it left it, journaled with each step of a clocked
    match: each player's reserve (seconds), whose clock runs (None: stopped) and how long
    it has run on this move. Replayed, the clock resumes from it; exports skip it."""

    kind: ClassVar[Kind] = Kind.CLOCK
    reserve: tuple[float, float]
    running: Player | None
    used: float = 0.0

    def __post_init__(self) -> None:
        if self.running is not None:  # the journal's JSON holds its number, or null
            _read_player(self, "running")


@dataclass(frozen=True, slots=True)
class FlagFell:
    """``player``'s time ran out. With ``overtime`` the player was given the match's
    overtime and plays on; without, the opponent wins the match on time."""

    kind: ClassVar[Kind] = Kind.FLAG
    player: Player
    overtime: bool = False

    def __post_init__(self) -> None:
        _read_player(self)


@dataclass(frozen=True, slots=True)
class Forfeit:
    """``winner`` claimed the match by forfeit: in a remote match, the other board said
    nothing past its patience while it owed its reveal or its seat's decision. The match
    ends here, its games as played (the last one unfinished): a result, as in a tournament."""

    kind: ClassVar[Kind] = Kind.FORFEIT
    winner: Player
    # The last ``late`` records before this one came too late: this board's, sent as the
    # other board's claim crossed them, which that board never had (the claimant's order
    # stands, as a flag's fall). Kept, for the journal erases nothing; the match's files
    # leave them out (:func:`too_late`), so both boards' hold one match.
    late: int = 0

    def __post_init__(self) -> None:
        _read_player(self, "winner")
        if not isinstance(self.late, int) or isinstance(self.late, bool) or self.late < 0:
            raise ValueError(f"a forfeit's late records: {self.late!r}, expected a count")


def too_late(records: Sequence[Record]) -> frozenset[int]:
    """The indices of the records a later :class:`Forfeit` says came too late."""
    late: set[int] = set()
    for index, record in enumerate(records):
        if isinstance(record, Forfeit) and record.late:
            late.update(range(max(0, index - record.late), index))
    return frozenset(late)


@dataclass(frozen=True, slots=True)
class _AskedBack:
    """The answer to ``player``'s takeback of the play just made (``moves``, as its
    :class:`Played` holds them)."""

    player: Player
    moves: tuple[tuple[int, int, int, bool], ...]

    def __post_init__(self) -> None:
        _read_player(self)

    def move_values(self) -> tuple[Move, ...]:
        return tuple(Move(*move) for move in self.moves)


@dataclass(frozen=True, slots=True)
class TakenBack(_AskedBack):
    """``player`` took back the play just made, the opponent agreeing before rolling or
    doubling, in a match off the clock. The play stays in the journal before it; the game
    goes on from the position before it, the same dice to play again. A match file writes
    only the play made after it."""

    kind: ClassVar[Kind] = Kind.TAKEBACK


@dataclass(frozen=True, slots=True)
class TakebackRefused(_AskedBack):
    """``player`` asked to take back the play just made and the opponent refused: the play
    stands for good, not to be asked back again. Journaled because it changes what the
    table allows (a power cut must not give the play back to be asked for) and so a director
    sees the dispute; an ask agreed is the :class:`TakenBack`, one withdrawn changes nothing.
    A match file skips it: the play stood."""

    kind: ClassVar[Kind] = Kind.REFUSED


class Unfit(StrEnum):
    """Why a throw read from GoDice does not count (the rule sheets: a die that lands cocked
    is thrown again, both dice with it)."""

    COCKED = "cocked"  # at rest on an edge (GoDice's tilt-stable)
    MOVED = "moved"  # held still while moved, in a hand (GoDice's move-stable)


@dataclass(frozen=True, slots=True)
class Rethrown:
    """``player``'s throw did not count: die ``die`` (1 or 2, as the dice were paired) came to
    rest ``why`` showing ``value``, so both dice are thrown again. Kept so a director reading
    the journal sees each throw; exports skip it (a match file has only the roll)."""

    kind: ClassVar[Kind] = Kind.RETHROW
    player: Player
    die: int
    why: Unfit
    value: int = 0

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "why", Unfit(self.why))
        except ValueError:
            raise ValueError(f"no rethrow {self.why!r}: {', '.join(Unfit)}") from None
        if self.die not in (1, 2):
            raise ValueError(f"die {self.die!r} is not 1 or 2")
        _read_player(self)


Record = (
    MatchStarted
    | GameStarted
    | OpeningDie
    | OpeningRolled
    | Rolled
    | Played
    | CubeAction
    | ResignOffered
    | ResignAnswered
    | IllegalAccepted
    | GameEnded
    | Clocked
    | FlagFell
    | Forfeit
    | TakenBack
    | TakebackRefused
    | Rethrown
)

_KINDS: dict[Kind, type[Any]] = {
    cls.kind: cls
    for cls in (
        MatchStarted,
        GameStarted,
        OpeningDie,
        OpeningRolled,
        Rolled,
        Played,
        CubeAction,
        ResignOffered,
        ResignAnswered,
        IllegalAccepted,
        GameEnded,
        Clocked,
        FlagFell,
        Forfeit,
        TakenBack,
        TakebackRefused,
        Rethrown,
    )
}


def to_json(record: Record) -> str:
    return json.dumps({"kind": record.kind, **asdict(record)}, separators=(",", ":"))


def from_json(text: str) -> Record:
    """Read a record back; ``ValueError`` naming what is wrong with it."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"record {text[:60]!r} is not JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("kind") not in set(Kind):
        raise ValueError(f"record {text[:60]!r} has no known kind")
    cls = _KINDS[Kind(data.pop("kind"))]
    names = {f.name for f in fields(cls)}
    # A field added since the record was written (a match's seats) takes its default.
    required = {f.name for f in fields(cls) if f.default is MISSING}
    if not required <= set(data) <= names:
        raise ValueError(
            f"record {text[:60]!r} has fields {sorted(data)}, expected {sorted(names)}"
        )
    values = {k: _tuples(v) for k, v in data.items()}
    try:
        record: Record = cls(**values)
    except ValueError as exc:
        raise ValueError(f"record {text[:60]!r}: {exc}") from None
    return record


def _tuples(value: Any) -> Any:
    """JSON has lists; records hold tuples."""
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value
