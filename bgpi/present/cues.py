"""What the table sounds like: which records are heard, and the tunes they are heard as.

Sound is optional and off by default (``[sound] enabled``). Four cues: the dice rolled, a
hit (heard when the hit checker reaches the bar), "your turn" (the turn passed to a person
at this board) and a refused move (a mistake newly said while a play is made, or a ROLL
refused; not a hit whose blot is still on its way to the bar), also heard when a GoDice
throw must be made again (a die cocked or moved: the thrower looks at the dice, not at the
LEDs). :func:`step_cues` is pure:
the shell gives it each step of the table and plays what it returns, on the
board's buzzer (:mod:`bgpi.hal.buzzer`) and in the page (``web/static/sound.js``), both from
the one table of tunes here, so the two sound alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Final

from bgpi.journal.records import (
    GameEnded,
    IllegalAccepted,
    OpeningDie,
    Played,
    Record,
    Rethrown,
    Rolled,
    Seat,
)
from bgpi.sensing.mistakes import MistakeKind
from bgpi.table import Guided, Step, Table
from bgpi.table.phases import Moving

# A piezo is loud between about 1 and 4 kHz, and gpiozero's TonalBuzzer plays an octave
# either side of its middle tone: A5 (880 Hz) gives 440-1760 Hz, which every tune keeps to.
MID_HZ: Final = 880.0
LOWEST_HZ: Final = MID_HZ / 2
HIGHEST_HZ: Final = MID_HZ * 2


class Cue(Enum):
    """Something the players hear."""

    DICE = "dice"
    HIT = "hit"
    TURN = "turn"
    REFUSED = "refused"


@dataclass(frozen=True, slots=True)
class Note:
    """``hz`` for ``seconds``; ``hz`` 0 is a rest."""

    hz: float
    seconds: float

    def __post_init__(self) -> None:
        if self.hz and not LOWEST_HZ <= self.hz <= HIGHEST_HZ:
            raise ValueError(f"a note of {self.hz} Hz is outside {LOWEST_HZ}-{HIGHEST_HZ} Hz")
        if not 0 < self.seconds <= 1:
            raise ValueError(f"a note of {self.seconds} s is not between 0 and 1 s long")


Tune = tuple[Note, ...]

TUNES: Final[dict[Cue, Tune]] = {
    # Dice rattling: short clicks at jumping pitches.
    Cue.DICE: (
        Note(1568, 0.03),
        Note(0, 0.03),
        Note(1319, 0.03),
        Note(0, 0.03),
        Note(1661, 0.03),
        Note(0, 0.03),
        Note(1175, 0.05),
    ),
    # A hit: a falling knock.
    Cue.HIT: (Note(1760, 0.06), Note(1175, 0.06), Note(587, 0.14)),
    # Your turn: two rising notes, like a doorbell.
    Cue.TURN: (Note(880, 0.12), Note(0, 0.05), Note(1319, 0.18)),
    # Refused: one low buzz.
    Cue.REFUSED: (Note(440, 0.3),),
}


def tune(cue: Cue) -> Tune:
    """The notes ``cue`` is played as."""
    return TUNES[cue]


def pairs(cue: Cue) -> tuple[tuple[float, float], ...]:
    """``cue``'s notes as ``(hz, seconds)`` pairs, as the buzzer and the page take them."""
    return tuple((note.hz, note.seconds) for note in TUNES[cue])


def step_cues(before: Table, step: Step) -> tuple[Cue, ...]:
    """What one step of the table sounds like: a hit made on the board or a mistake newly
    said, then the step's records."""
    after = step.table
    if after is before and not step.records:  # most ticks and many frames change nothing
        return ()
    hit = (Cue.HIT,) if hits_made(after) > hits_made(before) else ()
    refused = (Cue.REFUSED,) if newly_refused(before, after) else ()
    return hit + refused + cues_of(step.records, after.seats)


def newly_refused(before: Table, after: Table) -> bool:
    """Whether ``after`` says a mistake ``before`` did not: a board that no legal play fits,
    or a ROLL refused with the reason. A hitter on a blot not yet on the bar is a hit being
    made, not a refusal: the hit is heard once the blot is there."""
    mistake = after.mistake
    return (
        mistake is not None
        and mistake != before.mistake
        and mistake.kind is not MistakeKind.HIT_UNDONE
    )


def hits_made(table: Table) -> int:
    """The hits the hands have made so far this turn: in the play the board shows while
    moving, or in the lit moves made of a play chosen elsewhere; 0 between turns."""
    at = table.at
    if isinstance(at, Moving):
        return sum(move.hit for move in at.tracker.node(at.near).moves)
    if isinstance(at, Guided):
        return sum(move.hit for move in at.moves[: at.done])
    return 0


def cues_of(records: Sequence[Record], seats: tuple[Seat, Seat]) -> tuple[Cue, ...]:
    """What a step's ``records`` sound like: a die or the dice rolled, a throw to make again,
    and "your turn" when a play passes the turn to a person at this board (``seats``), unless
    the play won the game. (A play's hits were heard as they were made: see
    :func:`step_cues`.)"""
    heard: list[Cue] = []
    for index, record in enumerate(records):
        if isinstance(record, OpeningDie | Rolled):
            heard.append(Cue.DICE)
        elif isinstance(record, Rethrown):
            heard.append(Cue.REFUSED)
        elif isinstance(record, Played | IllegalAccepted):
            ended = any(isinstance(later, GameEnded) for later in records[index + 1 :])
            if not ended and seats[record.player.other] is Seat.PERSON:
                heard.append(Cue.TURN)
    # The dice of the two opening presses may come in one step: one rattle is enough.
    return tuple(cue for i, cue in enumerate(heard) if i == 0 or cue != heard[i - 1])
