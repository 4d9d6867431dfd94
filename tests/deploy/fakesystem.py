"""Stand-ins for the commands scripts/install.sh runs on a real Pi, for running it against a
scratch root: each logs its arguments, does to the scratch root what the real one would, and
refuses to touch the real system."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "install.sh"

# One program plays every command, by the name it is called as.
FAKE = r"""
import os, shutil, sys
from pathlib import Path

name, args = Path(sys.argv[0]).name, sys.argv[1:]
with open(os.environ["FAKE_LOG"], "a") as log:
    log.write(" ".join([name, *args]) + "\n")

def refuse():
    sys.exit(f"fake {name}: refusing to touch the real system: {args}")

def prefix():
    if "--prefix" not in args:
        refuse()
    return Path(args[args.index("--prefix") + 1])

def add(root, table, line):
    with open(root / "etc" / table, "a") as file:
        file.write(line + "\n")

def drop(root, table, entry):
    path = root / "etc" / table
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(l for l in lines if not l.startswith(entry + ":")))

if name == "groupadd":
    add(prefix(), "group", f"{args[-1]}:x:990:")
elif name == "useradd":
    root = prefix()
    add(root, "group", f"{args[-1]}:x:991:")
    add(root, "passwd", f"{args[-1]}:x:991:991::/nonexistent:/usr/sbin/nologin")
elif name == "userdel":
    root = prefix()
    drop(root, "passwd", args[-1])
    drop(root, "group", args[-1])
elif name == "groupdel":
    drop(prefix(), "group", args[-1])
elif name == "systemctl":
    if not any(a.startswith("--root=") for a in args):
        refuse()
    os.execv(os.environ["REAL_SYSTEMCTL"], ["systemctl", *args])
elif name == "python3" and args[:2] == ["-m", "venv"]:
    venv = Path(args[-1])
    (venv / "bin").mkdir(parents=True)
    shutil.copy(sys.argv[0], venv / "bin" / "python")
    (venv / "pyvenv.cfg").write_text("include-system-site-packages = true\n")
elif name == "python" and args[:3] == ["-m", "pip", "install"]:
    package = Path(args[-1].removesuffix("[pi]"))
    assert (package / "pyproject.toml").is_file(), package
    # The installed bgpi is the one under test (the script asks it for the drop-in).
    bgpi = Path(sys.argv[0]).parent / "bgpi"
    bgpi.write_text(f'#!/bin/sh\nexec {sys.executable} -m bgpi "$@"\n')
    bgpi.chmod(0o755)
else:
    refuse()
"""

COMMANDS = ("groupadd", "useradd", "userdel", "groupdel", "systemctl", "python3")
# Commands the script may only run on the live system; here they must not run at all.
LIVE_ONLY = ("apt-get", "apt-cache", "dpkg-query", "udevadm", "dtparam", "getent")

BOOT_CONFIG = """\
# For more options and information see
# http://rptl.io/configtxt
#dtparam=i2c_arm=on
#dtparam=spi=on
dtparam=audio=on
camera_auto_detect=1
display_auto_detect=1
auto_initramfs=1
dtoverlay=vc4-kms-v3d
max_framebuffers=2
disable_fw_kms_setup=1
arm_64bit=1

[cm4]
otg_mode=1

[all]
"""


@dataclass
class FakeSystem:
    """A scratch root with a little of Raspberry Pi OS in it, and the fake commands."""

    root: Path
    bin: Path
    log: Path

    @classmethod
    def create(cls, where: Path) -> FakeSystem:
        real_systemctl = shutil.which("systemctl")
        if real_systemctl is None:
            pytest.skip("systemctl is not installed (apt-get install systemd)")
        root, bin_dir = where / "root", where / "bin"
        (root / "etc").mkdir(parents=True)
        (root / "etc" / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
        (root / "etc" / "group").write_text("root:x:0:\ndialout:x:20:\n")
        (root / "boot" / "firmware").mkdir(parents=True)
        (root / "boot" / "firmware" / "config.txt").write_text(BOOT_CONFIG)
        bin_dir.mkdir()
        fake = bin_dir / "fake.py"
        fake.write_text(f"#!{sys.executable}\n{FAKE}")
        fake.chmod(0o755)
        for name in COMMANDS:
            (bin_dir / name).symlink_to(fake)
        for name in LIVE_ONLY:
            stub = bin_dir / name
            stub.write_text(f"#!/bin/sh\necho 'fake {name}: must not run here' >&2\nexit 99\n")
            stub.chmod(0o755)
        system = cls(root, bin_dir, where / "commands.log")
        system.log.write_text("")
        return system

    def install(self, *args: str, script: Path = SCRIPT) -> subprocess.CompletedProcess[str]:
        """Run the install script on the scratch root; fails the test if it fails."""
        result = self.run(*args, script=script)
        assert result.returncode == 0, result.stdout + result.stderr
        return result

    def run(self, *args: str, script: Path = SCRIPT) -> subprocess.CompletedProcess[str]:
        env = dict(os.environ)
        env["PATH"] = f"{self.bin}:{env['PATH']}"
        env["FAKE_LOG"] = str(self.log)
        env["REAL_SYSTEMCTL"] = shutil.which("systemctl") or "systemctl"
        return subprocess.run(
            [
                "bash",
                str(script),
                "--root",
                str(self.root),
                "--python",
                str(self.bin / "python3"),
                *args,
            ],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
            check=False,
        )

    def commands(self) -> list[str]:
        """The commands run since the last call."""
        lines = self.log.read_text().splitlines()
        self.log.write_text("")
        return lines

    def tree(self) -> dict[str, str]:
        """Every file, directory and link under the root: path -> what it is."""
        found: dict[str, str] = {}
        for path in sorted(self.root.rglob("*")):
            name = "/" + str(path.relative_to(self.root))
            mode = oct(path.lstat().st_mode & 0o7777)
            if path.is_symlink():
                found[name] = f"-> {os.readlink(path)}"
            elif path.is_dir():
                found[name] = f"dir {mode}"
            else:
                found[name] = f"{mode} {path.read_bytes()!r}"
        return found
