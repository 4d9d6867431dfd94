"""One ``gnubg -t`` process, driven over its standard input and output.

Started on demand, asked one question at a time, stopped and started again when it dies,
takes longer than its time limit or answers garbage (in the way picochess keeps its UCI
engine). A thread reads gnubg's output into a queue, so that waiting for an answer has a
deadline; the output is read as bytes in lines of bounded length and decoded leniently, so
a byte that is not UTF-8 makes a bad answer, never a dead reader. Every wait on the process
(its start, each answer, its end) is bounded by the time limit: nothing waits forever on a
broken gnubg.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import queue
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import Final

from bgpi.engine.api import EngineAnswerError, EngineError, EngineMissingError, EngineTimeoutError
from bgpi.engine.helper import MARK, SOURCE

log = logging.getLogger(__name__)

GNUBG: Final = "/usr/games/gnubg"
CHOSEN: Final = "BGPI_GNUBG"  # an environment variable naming another gnubg to run
INSTALL: Final = "install it with `sudo apt-get install gnubg`"
_PIECE: Final = 400
_LINE: Final = 1 << 20  # longest line read at once: a match's analysis is some 20 KB
# How long a process whose output closed may take to exit before it is called still running.
_GRACE: Final = 1.0
# Set once per process: no question on the terminal gnubg does not have.
_SETUP: Final = ("set confirm new off", "set player 0 human", "set player 1 human")


def find_gnubg(program: str | None = None) -> str:
    """The gnubg program to run: ``program``, else the one ``$BGPI_GNUBG`` names, else
    Debian's, else one on the PATH; raise :class:`EngineMissingError` saying how to install
    it."""
    program = program or os.environ.get(CHOSEN) or None
    for candidate in (program,) if program else (GNUBG, "gnubg"):
        found = shutil.which(candidate)
        if found:
            return found
    raise EngineMissingError(f"GNU Backgammon is not installed (no {program or GNUBG}): {INSTALL}")


class GnubgProcess:
    """A gnubg process that answers calls of the functions in :mod:`bgpi.engine.helper`.

    ``say`` is told, in one line, whenever the process is restarted, so the board can show it.
    """

    def __init__(
        self,
        program: str | None = None,
        *,
        timeout: float = 60.0,
        say: Callable[[str], None] = log.warning,
    ) -> None:
        self.program = program
        self.timeout = timeout
        self.say = say
        self.starts = 0
        self._proc: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._home: tempfile.TemporaryDirectory[str] | None = None
        self._seq = 0
        self._lock = threading.Lock()
        self._closed = False

    @property
    def home(self) -> Path:
        """gnubg's home directory while it runs (its settings, files handed to it)."""
        if self._home is None:
            self._home = tempfile.TemporaryDirectory(prefix="bgpi-gnubg-")
        return Path(self._home.name)

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None and self._proc.poll() is None else None

    def call(self, name: str, *arguments: object, timeout: float | None = None) -> object:
        """The answer of helper function ``name``, within ``timeout`` (default: the time
        limit). A process found dead, or whose output ends, is killed, started again and the
        call made once more; one that answers garbage or nothing in time is killed (and
        started again at the next call). Raise :class:`EngineError` when there is no answer."""
        with self._lock:
            for attempt in range(2):
                if self._closed:
                    raise EngineError(f"gnubg was stopped before answering {name}")
                try:
                    self._ensure_started()
                    return self._ask(name, arguments, timeout or self.timeout)
                except _DiedError as exc:
                    self._stop()
                    if attempt or self._closed:
                        raise EngineError(f"gnubg stopped while answering {name}: {exc}") from None
                    self.say(f"gnubg stopped ({exc}); starting it again")
            raise AssertionError("unreachable")

    def kill(self) -> None:
        """Kill the process now, as a crash would (for tests and the time limit)."""
        if self._proc is not None:
            self._end(self._proc)

    def close(self) -> None:
        """Stop gnubg and remove its home directory; idempotent. A question being answered
        on another thread ends at once (with :class:`EngineError`), not at its time limit."""
        self._closed = True
        self.kill()
        with self._lock:
            self._stop()
            if self._home is not None:
                self._home.cleanup()
                self._home = None

    def _ensure_started(self) -> None:
        if self._proc is not None:
            status = self._proc.poll()
            if status is None:
                return
            self._stop()
            self.say(f"gnubg stopped (exit status {status}); starting it again")
        program = find_gnubg(self.program)
        env = dict(os.environ, HOME=str(self.home), LANG="C", LC_ALL="C")
        try:
            # In a session of its own, so that killing it kills anything it started, which
            # would otherwise hold its output open.
            self._proc = subprocess.Popen(
                [program, "-t", "-q", "-r"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                env=env,
                cwd=self.home,
                start_new_session=True,
            )
        except OSError as exc:
            raise EngineMissingError(f"cannot start {program}: {exc.strerror}; {INSTALL}") from None
        self.starts += 1
        self._lines = queue.Queue()
        threading.Thread(
            target=_read, args=(self._proc, self._lines), name="gnubg-output", daemon=True
        ).start()
        for command in _SETUP:
            self._send(command)
        # gnubg reads a command line in pieces of limited length: the source goes in parts.
        source = base64.b64encode(SOURCE.encode()).decode()
        self._send('>_bgpi_source = ""')
        for start in range(0, len(source), _PIECE):
            self._send(f'>_bgpi_source += "{source[start : start + _PIECE]}"')
        self._send(">import base64; exec(base64.b64decode(_bgpi_source).decode())")
        self._ask("probe", (), self.timeout)

    def _send(self, line: str) -> None:
        proc = self._proc  # close() on another thread may stop the process meanwhile
        if proc is None or proc.stdin is None:
            raise _DiedError("it was stopped")
        try:
            proc.stdin.write(line.encode() + b"\n")
            proc.stdin.flush()
        except (OSError, ValueError) as exc:  # a broken pipe, or a pipe close() has closed
            raise _DiedError(f"its input closed ({exc})") from None

    def _ask(self, name: str, arguments: tuple[object, ...], timeout: float) -> object:
        self._seq += 1
        seq = self._seq
        # gnubg's command reader mangles backslashes and quotes: base64 passes unharmed.
        encoded = base64.b64encode(json.dumps(arguments).encode()).decode()
        self._send(f'>_bgpi({seq}, "{name}", "{encoded}")')
        prefix = f"{MARK} {seq} "
        deadline = time.monotonic() + timeout  # one deadline, however much else gnubg says
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self._lines.get(timeout=left)
            except queue.Empty:
                break
            if line is None:
                raise _DiedError(self._ended())
            at = line.find(prefix)
            if at >= 0:
                try:
                    return _answer(name, line[at + len(prefix) :])
                except _BadAnswerError:
                    self._stop()  # what else it would say cannot be trusted either
                    self.say(f"gnubg gave a bad answer to {name}; it is restarted")
                    raise
        self._stop()
        self.say(f"gnubg gave no answer in {timeout:g} s; it is restarted")
        raise EngineTimeoutError(
            f"gnubg gave no answer to {name} in {timeout:g} s; it was stopped and "
            "starts again at the next question"
        )

    def _ended(self) -> str:
        """Why the output ended: the exit status, or that it still runs (it is then killed
        by :meth:`call`)."""
        proc = self._proc
        if proc is None:
            return "it was stopped"
        try:
            return f"exit status {proc.wait(_GRACE)}"
        except subprocess.TimeoutExpired:
            return "it closed its output but still runs"

    def _stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        self._end(proc)
        if proc.stdin is not None:
            # Closing flushes what is still buffered into a pipe whose reader is gone. The
            # output is the reader thread's to close.
            with suppress(OSError):
                proc.stdin.close()

    def _end(self, proc: subprocess.Popen[bytes]) -> None:
        """Kill ``proc`` and all it started, and wait for it, at most the time limit."""
        if proc.poll() is None:
            with suppress(OSError):  # ended meanwhile
                os.killpg(proc.pid, signal.SIGKILL)
        try:
            proc.wait(self.timeout)
        except subprocess.TimeoutExpired:
            self.say(f"gnubg (process {proc.pid}) did not end when killed; it is left behind")


class _DiedError(EngineError):
    """The process ended (or closed its output) before answering."""


class _BadAnswerError(EngineAnswerError):
    """A line marked as the answer that is not one (not UTF-8, not JSON, not an answer)."""


def _read(proc: subprocess.Popen[bytes], lines: queue.Queue[str | None]) -> None:
    """Put each line of ``proc``'s output into ``lines`` (None at its end), decoded so that a
    byte which is not UTF-8 reads as U+FFFD; close the output at its end."""
    stdout = proc.stdout
    assert stdout is not None
    try:
        while raw := stdout.readline(_LINE):
            lines.put(raw.decode("utf-8", errors="replace").rstrip("\r\n"))
    except (OSError, ValueError):  # closed under us: the process is gone
        pass
    finally:
        with suppress(OSError):
            stdout.close()
        lines.put(None)


def _answer(name: str, text: str) -> object:
    """The value in gnubg's answer ``text``; raise :class:`_BadAnswerError` if it is not an
    answer, :class:`EngineAnswerError` if gnubg says it could not answer."""
    if "\ufffd" in text:  # the helper writes ASCII only (JSON's escapes)
        raise _BadAnswerError(f"gnubg's answer to {name} is not UTF-8: {text[:80]!r}")
    try:
        answer = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise _BadAnswerError(f"gnubg's answer to {name} is not JSON: {text[:80]!r}") from None
    if not isinstance(answer, dict) or not ("ok" in answer or "error" in answer):
        raise _BadAnswerError(f"gnubg's answer to {name} is not an answer: {text[:80]!r}")
    if "error" in answer:
        raise EngineAnswerError(f"gnubg could not answer {name}: {answer['error']}")
    return answer["ok"]
