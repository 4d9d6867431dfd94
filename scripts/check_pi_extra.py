"""Does ``pip install 'bgpi[pi]'`` have something to install on a Raspberry Pi? Resolves the
``pi`` extra for the Pi's platforms from PyPI, without a Pi, and exits 1 naming any package
with nothing installable there. CI runs it (``.ci/run``); it takes well under a minute.

- **aarch64** (64-bit Raspberry Pi OS Bookworm, glibc 2.36, Python 3.11): uv resolves the
  extra for that platform, markers included; then every package but those in
  :data:`BUILT_ON_THE_PI` must have a wheel for it.
- **armv7l** (32-bit Raspberry Pi OS): PyPI's wheels for armv7l are few; Raspberry Pi OS
  installs pip's packages from piwheels, which PyPI-only CI cannot reach. So here every
  package of the same resolution must have a wheel pip takes on armv7l (pure Python ones do)
  or be in :data:`BUILT_ON_THE_PI` or :data:`COMPILED`, whose source distribution must exist.

- **armv6l** (Pi Zero W, Pi 1) is not supported (``bgpi/hal/machines.py`` says why): every
  requirement whose marker names machines must hold on each supported one and on no other.

Usage: ``python scripts/check_pi_extra.py`` (needs ``uv`` and pip, both in the dev extra's
environment, and PyPI).
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

from bgpi.hal.machines import SUPPORTED, UNSUPPORTED

ROOT = Path(__file__).resolve().parents[1]
PYTHON = "3.11"
# Built from source on the Pi, or taken from Raspberry Pi OS's own package (scripts/install.sh
# installs python3-spidev and python3-lgpio, gcc and python3-dev; the venv sees the system's).
BUILT_ON_THE_PI = {"spidev": "python3-spidev from apt, or built with gcc"}
# Compiled packages whose armv7l wheels come from piwheels on the Pi, or are built there.
# dbus-fast (bleak's D-Bus to BlueZ, for GoDice) is Cython: piwheels has it for armv7l.
COMPILED = {"lgpio", "gpiod", "sysv-ipc", "rpi-gpio", "dbus-fast"}


def run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, check=False, timeout=300)


def uv_compile(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """uv's resolution for 64-bit Raspberry Pi OS (glibc 2.36), markers evaluated there."""
    uv = Path(sys.executable).with_name("uv")
    command = [str(uv if uv.exists() else "uv"), "pip", "compile", *args]
    command += ["--python-platform", "aarch64-manylinux_2_36", "--python-version", PYTHON]
    command += ["--no-header", "--no-annotate", "--quiet"]
    return subprocess.run(
        command, input=stdin, capture_output=True, text=True, check=False, timeout=300
    )


def resolve() -> list[str]:
    """``name==version`` of every package of the extra, resolved for 64-bit Pi OS."""
    done = uv_compile(str(ROOT / "pyproject.toml"), "--extra", "pi")
    if done.returncode:
        sys.exit(f"check_pi_extra: the pi extra does not resolve for aarch64: {done.stderr}")
    pins = [line.strip() for line in done.stdout.splitlines() if "==" in line]
    return [pin for pin in pins if not pin.startswith("bgpi")]


def uv_check(pins: list[str], only: str) -> str:
    """uv's complaint if one of ``pins`` has no wheel for 64-bit Pi OS (``only="binary"``) or
    no source distribution (``only="source"``)."""
    flag = "--only-binary" if only == "binary" else "--no-binary"
    done = uv_compile("-", "--no-deps", flag, ":all:", stdin="\n".join(pins))
    return done.stderr.strip().replace("\n", " ") if done.returncode else ""


def name_of(pin: str) -> str:
    return re.split(r"[=<>;\s]", pin, maxsplit=1)[0].lower().replace("_", "-").replace(".", "-")


def armv7l_wheels(pins: list[str], dest: str) -> str:
    """pip's complaint if one of ``pins`` has no wheel pip would install on armv7l (uv has no
    such platform); a dry run, which reads the wheels' metadata and installs nothing."""
    args = [sys.executable, "-m", "pip", "install", "--dry-run", "--quiet", "--no-deps"]
    args += ["--ignore-installed", "--only-binary", ":all:", "--platform", "linux_armv7l"]
    args += ["--python-version", PYTHON, "--implementation", "cp", "--abi", "cp311"]
    args += ["--abi", "abi3", "--abi", "none", "--target", dest]
    done = run([*args, *pins])
    lines = [line for line in done.stderr.splitlines() if line.startswith("ERROR")]
    return "; ".join(lines) if done.returncode else ""


def marker_problems() -> list[str]:
    """Where the pi extra's markers disagree with :mod:`bgpi.hal.machines`: a requirement
    for some machines that leaves out a supported one, or takes in an unsupported one."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    problems = []
    for line in project["optional-dependencies"]["pi"]:
        marker = Requirement(line).marker
        if marker is None or "platform_machine" not in str(marker):
            continue
        linux = {"platform_system": "Linux", "sys_platform": "linux"}
        holds = {m: marker.evaluate({**linux, "platform_machine": m}) for m in SUPPORTED}
        holds |= {m: marker.evaluate({**linux, "platform_machine": m}) for m in UNSUPPORTED}
        left_out = [m for m in SUPPORTED if not holds[m]]
        taken_in = [m for m in UNSUPPORTED if holds[m]]
        if left_out:
            problems.append(f"markers: {line!r} leaves out supported {', '.join(left_out)}")
        if taken_in:
            problems.append(f"markers: {line!r} takes in unsupported {', '.join(taken_in)}")
    return problems


def main() -> int:
    problems = marker_problems()
    pins = resolve()
    print(f"the pi extra resolves for aarch64 to {len(pins)} packages")
    with tempfile.TemporaryDirectory() as dest:
        wheels = [pin for pin in pins if name_of(pin) not in BUILT_ON_THE_PI]
        sources = [pin for pin in pins if name_of(pin) in BUILT_ON_THE_PI]
        error = uv_check(wheels, "binary")
        if error:
            problems.append(f"aarch64: {error}")
        pure = [pin for pin in wheels if name_of(pin) not in COMPILED]
        error = armv7l_wheels(pure, dest)
        if error:
            problems.append(f"armv7l: {error}")
        compiled = sources + [pin for pin in wheels if name_of(pin) in COMPILED]
        error = uv_check(compiled, "source")
        if error:
            problems.append(f"source distributions: {error}")
    for problem in problems:
        print(f"check_pi_extra: {problem}", file=sys.stderr)
    if not problems:
        print(
            f"aarch64: wheels for all but {', '.join(sorted(BUILT_ON_THE_PI))}; armv7l: wheels "
            f"for the pure-Python ones, source for {len(compiled)} compiled; the markers take "
            f"in {' and '.join(SUPPORTED)}, not {' or '.join(UNSUPPORTED)}"
        )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
