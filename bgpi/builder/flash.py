"""``bgpi flash-scanner``: put the scanner firmware on a connected Pico with MicroPython's own
tool, mpremote, and check that it took.

What it does, saying each step as it goes:

1. Finds the files (``firmware/`` of this checkout or of the current directory, or
   ``--firmware DIR``, and
   ``bgpi/hal/scanproto.py``, copied as ``scanproto.py``) and their SHA-256.
2. If ``bgpi.service`` is running and its process holds the port, stops it: the port is
   opened exclusively, and mpremote could not get in.
3. ``mpremote connect PORT cp ... + sha256sum ...``: one connection copies every file and reads
   back its hash from the Pico. The firmware steps aside for mpremote's Ctrl-C by itself, so a
   running scanner needs no button press (``firmware/PROTOCOL.md``, "The REPL").
4. Compares the hashes; on a mismatch it stops there (exit 1) and leaves the Pico in its REPL.
5. ``mpremote connect PORT reset``, then waits for the scanner's HELLO_REPLY: the protocol and
   firmware version now running.
6. Starts ``bgpi.service`` again if it stopped it, whatever happened in between.

The plan and the checks are pure; :class:`System` is the shell (processes, /proc, the port),
which the tests replace only at the process boundary (a fake ``systemctl`` on ``PATH``).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from bgpi.base.errors import BgpiError
from bgpi.hal import scanproto
from bgpi.hal.errors import INSTALL

# What goes on the Pico, in the order mpremote copies it; main.py last, so that a Pico reset
# halfway never starts a firmware whose modules are missing.
FIRMWARE_FILES: Final = (
    "board.py",
    "chain.py",
    "debounce.py",
    "link.py",
    "scanner.py",
    "pico.py",
    "main.py",
)
SCANPROTO: Final = Path(scanproto.__file__).resolve()
CHECKOUT_FIRMWARE: Final = Path(__file__).resolve().parents[2] / "firmware"
SERVICE: Final = "bgpi.service"
MPREMOTE_TIMEOUT: Final = 120.0
# After a reset the Pico leaves USB and comes back: how long to wait for its HELLO_REPLY.
HELLO_TIMEOUT: Final = 15.0


class FlashError(BgpiError, RuntimeError):
    """Flashing failed; the message says where and what to do. Exit status 1."""


class FlashUsageError(FlashError):
    """Flashing cannot start: a missing folder or file. Exit status 2."""


@dataclass(frozen=True, slots=True)
class FirmwareFile:
    """One file for the Pico: where it is here, its name there, and its SHA-256."""

    local: Path
    remote: str
    sha256: str


def default_folder() -> Path:
    """``firmware/`` beside bgpi's source when it runs from a checkout; else (bgpi installed
    from a wheel, as scripts/install.sh does) ``firmware/`` of the current directory, a clone."""
    if (CHECKOUT_FIRMWARE / "main.py").is_file():
        return CHECKOUT_FIRMWARE
    return Path.cwd() / "firmware"


def firmware_files(folder: Path | None = None) -> tuple[FirmwareFile, ...]:
    """The files to copy, from ``folder`` (default: :func:`default_folder`)."""
    source = default_folder() if folder is None else folder
    if not source.is_dir():
        raise FlashUsageError(
            f"no firmware folder at {source}: run it in a clone of bgpi of this version, or "
            "give --firmware DIR"
        )
    missing = [name for name in FIRMWARE_FILES if not (source / name).is_file()]
    if missing:
        raise FlashUsageError(f"{source} lacks {', '.join(missing)}: not bgpi's firmware folder")
    paths = [(SCANPROTO, "scanproto.py"), *((source / name, name) for name in FIRMWARE_FILES)]
    return tuple(
        FirmwareFile(path, remote, hashlib.sha256(path.read_bytes()).hexdigest())
        for path, remote in paths
    )


def copy_command(port: str, files: Sequence[FirmwareFile]) -> list[str]:
    """mpremote's arguments: copy every file, then read back every hash, in one connection."""
    args = ["connect", port]
    for file in files:
        args += ["cp", str(file.local), f":{file.remote}", "+"]
    args += ["sha256sum", *(f":{file.remote}" for file in files)]
    return args


_DIGEST = re.compile(r"^[0-9a-f]{64}$")


def check_hashes(files: Sequence[FirmwareFile], output: str) -> list[str]:
    """The files whose hash on the Pico (the digests in mpremote's ``output``, in order)
    differs from ours; a missing digest counts as different."""
    digests = [line.strip() for line in output.splitlines() if _DIGEST.match(line.strip())]
    digests += [""] * (len(files) - len(digests))
    return [file.remote for file, got in zip(files, digests, strict=False) if got != file.sha256]


class System:
    """The processes and files flashing touches; each test may give another ``run``."""

    def __init__(
        self, run: Callable[..., subprocess.CompletedProcess[str]] = subprocess.run
    ) -> None:
        self._run = run

    def command(self, args: Sequence[str], timeout: float = 30.0) -> tuple[int, str, str]:
        try:
            done = self._run(list(args), capture_output=True, text=True, timeout=timeout)
        except FileNotFoundError:
            return 127, "", f"{args[0]}: not found"
        except subprocess.TimeoutExpired:
            return 124, "", f"{' '.join(args[:3])}: no answer within {timeout:.0f} s"
        return done.returncode, done.stdout, done.stderr

    def mpremote(self, args: Sequence[str]) -> tuple[int, str, str]:
        return self.command([sys.executable, "-m", "mpremote", *args], MPREMOTE_TIMEOUT)

    def service_pid(self, service: str) -> int:
        """The main process of ``service`` if it is running, else 0."""
        if shutil.which("systemctl") is None:
            return 0
        code, out, _ = self.command(["systemctl", "show", "-p", "MainPID", "--value", service])
        return int(out.strip()) if code == 0 and out.strip().isdigit() else 0

    @staticmethod
    def holds(pid: int, port: str) -> bool:
        """Whether process ``pid`` has ``port`` open."""
        target = os.path.realpath(port)
        try:
            fds = list(Path(f"/proc/{pid}/fd").iterdir())
        except OSError:  # gone, or not ours to look at: assume it holds it
            return True
        for fd in fds:
            try:
                if os.path.realpath(fd) == target:
                    return True
            except OSError:
                continue
        return False


def flash(
    port: str,
    *,
    folder: Path | None = None,
    service: str = SERVICE,
    system: System | None = None,
    say: Callable[[str], None] = print,
) -> None:
    """Put the firmware on the Pico at ``port``; :class:`FlashError` says why it failed."""
    system = system or System()
    files = firmware_files(folder)
    if importlib.util.find_spec("mpremote") is None:
        raise FlashError(f"mpremote is not installed: {INSTALL}")
    if not os.path.exists(port):
        raise FlashError(
            f"no scanner at {port}: plug the Pico in (one without MicroPython yet: hold BOOTSEL "
            "while plugging it in and copy MicroPython's UF2, firmware/README.md)"
        )
    say(f"flashing the scanner at {port}: {len(files)} files")
    stopped = _stop_service(system, service, port, say)
    try:
        _copy_and_verify(system, port, files, say)
        _reset(system, port, say)
    finally:
        if stopped:
            code, _, err = system.command(["systemctl", "start", service])
            if code:
                raise FlashError(f"could not start {service} again: {err.strip()}")
            say(f"started {service} again")


def _stop_service(system: System, service: str, port: str, say: Callable[[str], None]) -> bool:
    pid = system.service_pid(service)
    if not pid or not system.holds(pid, port):
        return False
    code, _, err = system.command(["systemctl", "stop", service])
    if code:
        raise FlashError(
            f"{service} holds {port} and could not be stopped ({err.strip()}): run with sudo, "
            f"or `sudo systemctl stop {service}` first"
        )
    say(f"stopped {service}, which held {port}")
    return True


def _copy_and_verify(
    system: System, port: str, files: Sequence[FirmwareFile], say: Callable[[str], None]
) -> None:
    code, out, err = system.mpremote(copy_command(port, files))
    if code:
        detail = (err.strip() or out.strip()).splitlines()[-1:] or [f"status {code}"]
        raise FlashError(f"mpremote could not copy the firmware to {port}: {detail[0]}")
    wrong = check_hashes(files, out)
    if wrong:
        raise FlashError(
            f"the Pico's copy of {', '.join(wrong)} differs from this one (SHA-256): nothing was "
            "started; run bgpi flash-scanner again"
        )
    for file in files:
        say(f"  {file.remote:13} sha256 {file.sha256[:16]}... verified on the Pico")


def _reset(system: System, port: str, say: Callable[[str], None]) -> None:
    code, out, err = system.mpremote(["connect", port, "reset"])
    if code:
        detail = (err.strip() or out.strip()).splitlines()[-1:] or [f"status {code}"]
        raise FlashError(f"mpremote could not reset the Pico at {port}: {detail[0]}")
    hello = wait_for_hello(port, HELLO_TIMEOUT)
    if hello is None:
        raise FlashError(
            f"the Pico at {port} was reset but its scanner does not answer: see firmware/README.md"
        )
    major, minor, patch = hello.firmware
    say(
        f"reset the Pico: the scanner runs firmware {major}.{minor}.{patch}, protocol "
        f"{hello.version}, {hello.nbits} switches"
    )


def wait_for_hello(port: str, timeout: float) -> scanproto.Hello | None:
    """The scanner's HELLO_REPLY at ``port``, reopening it while the Pico comes back."""
    import serial  # noqa: PLC0415 - pyserial, from the pi extra, only when flashing

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with serial.Serial(port, timeout=0.1, exclusive=True) as link:
                hello = _ask_hello(link, min(deadline, time.monotonic() + 2.0))
        except (OSError, serial.SerialException):
            hello = None
            time.sleep(0.2)
        if hello is not None:
            return hello
    return None


def _ask_hello(link: Any, until: float) -> scanproto.Hello | None:
    decoder = scanproto.Decoder()
    seq = 0
    while time.monotonic() < until:
        link.write(scanproto.encode(scanproto.HELLO, seq, b""))
        seq += 1
        for type_, _, payload in decoder.feed(link.read(256)):
            if type_ == scanproto.HELLO_REPLY:
                try:
                    return scanproto.unpack_hello(payload)
                except scanproto.ProtocolError:
                    return None
    return None
