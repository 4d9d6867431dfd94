"""Telling systemd how the service is doing: the ``sd_notify`` protocol, spoken directly.

``bgpi.service`` is ``Type=notify`` with a watchdog. systemd passes the address of its notify
socket in ``$NOTIFY_SOCKET`` and the watchdog's interval in ``$WATCHDOG_USEC``; the service
sends newline-separated ``KEY=value`` datagrams to that socket: ``READY=1`` once the table is
up, ``WATCHDOG=1`` while its event loop turns, ``STOPPING=1`` when it shuts down, ``STATUS=``
for ``systemctl status``.

The protocol is a stable interface of systemd (sd_notify(3) documents it for
reimplementation), and a few lines of :mod:`socket` speak it, so bgpi needs neither the
C-extension ``systemd-python`` (which needs libsystemd's headers to build) nor another
package to install on the Pi. Outside systemd, ``$NOTIFY_SOCKET`` is unset and every method
does nothing.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Mapping
from typing import Final

from bgpi.base.errors import BgpiError
from bgpi.hal.api import Clock

log = logging.getLogger(__name__)

NOTIFY_SOCKET: Final = "NOTIFY_SOCKET"
WATCHDOG_USEC: Final = "WATCHDOG_USEC"
WATCHDOG_PID: Final = "WATCHDOG_PID"


class NotifyError(BgpiError, ValueError):
    """A ``$NOTIFY_SOCKET`` or ``$WATCHDOG_USEC`` that cannot be used: names the variable."""


def socket_address(value: str) -> str | bytes:
    """The address that ``$NOTIFY_SOCKET`` names: a filesystem path, or ``@name`` for a socket
    in the abstract namespace (a leading NUL byte on the wire)."""
    if value.startswith("/"):
        return value
    if value.startswith("@") and len(value) > 1:
        return b"\0" + value[1:].encode()
    raise NotifyError(f"{NOTIFY_SOCKET}={value!r} is neither an absolute path nor @name")


def watchdog_interval(environ: Mapping[str, str], pid: int) -> float | None:
    """The watchdog's timeout in seconds from ``$WATCHDOG_USEC``, or ``None`` when there is no
    watchdog for this process (unset, or ``$WATCHDOG_PID`` names another process)."""
    usec = environ.get(WATCHDOG_USEC, "")
    if not usec:
        return None
    owner = environ.get(WATCHDOG_PID, "")
    if owner and owner != str(pid):
        return None
    try:
        seconds = int(usec) / 1_000_000
    except ValueError:
        raise NotifyError(f"{WATCHDOG_USEC}={usec!r} is not a number of microseconds") from None
    if seconds <= 0:
        raise NotifyError(f"{WATCHDOG_USEC}={usec!r} is not a positive number of microseconds")
    return seconds


class Notifier:
    """Sends notifications to one socket; a notifier with no address does nothing.

    ``watchdog``: the watchdog's timeout in seconds, or ``None``. :meth:`alive` may be called
    as often as the caller likes: it sends ``WATCHDOG=1`` at most once per half the timeout,
    the margin systemd recommends, so a loop that turns every few milliseconds costs one
    datagram a few seconds. ``clock`` times that.
    """

    def __init__(
        self,
        address: str | bytes | None,
        *,
        watchdog: float | None = None,
        clock: Clock = time.monotonic,
    ) -> None:
        if watchdog is not None and not watchdog > 0:
            raise ValueError(f"the watchdog timeout must be positive, got {watchdog!r}")
        self.address = address
        self.watchdog = watchdog
        self._clock = clock
        self._fed: float | None = None
        self._socket: socket.socket | None = None
        self._failed = False

    @classmethod
    def from_environment(
        cls, environ: Mapping[str, str] | None = None, *, clock: Clock = time.monotonic
    ) -> Notifier:
        """The notifier systemd asked for through the environment (``os.environ`` unless
        given); one that does nothing when ``$NOTIFY_SOCKET`` is unset."""
        env = os.environ if environ is None else environ
        value = env.get(NOTIFY_SOCKET, "")
        if not value:
            return cls(None, clock=clock)
        return cls(socket_address(value), watchdog=watchdog_interval(env, os.getpid()), clock=clock)

    @property
    def enabled(self) -> bool:
        """Whether there is a socket to notify."""
        return self.address is not None

    def ready(self, status: str | None = None) -> None:
        """The service is up: systemd starts the units ordered after it."""
        self.send("READY=1", *_status(status))
        self._fed = self._clock()

    def alive(self) -> None:
        """The event loop turned: feed the watchdog if half its timeout has passed."""
        if self.watchdog is None:
            return
        now = self._clock()
        if self._fed is not None and now - self._fed < self.watchdog / 2:
            return
        self._fed = now
        self.send("WATCHDOG=1")

    def stopping(self, status: str | None = None) -> None:
        """The service is shutting down on purpose."""
        self.send("STOPPING=1", *_status(status))

    def status(self, text: str) -> None:
        """A line for ``systemctl status``."""
        self.send(*_status(text))

    def send(self, *lines: str) -> bool:
        """Send ``KEY=value`` lines as one datagram; whether it was sent. A failure is logged
        once and otherwise ignored: the table must not stop because systemd did not hear."""
        if self.address is None or not lines:
            return False
        try:
            if self._socket is None:
                self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            self._socket.sendto("\n".join(lines).encode(), self.address)
        except OSError as exc:
            if not self._failed:
                log.warning("cannot notify systemd at %r: %s", self.address, exc)
            self._failed = True
            return False
        self._failed = False
        return True

    def close(self) -> None:
        """Close the socket; closing twice is harmless."""
        if self._socket is not None:
            self._socket.close()
            self._socket = None


def _status(text: str | None) -> tuple[str, ...]:
    if text is None:
        return ()
    # One datagram carries one STATUS line: a newline in it would start a new assignment.
    return ("STATUS=" + " ".join(text.split()),)
