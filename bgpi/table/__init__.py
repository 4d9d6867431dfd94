"""The table: a whole match at a real board, as a pure state machine (:mod:`.core`), its
events and steps (:mod:`.events`), its phases (:mod:`.phases`) and what each button does in
each of them (:mod:`.buttons`)."""

from bgpi.records import Seat
from bgpi.rules import GameResult
from bgpi.table.buttons import ROWS, Hold, Intent, Row, Who, active_rows, rows_of
from bgpi.table.core import Held, Table
from bgpi.table.events import (
    LONG_PRESS,
    DiceRequest,
    DiceRolled,
    Event,
    Fault,
    Press,
    Seen,
    Step,
    TableConfig,
    Tick,
)
from bgpi.table.phases import (
    BeforeRoll,
    Confirm,
    Doubled,
    Ending,
    GameOver,
    Guided,
    MatchOver,
    Moving,
    Opening,
    Phase,
    PhaseState,
    Setup,
)
from bgpi.table.seats import Ask, Chosen, Decided, DecisionRequest, waiting
from bgpi.words import BLACK, WHITE

__all__ = [
    "BLACK",
    "LONG_PRESS",
    "ROWS",
    "WHITE",
    "Ask",
    "BeforeRoll",
    "Chosen",
    "Confirm",
    "Decided",
    "DecisionRequest",
    "DiceRequest",
    "DiceRolled",
    "Doubled",
    "Ending",
    "Event",
    "Fault",
    "GameOver",
    "GameResult",
    "Guided",
    "Held",
    "Hold",
    "Intent",
    "MatchOver",
    "Moving",
    "Opening",
    "Phase",
    "PhaseState",
    "Press",
    "Row",
    "Seat",
    "Seen",
    "Setup",
    "Step",
    "Table",
    "TableConfig",
    "Tick",
    "Who",
    "active_rows",
    "rows_of",
    "waiting",
]
