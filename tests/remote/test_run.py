"""``bgpi run`` plays a remote match: the App on the simulated board, with simulated hands
making its person's decisions and the other board's plays as the LEDs light them, against a
``bgpi demo --remote`` in its own process, over a real mosquitto on a loopback port."""

from __future__ import annotations

import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

import pytest

from bgpi.base.faults import FaultSource
from bgpi.base.words import BLACK, CUBE, ROLL, WHITE, ButtonName, Player
from bgpi.cli import main
from bgpi.hal.dice import SeededDice
from bgpi.hal.sim import SimBoard, SimButtons, SimPixels
from bgpi.journal.export import export_mat
from bgpi.journal.records import (
    Cube,
    CubeAction,
    MatchStarted,
    OpeningDie,
    Played,
    Record,
    ResignAnswered,
    ResignOffered,
    Rolled,
    Seat,
)
from bgpi.journal.store import JOURNAL_NAME, Journal
from bgpi.lights.scene import Meaning
from bgpi.present.leds import scene_of
from bgpi.present.status import status
from bgpi.remote.board import LinkState, RemoteSeat
from bgpi.remote.fairdice import SECRET_BYTES, dice_of
from bgpi.remote.turns import decider
from bgpi.remote.wire import Action, Commit, Intent, Reveal
from bgpi.rules import BAR, OFF, Move, Position, legal_plays
from bgpi.sensing.board import zone_of
from bgpi.service.app import App, Hardware
from bgpi.service.config import Config, parse
from bgpi.service.driver import Driver
from bgpi.table import Guided, Phase, Table
from bgpi.table.board import shows
from bgpi.table.buttons import unseen_lit
from bgpi.web.companion import Companion
from bgpi.web.qr import qr_svg
from tests.remote.boards import CODE, Board, Peer
from tests.remote.conftest import Mosquitto, free_port
from tests.web.webclient import receive_until, socket

GAP = 0.08  # seconds between two things the hands do: longer than the settle filter's
RETRY = 3.0  # seconds before the hands try again what the table has not taken

Step = Callable[[], None]
DIED: WeakKeyDictionary[App, BaseException] = WeakKeyDictionary()  # an app whose loop raised


def remote_config(url: str, length: int) -> Config:
    return parse(
        {
            "remote": {"broker": url, "match": CODE, "side": "white"},
            "rules": {"length": length},
            "sensors": {"settle_ms": 20},
        }
    )


class Hands:
    """The hands at the ``bgpi run`` board, called after each turn of its loop: White's
    person (rolls, takes, plays the first legal play) and whoever makes Black's plays as the
    board lights them. One thing at a time, :data:`GAP` apart."""

    def __init__(self, app: App, board: SimBoard, buttons: SimButtons) -> None:
        self.app, self.board, self.buttons = app, board, buttons
        self.plan: deque[Step] = deque()
        self.due = 0.0
        self.key: tuple[object, ...] | None = None
        self.planned = 0.0
        self.made: tuple[int, int] | None = None  # (records, moves done) of the last move made
        self.waits: set[Phase] = set()  # phases where White's person does not answer yet
        self.played: int | None = None  # the record White's play was made for, by hand

    def __call__(self, driver: Driver, journal: Journal) -> None:
        now = time.monotonic()
        if now < self.due:
            return
        if self.plan:
            self.plan.popleft()()
            self.due = now + GAP
            return
        table = driver.table
        done = table.at.done if isinstance(table.at, Guided) else None
        seen = table.reading is not None and bool(table.reading.complete)  # a whole play shown
        key = (len(driver.log), table.phase, table.candidate, table.position, done, seen)
        if key == self.key and now - self.planned < RETRY:
            return
        self.key, self.planned = key, now
        self.plan.extend(self._steps(driver))

    def _steps(self, driver: Driver) -> list[Step]:
        table = driver.table
        if table.phase is Phase.SETUP:
            return [lambda: self.board.setup(layout(table.position))]
        if table.phase is Phase.GAME_OVER:
            return [self._click(WHITE, ROLL)]
        seat = decider(table)
        if seat == WHITE:
            return self._mine(table, len(driver.log))
        if seat == BLACK and isinstance(table.at, Guided):
            return self._follow(table, len(driver.log))
        return []

    def _follow(self, table: Table, at: int) -> list[Step]:
        """The other board's play, one lit move at a time; a move the switches cannot see is
        made, then White's person says so with ROLL, as the page asks."""
        guided = table.at
        assert isinstance(guided, Guided)
        seen, steps = table.observation, guided.steps[guided.done : guided.done + 2]
        if seen is None:
            return []
        if self._ahead(table, steps):
            self.made = None
            return [lambda: self.board.setup(layout(guided.steps[guided.done]))]
        if guided.next_move and not guided.needs_word and shows(seen, steps[-1], table.config.caps):
            return []  # the lit move is on the board already: the table counts it next
        mark = (at, guided.done)
        if guided.next_move is not None and self.made != mark:
            self.made = mark
            return [self._move(BLACK, guided.next_move)]
        return [self._click(WHITE, ROLL)] if unseen_lit(table) else []

    def _mine(self, table: Table, at: int) -> list[Step]:
        phase, dice = table.phase, table.match.dice
        if phase in self.waits:
            return []
        if phase is Phase.MOVING and dice is not None:
            # ROLL only once the table has seen the whole play settle (a ROLL pressed while
            # the last checker settles is refused, and the hands must not make it twice).
            complete = table.reading is not None and bool(table.reading.complete)
            if self.played == at or complete:
                return [self._click(WHITE, ROLL)] if complete else []
            if self._ahead(table, (table.position,)):
                return [lambda: self.board.setup(layout(table.position))]
            self.played = at
            play = legal_plays(table.mover_view, dice)[0]
            return [self._move(WHITE, move) for move in play.moves]
        if phase in (Phase.OPENING, Phase.BEFORE_ROLL, Phase.DOUBLED, Phase.CONFIRM):
            return [self._click(WHITE, ROLL)]  # roll, never double, take, the play shown
        return [self._click(WHITE, ROLL)] if phase is Phase.RESIGN_OFFERED else []

    def _ahead(self, table: Table, steps: Sequence[Position]) -> bool:
        """Whether the board shows none of ``steps``: moves made before ``bgpi run`` was
        stopped and started again, past what the journal holds. The person puts back what
        the lights show wrong and makes the play again, as the table lights it."""
        seen = table.observation
        return seen is not None and not any(shows(seen, s, table.config.caps) for s in steps)

    def _click(self, player: Player, button: ButtonName) -> Step:
        return lambda: self.buttons.click(player, button)

    def _move(self, player: Player, move: Move) -> Step:
        def step() -> None:
            if move.hit:
                self.board.lift(zone_of(player, move.dst), player.other)
                self.board.place(zone_of(player.other, BAR), player.other)
            self.board.lift(zone_of(player, move.src), player)
            if move.dst != OFF:
                self.board.place(zone_of(player, move.dst), player)

        return step


def layout(position: Position) -> dict[int, tuple[Player, int]]:
    """The checkers of ``position`` (White's view), zone by zone, as the hands set them up."""
    checkers: dict[int, tuple[Player, int]] = {}
    for colour, side in ((WHITE, position.player), (BLACK, position.opponent)):
        for index, count in enumerate(side):
            if count and index != OFF:
                checkers[zone_of(colour, index)] = (colour, count)
    return checkers


class RunBoard:
    """``bgpi run`` on the simulated board, on the wall clock."""

    def __init__(self, config: Config, state: Path, companion: Companion | None = None) -> None:
        self.config, self.state = config, state
        self.board = SimBoard(config.geometry, clock=time.monotonic)
        self.buttons = SimButtons(clock=time.monotonic)
        self.companion = companion
        self.app = self.new_app()

    def new_app(self) -> App:
        """``bgpi run`` started (again) on this board, which stays as the hands left it."""
        self.app = app = App(self.config, self.state, hardware=self.hardware)
        hands = Hands(app, self.board, self.buttons)
        app.observer = hands
        companion = self.companion
        if companion is not None:  # as bgpi run does, with the hands at the board as well
            companion.remote = app.remote_status

            def both(driver: Driver, journal: Journal) -> None:
                hands(driver, journal)
                companion(driver, journal)

            app.observer = both
        return app

    def hardware(self, config: Config, stack: ExitStack) -> Hardware:
        pixels = SimPixels(config.ledmap.length)
        return Hardware(self.board, self.buttons, pixels, SeededDice(1))

    @contextmanager
    def running(self) -> Iterator[App]:
        ready = threading.Event()
        self.app.on_ready = ready.set
        failed: list[BaseException] = []

        def run() -> None:
            try:
                self.app.run()
            except BaseException as exc:  # the test says why the loop died
                failed.append(exc)
                DIED[self.app] = exc
                ready.set()

        thread = threading.Thread(target=run)
        thread.start()
        try:
            assert ready.wait(30) and not failed, failed
            yield self.app
        finally:
            self.app.stop.set()
            thread.join(30)
        assert not failed, failed

    def records(self) -> list[Record]:
        with Journal.open(self.state / JOURNAL_NAME) as journal:
            return journal.records()

    def mat(self) -> str:
        return export_mat(self.records())


def wait_until(app: App, done: Callable[[], bool], what: str, timeout: float, board: Board) -> None:
    end = time.monotonic() + timeout
    while not done():
        alive = board.process is not None and board.process.poll() in (None, 0)
        assert alive, f"{where(app)}\n{board.finish()}"
        assert app not in DIED, f"bgpi run's loop died: {DIED[app]!r} at {where(app)}"
        assert time.monotonic() < end, f"bgpi run has not reached {what}: {where(app)}"
        time.sleep(0.05)


def where(app: App) -> str:
    driver, remote = app.driver, app.remote
    assert driver is not None and remote is not None
    table = driver.table
    state = f"{table.phase.value} at record {len(driver.log)}, {remote.step}, {remote.status()}"
    seen = f"dice {table.match.dice}, reading {table.reading}, board {table.observation}"
    return f"{state}, faults {table.faults}, {seen}, last records {driver.log[-3:]}"


def test_bgpi_run_plays_a_whole_match_against_a_remote_demo(
    mosquitto: Mosquitto, tmp_path: Path
) -> None:
    run = RunBoard(remote_config(mosquitto.url, 1), tmp_path / "white")
    black = Board(mosquitto.url, "black", tmp_path / "black", length=1).start()
    with run.running() as app:
        driver, remote = app.driver, app.remote
        assert driver is not None and isinstance(remote, RemoteSeat)
        assert driver.table.seats == (Seat.PERSON, Seat.REMOTE)
        assert remote.status().code == CODE
        wait_until(
            app, lambda: driver.table.phase is Phase.MATCH_OVER, "the match's end", 90, black
        )
        # The remote side is done: a next match at this board is not the other board's.
        wait_until(app, lambda: remote.status().state is LinkState.OVER, "its end", 10, black)
    rc, out, err = black.finish()
    assert rc == 0, err
    assert "final score" in out
    mat = run.mat()
    assert mat == black.mat()
    records = black.records()
    assert any(isinstance(r, Rolled) and r.player == WHITE for r in records)
    assert any(isinstance(r, Played) and r.player == WHITE for r in records)


def remote_state(message: dict[str, Any], state: LinkState) -> bool:
    remote = message.get("remote")
    return message["type"] == "state" and remote is not None and remote["state"] == state.value


def test_the_page_shows_the_code_and_a_broker_gone_is_a_fault_until_it_is_back(
    mosquitto: Mosquitto, tmp_path: Path
) -> None:
    config = remote_config(mosquitto.url, 1)
    companion = Companion(config, port=0)
    run = RunBoard(config, tmp_path / "white", companion)
    black = Board(mosquitto.url, "black", tmp_path / "black", length=1).start()
    address = companion.start()
    try:
        with run.running() as app, socket(address.port) as ws:
            driver = app.driver
            assert driver is not None
            shown = receive_until(ws, lambda m: m["type"] == "state" and "remote" in m)
            assert shown["remote"]["code"] == CODE and shown["remote"]["side"] == "white"
            assert shown["remote"]["qr"] == qr_svg(CODE)
            wait_until(app, lambda: len(driver.log) >= 12, "record 12", 60, black)
            mosquitto.stop()
            wait_until(
                app,
                lambda: driver.table.down(FaultSource.REMOTE) is not None,
                "the fault",
                30,
                black,
            )
            assert "cannot be reached" in str(driver.table.down(FaultSource.REMOTE))
            receive_until(ws, lambda m: remote_state(m, LinkState.OFFLINE), 30)
            mosquitto.start()
            wait_until(app, lambda: driver.table.phase is Phase.MATCH_OVER, "the end", 120, black)
            assert driver.table.down(FaultSource.REMOTE) is None
    finally:
        companion.close()
    rc, _, err = black.finish()
    assert rc == 0, err
    assert run.mat() == black.mat()


def test_bgpi_run_stopped_mid_match_and_started_again_goes_on(
    mosquitto: Mosquitto, tmp_path: Path
) -> None:
    run = RunBoard(remote_config(mosquitto.url, 1), tmp_path / "white")
    black = Board(mosquitto.url, "black", tmp_path / "black", length=1).start()
    with run.running() as app:
        first = app.driver
        assert first is not None

        def midplay() -> bool:  # stopped while the hands make Black's play, one move made
            at = first.table.at
            return len(first.log) >= 15 and isinstance(at, Guided) and at.done >= 1

        wait_until(app, midplay, "a move of Black's play at record 15 or later", 90, black)
    stopped_at = len(run.records())
    run.new_app()
    with run.running() as app:
        driver = app.driver
        assert driver is not None and len(driver.log) == stopped_at  # the journal replayed
        wait_until(app, lambda: driver.table.phase is Phase.MATCH_OVER, "the end", 120, black)
    rc, _, err = black.finish()
    assert rc == 0, err
    assert run.mat() == black.mat()


def test_bgpi_run_with_a_broker_but_no_match_code_is_a_config_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "bgpi.toml"
    config.write_text('[remote]\nbroker = "mqtt://127.0.0.1:1"\nside = "white"\n')
    code = main(["run", "--config", str(config), "--state-dir", str(tmp_path / "state")])
    err = capsys.readouterr().err
    assert code == 2
    assert err == (
        "bgpi run: [remote] broker is set, but neither a match code nor a club: set [remote]"
        " match (a match against another board) or club (the results published)\n"
    )
    assert not (tmp_path / "state").exists()


def test_bgpi_run_whose_broker_cannot_be_reached_says_so_and_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "bgpi.toml"
    port = free_port()  # nothing listens there
    config.write_text(
        f'[remote]\nbroker = "mqtt://127.0.0.1:{port}"\nmatch = "{CODE}"\nside = "white"\n'
        "[web]\nenabled = false\n"
    )
    code = main(["run", "--config", str(config), "--state-dir", str(tmp_path / "state")])
    lines = capsys.readouterr().err.splitlines()
    assert code == 1
    assert lines[-1].startswith(f"bgpi run: broker mqtt://127.0.0.1:{port}: ")
    assert "Traceback" not in "\n".join(lines)


def test_a_cheat_pauses_bgpi_run_which_shows_why_and_tells_the_other_board(
    mosquitto: Mosquitto, tmp_path: Path
) -> None:
    run = RunBoard(remote_config(mosquitto.url, 1), tmp_path / "white")
    with run.running() as app:
        peer = Peer(mosquitto.url, BLACK, MatchStarted(1))
        try:
            # The hands set up and roll White's opening die: White commits to draw 0.
            peer.until(lambda: any(isinstance(b, Commit) for b in peer.session.theirs), 60)
            peer.session.remember(0, os.urandom(SECRET_BYTES))
            peer.send(peer.session.due()[0])  # my commitment
            peer.send(Reveal(0, os.urandom(SECRET_BYTES).hex()))  # and another secret
            reason = "black's secret for draw 0 does not match its commitment"
            peer.until(lambda: peer.session.paused is not None)
            assert peer.session.paused is not None
            assert peer.session.paused.reason == f"white paused the match: {reason}"
        finally:
            peer.close()
        driver, remote = app.driver, app.remote
        assert driver is not None and remote is not None
        end = time.monotonic() + 10
        while remote.status().state is not LinkState.PAUSED:
            assert time.monotonic() < end, where(app)
            time.sleep(0.05)
        assert remote.status().reason == reason
        assert driver.table.down(FaultSource.REMOTE) == f"match paused: {reason}"
        assert not any(isinstance(r, OpeningDie) for r in driver.log)  # no die was drawn


def soon(app: App, done: Callable[[], bool], what: str, timeout: float = 30) -> None:
    end = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < end, f"bgpi run has not reached {what}: {where(app)}"
        time.sleep(0.02)


def test_bgpi_run_reads_the_board_and_the_buttons_while_the_other_boards_dice_are_awaited(
    mosquitto: Mosquitto, tmp_path: Path
) -> None:
    run = RunBoard(remote_config(mosquitto.url, 1), tmp_path / "white")
    turns: list[int] = []  # the loop's turns, each of which feeds the watchdog
    run.app.on_alive = lambda: turns.append(1)
    with run.running() as app:
        driver = app.driver
        assert driver is not None
        peer = Peer(mosquitto.url, BLACK, MatchStarted(1))  # Black's board, slow with its dice
        try:
            # The hands set up and roll White's opening die: White commits to draw 0.
            peer.until(lambda: any(isinstance(b, Commit) for b in peer.session.theirs), 60)
            soon(app, lambda: driver.table.phase is Phase.ROLLING, "the wait for the dice")
            before = len(turns)
            six = zone_of(WHITE, 6)
            run.board.lift(six, WHITE)  # a checker lifted while the dice are awaited
            soon(app, lambda: driver.table.observation is not None
                 and driver.table.observation[six] == 4, "the lifted checker read")  # fmt: skip
            diff = driver.table.board_diff()
            assert diff is not None and not diff.ok  # lit as a wrong board
            run.board.place(six, WHITE)
            soon(app, lambda: driver.table.board_ok() is True, "the checker put back")
            run.buttons.press(WHITE, CUBE)  # taken at once, and it decides nothing
            soon(app, lambda: any(h.player == WHITE for h in driver.table.held), "the press")
            run.buttons.release(WHITE, CUBE)
            soon(app, lambda: not driver.table.held, "the release")
            assert driver.table.phase is Phase.ROLLING and len(driver.log) == 2
            assert len(turns) > before  # the loop went round, feeding the watchdog
            line = status(driver.table, scene_of(driver.table))
            assert "waiting for its half" in line or "other board is not answering" in line, line
            # Black's board answers at last: its commitment, then its secret.
            peer.session.remember(0, os.urandom(SECRET_BYTES))
            while owed := peer.session.due():
                for body in owed:
                    peer.send(body)
            peer.until(lambda: peer.session.dice(0) is not None)  # White's secret came
            soon(app, lambda: any(isinstance(r, OpeningDie) for r in driver.log), "the die")
            table = driver.table
            assert table.phase is Phase.OPENING
            dice = peer.session.dice(0)
            assert dice is not None and table.opening == (dice[0], None)
        finally:
            peer.close()


def peer_draws(peer: Peer, app: App, draw: int, want: Callable[[tuple[int, int]], bool]) -> None:
    """Black's half of ``draw``, its secret chosen (knowing White's, as only a test may) so
    that the dice are as ``want`` says: the test scripts the game, the protocol is real."""
    peer.until(lambda: any(isinstance(b, Commit) and b.draw == draw for b in peer.session.theirs))
    assert app.remote is not None
    white = app.remote.link.session.secret(draw)
    assert white is not None
    secret = os.urandom(SECRET_BYTES)
    while not want(dice_of(peer.pairing.room, draw, white, secret)):
        secret = os.urandom(SECRET_BYTES)
    peer.session.remember(draw, secret)
    while owed := peer.session.due():  # my commitment, then my secret
        for body in owed:
            peer.send(body)
    peer.until(lambda: peer.session.dice(draw) is not None)  # and White's secret


def opening_31(peer: Peer, app: App) -> None:
    """The opening roll drawn so that White wins it with 3-1 (White's hands play it)."""
    peer_draws(peer, app, 0, lambda dice: dice[0] == 3)  # White's opening die
    peer.send(Intent(3, Action.OPENING))
    peer_draws(peer, app, 1, lambda dice: dice[0] == 1)  # Black's: White plays 31


def sent(peer: Peer, at: int, action: Action) -> Callable[[], bool]:
    return lambda: Intent(at, action) in peer.session.intents(WHITE)


def test_the_other_boards_double_and_resignation_are_prompted_here_and_answered(
    mosquitto: Mosquitto, tmp_path: Path
) -> None:
    run = RunBoard(remote_config(mosquitto.url, 3), tmp_path / "white")
    hands = run.app.observer
    assert isinstance(hands, Hands)
    hands.waits = {Phase.DOUBLED, Phase.RESIGN_OFFERED}  # White's person reads them first
    with run.running() as app:
        driver = app.driver
        assert driver is not None
        peer = Peer(mosquitto.url, BLACK, MatchStarted(3))
        try:
            opening_31(peer, app)
            peer.until(lambda: any(i.at == 5 for i in peer.session.intents(WHITE)), 60)
            peer.send(Intent(6, Action.DOUBLE))
            soon(app, lambda: driver.table.phase is Phase.DOUBLED, "Black's double")
            table = driver.table
            assert driver.log[6] == CubeAction(BLACK, Cube.DOUBLE)
            line = status(table, scene_of(table))
            assert line.startswith("Black doubles: White takes (ROLL)") and "drops (CUBE)" in line
            prompts = scene_of(table).prompts
            assert (WHITE, ROLL, Meaning.TAKE) in prompts and (WHITE, CUBE, Meaning.DROP) in prompts
            hands.waits.discard(Phase.DOUBLED)  # White takes
            peer.until(sent(peer, 7, Action.TAKE))
            peer.send(Intent(8, Action.ROLL))
            peer_draws(peer, app, 2, lambda dice: dice[0] != dice[1])
            soon(app, lambda: len(driver.log) > 8, "Black's roll")
            peer.send(Intent(9, Action.RESIGN, result=1))
            soon(app, lambda: driver.table.phase is Phase.RESIGN_OFFERED, "Black's resignation")
            table = driver.table
            line = status(table, scene_of(table))
            assert line.startswith("Black offers to resign a single (2 points): White accepts")
            prompts = scene_of(table).prompts
            assert (WHITE, ROLL, Meaning.ACCEPT) in prompts
            assert (WHITE, CUBE, Meaning.DECLINE) in prompts
            hands.waits.discard(Phase.RESIGN_OFFERED)  # White accepts
            peer.until(sent(peer, 10, Action.ACCEPT))
            soon(app, lambda: driver.table.match.score == (2, 0), "the game's end")
            assert driver.log[9:11] == [ResignOffered(BLACK, 1), ResignAnswered(WHITE, True)]
        finally:
            peer.close()
