"""``bgpi run --self-play``: simulated hands play both seats on the simulated board.

The service runs as ever (its event loop, journal, dice request, LEDs and watchdog); only
the hands are simulated. After each turn of the loop that leaves its queue empty (the table
has taken every event of the hands' last action: a click's release still queued, they would
click again and the second ROLL would land on the roll the first made), once the table has
settled on what the board shows and no button is down, the hands make one action: set up
the board, press a button (the built-in players of ``bgpi demo`` decide when to double, take
or drop), hold ROLL to start the match the choosing shows (the config's), or make the whole
chosen play on the board and then press ROLL. Dice are seeded and every choice
depends only on the seed and the records so far, so a run killed at any instant and
restarted plays on exactly as an uninterrupted one: tests SIGKILL the service itself and
compare journals, and the same mode is a soak test. It prints each record as it is
journaled.

On a restart the board stands as the journal says (a real board keeps its checkers through
a power cut; the simulated one is set up again from the replayed position).
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from contextlib import ExitStack

from bgpi.base.errors import BgpiError
from bgpi.base.words import BLACK, CUBE, ROLL, WHITE, ButtonName, Player
from bgpi.hal import open_pixels
from bgpi.hal.dice import SeededDice
from bgpi.hal.sim import SimBoard, SimButtons
from bgpi.journal.records import Record
from bgpi.journal.store import Journal
from bgpi.rules import BAR, OFF, Move, Play, Position
from bgpi.sensing.board import observe, zone_of
from bgpi.sensing.tracker import Kind
from bgpi.service.app import Hardware, open_board_buzzer
from bgpi.service.config import Config
from bgpi.service.driver import Driver
from bgpi.service.edge import seen
from bgpi.sim.demo import PipPlayer
from bgpi.sim.simtable import dice_rolled
from bgpi.table import Phase, Table


class SelfPlayError(BgpiError, ValueError):
    """Self-play asked for on a board that is not the simulator."""


def check_simulated(config: Config) -> None:
    """Refuse a config whose board is not the simulator (SelfPlayError)."""
    if config.sensors.backend != "sim" or config.buttons.backend != "sim":
        raise SelfPlayError(
            f"--self-play needs the simulated board, not the {config.sensors.backend} sensors "
            f'and {config.buttons.backend} buttons of {config.source}: backend "sim" (the '
            "default) in [sensors] and [buttons]"
        )


class Hands:
    """Both players' hands on the simulated board of ``bgpi run``."""

    def __init__(
        self,
        seed: int,
        *,
        matches: int | None = None,
        say: Callable[[str], None] = print,
    ) -> None:
        self.seed = seed
        self.matches = matches  # stop once the journal holds this many finished matches
        self.say = say
        self.player = PipPlayer()
        self.board: SimBoard | None = None
        self.buttons: SimButtons | None = None
        self.journal: Journal | None = None
        self.stop: threading.Event | None = None
        self._said = 0
        self._log: list[Record] = []
        self._long_press = 0.0  # the config's, read with the hardware
        self._holding: float | None = None  # since when the hands hold ROLL to start a match

    def hardware(self, config: Config, stack: ExitStack) -> Hardware:
        """The simulated board and buttons (on the wall clock), the configured LEDs, and
        dice seeded afresh for each match (see :meth:`start`)."""
        check_simulated(config)
        self._long_press = config.buttons.long_press_ms / 1000
        self.board = SimBoard(config.geometry, clock=time.monotonic)
        stack.callback(self.board.close)
        self.buttons = SimButtons(clock=time.monotonic)
        stack.callback(self.buttons.close)
        pixels = open_pixels(config.leds.backend, config.ledmap.length)
        stack.callback(pixels.close)
        buzzer = open_board_buzzer(config)  # with [sound] on, the simulator's silent one
        if buzzer is not None:
            stack.callback(buzzer.close)
        return Hardware(self.board, self.buttons, pixels, SeededDice(seed=0), buzzer)

    def start(self, driver: Driver, journal: Journal, stop: threading.Event) -> None:
        """Before the loop: the board as the journal left it, the dice where it stopped."""
        self.journal, self.stop = journal, stop
        self._new_match(driver, resumed=True)
        if driver.table.phase is not Phase.SETUP:
            self._setup(driver.table.position)

    def __call__(self, driver: Driver) -> None:
        """After each turn of the loop: say what was journaled, then act if all is still."""
        board, buttons = self.board, self.buttons
        assert board is not None and buttons is not None
        if driver.log is not self._log:  # the driver keeps a new list for a new match
            self._new_match(driver, resumed=False)
        for record in driver.log[self._said :]:
            self.say(str(record))
        self._said = len(driver.log)
        board.pump()
        if self._let_go():
            return  # the release is still to be taken: the table has not seen it yet
        if board.pending or buttons.down or not self._still(driver):
            return
        self._act(driver, random.Random(f"{self.seed}:{len(driver.log)}"))

    # -- internals ---------------------------------------------------------------------------

    def _new_match(self, driver: Driver, *, resumed: bool) -> None:
        """Dice seeded by the seed and the match's number, resumed after its records."""
        assert self.journal is not None
        number = len(self.journal.matches())
        dice = SeededDice(f"{self.seed}:{number}")
        dice.skip(dice_rolled(driver.log))
        driver.dice = dice
        self._log = driver.log
        self._said = len(driver.log) if resumed else 0

    def _still(self, driver: Driver) -> bool:
        """Whether the table has settled on the board as it stands."""
        assert self.board is not None
        table = driver.table
        on_board = seen(self.board.read(), driver.geometry).observation
        return table.settle.pending == table.settle.settled and table.observation == on_board

    def _act(self, driver: Driver, rng: random.Random) -> None:
        table = driver.table
        phase, match, turn = table.phase, table.match, table.match.turn
        if phase is Phase.SETUP:
            self._setup(table.position)
        elif phase is Phase.OPENING:
            self._click(WHITE if table.opening[WHITE] is None else BLACK, ROLL)
        elif phase is Phase.BEFORE_ROLL and turn is not None:
            doubles = match.may_double(turn) and self.player.doubles(
                table.mover_view_of(turn), match
            )
            self._click(turn, CUBE if doubles else ROLL)
        elif phase is Phase.DOUBLED and turn is not None:
            # A beaver would be a held press: the hands take instead.
            taker = turn.other
            answer = self.player.answer(table.mover_view_of(taker), match, beaver_allowed=False)
            self._click(taker, CUBE if answer == "drop" else ROLL)
        elif phase is Phase.MOVING and turn is not None:
            self._move(table, rng)
        elif phase is Phase.CONFIRM and turn is not None:
            self._confirm(table, rng)
        elif phase is Phase.GAME_OVER:
            self._click(WHITE, ROLL)
        elif phase is Phase.MATCH_OVER:
            self._match_over(driver)
        elif phase is Phase.CHOOSING:
            self._hold(WHITE, ROLL)  # the match as shown: the config's

    def _choice(self, table: Table, rng: random.Random) -> Play:
        return self.player.choose(table.mover_view, table.match, rng)

    def _move(self, table: Table, rng: random.Random) -> None:
        reading, turn = table.reading, table.match.turn
        assert turn is not None
        start = observe(table.mover_view, turn, table.config.caps)
        if reading is not None and reading.kind is Kind.AT_NODE and reading.complete:
            self._click(turn, ROLL)  # the play is on the board (or there is none to make)
        elif table.observation == start:
            for move in self._choice(table, rng).moves:
                self._make(turn, move)
        else:
            self._setup(table.position)  # not where the turn began: put it back

    def _confirm(self, table: Table, rng: random.Random) -> None:
        """The sensors cannot tell which play was made: step to it (the same choice, from
        the same records), and confirm it."""
        tracker, turn = table.tracker, table.match.turn
        assert tracker is not None and turn is not None
        shown = tracker.play(table.candidates[table.candidate]).result
        self._click(turn, ROLL if shown == self._choice(table, rng).result else CUBE)

    def _match_over(self, driver: Driver) -> None:
        assert self.journal is not None and self.stop is not None
        finished = sum(match.finished for match in self.journal.matches())
        if self.matches is not None and finished >= self.matches:
            self.stop.set()
        else:
            self._click(WHITE, ROLL)

    # -- the hands ---------------------------------------------------------------------------

    def _make(self, player: Player, move: Move) -> None:
        board = self.board
        assert board is not None
        if move.hit:
            board.lift(zone_of(player, move.dst), player.other)
            board.place(zone_of(player.other, BAR), player.other)
        board.lift(zone_of(player, move.src), player)
        if move.dst != OFF or board.geometry.tray_slots:
            board.place(zone_of(player, move.dst), player)
        board.pump()

    def _setup(self, position: Position) -> None:
        board = self.board
        assert board is not None
        layout = {}
        for colour, side in ((WHITE, position.player), (BLACK, position.opponent)):
            for index, count in enumerate(side):
                if count and (index != OFF or board.geometry.tray_slots):
                    layout[zone_of(colour, index)] = (colour, count)
        board.setup(layout)
        board.pump()

    def _click(self, player: Player, button: ButtonName) -> None:
        assert self.buttons is not None
        self.buttons.click(player, button)

    def _hold(self, player: Player, button: ButtonName) -> None:
        """Press and keep the button down: :meth:`_let_go` lets it up once it is held."""
        assert self.buttons is not None
        self.buttons.press(player, button)
        self._holding = time.monotonic()

    def _let_go(self) -> bool:
        """Let a held button up, past the long press (with a margin for the loop's delay
        between the press and the table's reading of it); whether it did."""
        buttons = self.buttons
        if self._holding is None or buttons is None:
            return False
        if time.monotonic() - self._holding < self._long_press + 0.2:
            return False
        for player, button in sorted(buttons.down):
            buttons.release(player, button)
        self._holding = None
        return True
