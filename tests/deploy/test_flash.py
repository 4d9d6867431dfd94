"""``bgpi flash-scanner`` against the firmware's emulator on a pty, with MicroPython's real
mpremote doing the copying and hashing, and ``systemctl`` faked at the process boundary (a
program of that name on PATH) over a stand-in for ``bgpi.service``: a process holding the
scanner's port open, as the service's serial backend does."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from bgpi.builder.flash import (
    CHECKOUT_FIRMWARE,
    SCANPROTO,
    FirmwareFile,
    check_hashes,
    firmware_files,
)
from bgpi.cli import main

REPO = Path(__file__).resolve().parents[2]
if str(REPO / "firmware") not in sys.path:
    sys.path.insert(0, str(REPO / "firmware"))

from emulator import SOURCES, Emulator  # noqa: E402

from tests.serial.conftest import wait_for  # noqa: E402

FAKE_SYSTEMCTL = """\
#!{python}
import os, signal, sys, time
from pathlib import Path
state = Path(os.environ["FAKE_SERVICE"])
with open(state / "log", "a") as log:
    log.write(" ".join(sys.argv[1:]) + "\\n")
pid = int((state / "pid").read_text() or 0)
args = sys.argv[1:]
if args[:2] == ["show", "-p"]:
    print(pid)
elif args[0] == "stop":
    if (state / "refuse").exists():
        sys.exit("Failed to stop bgpi.service: Access denied")
    if pid:
        os.kill(pid, signal.SIGTERM)
        # As systemctl stop does: return once the process is gone and the port free.
        fds = Path(f"/proc/{{pid}}/fd")
        while fds.exists() and any(fds.iterdir()):  # a zombie has no files open
            time.sleep(0.01)
    (state / "pid").write_text("0")
elif args[0] == "start":
    pass
else:
    sys.exit(f"fake systemctl: {{args}}")
"""


class Service:
    """bgpi.service as systemctl sees it; ``hold(port)`` runs it with the port open."""

    def __init__(self, root: Path) -> None:
        self.root = root
        (root / "pid").write_text("0")
        (root / "log").write_text("")
        self.process: subprocess.Popen[str] | None = None

    def hold(self, port: Path) -> None:
        code = textwrap.dedent(
            f"""
            import serial, sys, time
            link = serial.Serial({str(port)!r}, exclusive=True)
            print("holding", flush=True)
            time.sleep(60)
            """
        )
        self.process = subprocess.Popen(
            [sys.executable, "-c", code], stdout=subprocess.PIPE, text=True
        )
        assert self.process.stdout is not None and self.process.stdout.readline() == "holding\n"
        (self.root / "pid").write_text(str(self.process.pid))

    def log(self) -> list[str]:
        return (self.root / "log").read_text().splitlines()

    def close(self) -> None:
        if self.process is not None:
            if self.process.poll() is None:
                self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=5)


@pytest.fixture
def service(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Service]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "systemctl"
    fake.write_text(FAKE_SYSTEMCTL.format(python=sys.executable))
    fake.chmod(0o755)
    root = tmp_path / "service"
    root.mkdir()
    monkeypatch.setenv("FAKE_SERVICE", str(root))
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    stand_in = Service(root)
    yield stand_in
    stand_in.close()


@pytest.fixture
def scanner(tmp_path: Path) -> Iterator[Emulator]:
    with Emulator(tmp_path / "bgpi-scanner") as device:
        wait_for(lambda: len(device.sent) > 0, what="the scanner's first frame")
        yield device
    assert not device.crashes, device.crashes


def expected_flash() -> dict[str, bytes]:
    files = {f"{name}.py": Path(path).read_bytes() for name, path in SOURCES.items()}
    assert files["scanproto.py"] == SCANPROTO.read_bytes()
    assert files["main.py"] == (CHECKOUT_FIRMWARE / "main.py").read_bytes()
    return files


def test_the_files_are_the_ones_the_emulator_runs() -> None:
    assert {file.remote for file in firmware_files()} == {f"{name}.py" for name in SOURCES}


def test_a_running_scanner_is_flashed_verified_and_restarted(
    scanner: Emulator, service: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["flash-scanner", "--port", str(scanner.link)]) == 0
    out = capsys.readouterr().out
    assert scanner.flash.files == expected_flash()
    assert out.count("verified on the Pico") == len(SOURCES)
    assert "the scanner runs firmware 2.0.0, protocol 2, 152 switches" in out
    assert scanner.resets == 1 and scanner.boots == 2
    assert not any(line.startswith(("stop", "start")) for line in service.log())


def test_the_service_holding_the_port_is_stopped_and_started_again(
    scanner: Emulator, service: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    service.hold(scanner.link)
    assert main(["flash-scanner", "--port", str(scanner.link)]) == 0
    out = capsys.readouterr().out
    assert "stopped bgpi.service, which held" in out and "started bgpi.service again" in out
    assert [line.split()[0] for line in service.log()] == ["show", "stop", "start"]
    assert scanner.flash.files == expected_flash()


def test_a_service_that_cannot_be_stopped_is_one_line_and_nothing_is_written(
    scanner: Emulator, service: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    service.hold(scanner.link)
    (service.root / "refuse").write_text("")
    assert main(["flash-scanner", "--port", str(scanner.link)]) == 1
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Access denied" in err and "sudo" in err
    assert scanner.flash.files == {} and not scanner.in_repl


def test_a_copy_that_differs_on_the_pico_is_named_and_not_started(
    scanner: Emulator, service: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    service.hold(scanner.link)
    scanner.flash.corrupt.add("link.py")
    assert main(["flash-scanner", "--port", str(scanner.link)]) == 1
    captured = capsys.readouterr()
    assert "link.py differs" in captured.err and "\n" not in captured.err.strip()
    assert scanner.resets == 0  # left in the REPL, not started on a bad file
    assert "started bgpi.service again" in captured.out  # the service comes back regardless
    assert service.log()[-1] == "start bgpi.service"


def test_no_pico_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["flash-scanner", "--port", str(tmp_path / "ttyACM9")]) == 1
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "no scanner at" in err and "BOOTSEL" in err


def test_a_folder_that_is_not_the_firmware_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "main.py").write_text("")
    assert main(["flash-scanner", "--port", "/dev/null", "--firmware", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "lacks board.py" in err


def test_hashes_are_compared_in_order_and_a_missing_one_is_a_difference() -> None:
    files = [FirmwareFile(Path("a"), "a.py", "1" * 64), FirmwareFile(Path("b"), "b.py", "2" * 64)]
    assert check_hashes(files, f"sha256sum :a.py\n{'1' * 64}\nsha256sum :b.py\n{'2' * 64}\n") == []
    assert check_hashes(files, f"{'1' * 64}\n{'3' * 64}\n") == ["b.py"]
    assert check_hashes(files, f"{'1' * 64}\n") == ["b.py"]
