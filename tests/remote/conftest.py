"""A real mosquitto for the remote tests: Debian's, on a free loopback port, with a config of
its own in a temporary directory; stopped (and started again) by the test. ``guarded`` runs
the config docs/remote.md documents (docs/mosquitto/), its listener moved to the test's port."""

from __future__ import annotations

import getpass
import re
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
DOCUMENTED = Path(__file__).parents[2] / "docs" / "mosquitto"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Mosquitto:
    """A broker on 127.0.0.1 only, keeping its sessions across a restart."""

    def __init__(self, directory: Path, *, guarded: bool = False) -> None:
        self.directory, self.port = directory, free_port()
        directory.mkdir(parents=True, exist_ok=True)
        self.config = directory / "mosquitto.conf"
        settings = (
            guarded_settings(self.port)
            if guarded
            else f"listener {self.port} 127.0.0.1\nallow_anonymous true\nset_tcp_nodelay true\n"
        )
        self.config.write_text(
            settings + "persistence true\n"
            f"persistence_location {directory}/\n"
            f"user {getpass.getuser()}\n"  # as root it would switch to one that cannot write here
        )
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def start(self) -> None:
        with open(self.directory / "mosquitto.log", "ab") as log:
            self.process = subprocess.Popen(
                [MOSQUITTO, "-c", str(self.config)], stdout=log, stderr=subprocess.STDOUT
            )
        end = time.monotonic() + 10
        while time.monotonic() < end:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return
            except OSError:
                assert self.process.poll() is None, "mosquitto stopped: see its log"
                time.sleep(0.05)
        raise RuntimeError(f"mosquitto did not listen on port {self.port}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process = None


def guarded_settings(port: int) -> str:
    """docs/mosquitto/bgpi.conf, listening on ``port`` of 127.0.0.1 only, with its ACL."""
    text = (DOCUMENTED / "bgpi.conf").read_text()
    text, listeners = re.subn(r"(?m)^listener 1883$", f"listener {port} 127.0.0.1", text)
    text, acls = re.subn(
        r"(?m)^acl_file /etc/mosquitto/bgpi.acl$", f"acl_file {DOCUMENTED / 'bgpi.acl'}", text
    )
    assert (listeners, acls) == (1, 1), "docs/mosquitto/bgpi.conf: no listener or acl_file"
    return text


def _broker(directory: Path, *, guarded: bool) -> Iterator[Mosquitto]:
    if not Path(MOSQUITTO).exists():
        pytest.skip("needs mosquitto: apt-get install mosquitto")
    broker = Mosquitto(directory, guarded=guarded)
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()


@pytest.fixture
def mosquitto(tmp_path: Path) -> Iterator[Mosquitto]:
    yield from _broker(tmp_path / "broker", guarded=False)


@pytest.fixture
def guarded(tmp_path: Path) -> Iterator[Mosquitto]:
    """A broker with the documented limits and ACL."""
    yield from _broker(tmp_path / "broker", guarded=True)
