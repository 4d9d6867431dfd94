"""scripts/install.sh against a scratch root: what it installs, that a second run changes
nothing, that an edited config survives, what --dry-run prints and what --uninstall leaves."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.deploy.fakesystem import BOOT_CONFIG, REPO, FakeSystem

UNIT = "/etc/systemd/system/bgpi.service"
WANTS = "/etc/systemd/system/multi-user.target.wants/bgpi.service"
RULES = "/etc/udev/rules.d/99-bgpi.rules"
CONFIG = "/etc/bgpi/config.toml"
MODPROBE = "/etc/modprobe.d/bgpi-spidev.conf"
DROPIN = "/etc/systemd/system/bgpi.service.d/network.conf"
VENV = "/opt/bgpi/venv"
LINK = "/usr/local/bin/bgpi"
BOOT = "/boot/firmware/config.txt"


def at(system: FakeSystem, path: str) -> Path:
    return system.root / path.lstrip("/")


def copy_of_repo(where: Path) -> Path:
    """The files the script uses, in a checkout of their own that a test may change."""
    repo = where / "repo"
    for name in ("scripts", "systemd", "bgpi"):
        shutil.copytree(REPO / name, repo / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, repo / name)
    return repo


def test_install_puts_every_piece_in_place(tmp_path: Path) -> None:
    system = FakeSystem.create(tmp_path)
    out = system.install().stdout

    assert at(system, UNIT).read_text() == (REPO / "systemd" / "bgpi.service").read_text()
    assert at(system, RULES).read_text() == (REPO / "systemd" / "99-bgpi.rules").read_text()
    assert at(system, CONFIG).read_text() == (REPO / "systemd" / "config.toml").read_text()
    assert "options spidev bufsiz=32768" in at(system, MODPROBE).read_text()
    assert at(system, WANTS).readlink() == Path(UNIT)
    assert at(system, LINK).readlink() == Path(VENV + "/bin/bgpi")
    assert (at(system, VENV) / "bin" / "bgpi").is_file()
    boot = at(system, BOOT).read_text()
    assert boot.startswith(BOOT_CONFIG)
    block = boot[len(BOOT_CONFIG) :]
    assert block.splitlines()[1:4] == ["[all]", "dtparam=spi=on", "dtoverlay=spi1-1cs"]
    assert block.rstrip().endswith("[all]\n# bgpi: end")
    assert "bgpi:x:" in at(system, "/etc/passwd").read_text()
    groups = [line.split(":")[0] for line in at(system, "/etc/group").read_text().splitlines()]
    assert {"gpio", "spi", "dialout", "bluetooth", "bgpi"} <= set(groups)
    for name in (UNIT, RULES):
        assert at(system, name).stat().st_mode & 0o777 == 0o644
    # The config may hold the broker's password and the match code: root and bgpi only.
    config = at(system, CONFIG).stat()
    assert (config.st_mode & 0o777, config.st_uid) == (0o640, 0)
    assert config.st_gid == group_id(system, "bgpi")
    assert not at(system, DROPIN).exists()  # the example config asks for no network

    commands = system.commands()
    prefix = f"--prefix {system.root}"
    assert f"groupadd --system {prefix} gpio" in commands
    assert f"groupadd --system {prefix} spi" in commands
    assert not [c for c in commands if c.startswith("groupadd") and c.endswith("dialout")]
    (useradd,) = [c for c in commands if c.startswith("useradd")]
    assert "--system" in useradd and "--shell /usr/sbin/nologin" in useradd
    assert useradd.endswith(f"{prefix} bgpi")
    assert f"python3 -m venv --system-site-packages {system.root}{VENV}" in commands
    (pip,) = [c for c in commands if " -m pip install " in c]
    assert pip.endswith("[pi]")
    assert f"systemctl --root={system.root} enable bgpi.service" in commands
    assert "+ install -D -m 0644" in out  # every change is printed


def group_id(system: FakeSystem, name: str) -> int:
    for line in at(system, "/etc/group").read_text().splitlines():
        if line.split(":")[0] == name:
            return int(line.split(":")[2])
    raise AssertionError(f"no group {name} in the root")


def test_a_second_run_changes_nothing(tmp_path: Path) -> None:
    system = FakeSystem.create(tmp_path)
    system.install()
    system.commands()
    before = system.tree()

    out = system.install().stdout

    assert system.tree() == before
    commands = system.commands()
    # Only bgpi itself is installed again (this checkout may be newer); nothing is created.
    assert [c.split()[0] for c in commands if not c.startswith("systemctl")] == ["python"]
    assert [c for c in commands if c.startswith("systemctl")] == [
        f"systemctl --root={system.root} --quiet is-enabled bgpi.service"
    ]
    for what in (UNIT, RULES, CONFIG, VENV, LINK, BOOT, "user bgpi", "group gpio"):
        assert f"ok: {what}" in out


def test_dry_run_lists_every_action_and_changes_nothing(tmp_path: Path) -> None:
    system = FakeSystem.create(tmp_path)
    before = system.tree()

    out = system.install("--dry-run").stdout

    assert system.tree() == before
    assert system.commands() == []
    would = [line for line in out.splitlines() if line.startswith("would run: ")]
    for expected in (
        f"groupadd --system --prefix {system.root} gpio",
        "useradd --system",
        f"-m venv --system-site-packages {system.root}{VENV}",
        "-m pip install --quiet --upgrade",
        f"install -D -m 0644 {REPO}/systemd/bgpi.service {system.root}{UNIT}",
        f"install -D -m 0644 {REPO}/systemd/99-bgpi.rules {system.root}{RULES}",
        f"install -D -m 0640 -o root -g bgpi {REPO}/systemd/config.toml {system.root}{CONFIG}",
        f"set_boot_block {system.root}{BOOT}",
        f"ln -sfn {VENV}/bin/bgpi {system.root}{LINK}",
        f"systemctl --root={system.root} enable bgpi.service",
    ):
        assert any(expected in line for line in would), (expected, out)


def test_a_dry_run_after_an_install_has_nothing_to_do_but_reinstall_bgpi(tmp_path: Path) -> None:
    system = FakeSystem.create(tmp_path)
    system.install()
    out = system.install("--dry-run").stdout
    would = [line for line in out.splitlines() if line.startswith("would run")]
    assert len(would) == 1 and "-m pip install" in would[0]


def test_an_edited_config_is_never_overwritten(tmp_path: Path) -> None:
    repo = copy_of_repo(tmp_path)
    script = repo / "scripts" / "install.sh"
    system = FakeSystem.create(tmp_path)
    system.install(script=script)
    config = at(system, CONFIG)
    edited = config.read_text().replace('backend = "gpio"', 'backend = "serial"', 1)
    config.write_text(edited)

    out = system.install(script=script).stdout
    assert config.read_text() == edited
    assert f"kept: {CONFIG} (edited)" in out
    assert not at(system, CONFIG + ".new").exists()

    # A newer bgpi with a new default config: the edited one stays, the new one lies beside.
    template = repo / "systemd" / "config.toml"
    template.write_text(template.read_text() + "\n# a new default\n")
    out = system.install(script=script).stdout
    assert config.read_text() == edited
    assert at(system, CONFIG + ".new").read_text() == template.read_text()
    assert f"{CONFIG}.new" in out


def test_an_unedited_config_follows_the_new_default(tmp_path: Path) -> None:
    repo = copy_of_repo(tmp_path)
    script = repo / "scripts" / "install.sh"
    system = FakeSystem.create(tmp_path)
    system.install(script=script)
    template = repo / "systemd" / "config.toml"
    template.write_text(template.read_text() + "\n# a new default\n")

    system.install(script=script)

    assert at(system, CONFIG).read_text() == template.read_text()
    assert not at(system, CONFIG + ".new").exists()


def test_uninstall_removes_bgpi_and_leaves_the_journal(tmp_path: Path) -> None:
    system = FakeSystem.create(tmp_path)
    system.install()
    journal = at(system, "/var/lib/bgpi/journal.sqlite")
    journal.parent.mkdir(parents=True)
    journal.write_bytes(b"SQLite format 3\0")
    system.commands()

    out = system.install("--uninstall").stdout

    for path in (UNIT, WANTS, RULES, CONFIG, MODPROBE, VENV, LINK, "/opt/bgpi", "/etc/bgpi"):
        assert not at(system, path).exists() and not at(system, path).is_symlink(), path
    assert at(system, BOOT).read_text() == BOOT_CONFIG
    assert "bgpi" not in at(system, "/etc/passwd").read_text()
    assert "bgpi:" not in at(system, "/etc/group").read_text()
    assert "gpio:" in at(system, "/etc/group").read_text()  # the device groups stay
    assert journal.read_bytes() == b"SQLite format 3\0"
    assert "kept: /var/lib/bgpi" in out
    assert f"systemctl --root={system.root} disable bgpi.service" in system.commands()

    before = system.tree()
    again = system.install("--uninstall")
    assert system.tree() == before
    assert "would run" not in again.stdout and "+ " not in again.stdout


def test_uninstall_keeps_an_edited_config(tmp_path: Path) -> None:
    system = FakeSystem.create(tmp_path)
    system.install()
    config = at(system, CONFIG)
    config.write_text(config.read_text() + "\n[players]\n")
    out = system.install("--uninstall").stdout
    assert config.exists()
    assert f"kept: {CONFIG} (edited)" in out


def test_bad_arguments(tmp_path: Path) -> None:
    system = FakeSystem.create(tmp_path)
    result = system.run("--frobnicate")
    assert result.returncode == 2 and "unknown option --frobnicate" in result.stderr
    result = system.run("--root", str(tmp_path / "missing"))
    assert result.returncode == 1 and "no such directory" in result.stderr
    assert system.commands() == []


def write_stand_ins(bin_dir: Path, answers: dict[str, str]) -> None:
    """Shell scripts in ``bin_dir`` that play the commands named, each with its body."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    for name, body in answers.items():
        (bin_dir / name).write_text(f"#!/bin/sh\n{body}\n")
        (bin_dir / name).chmod(0o755)


def would_run(stdout: str) -> list[str]:
    prefix = "would run: "
    return [line.removeprefix(prefix) for line in stdout.splitlines() if line.startswith(prefix)]


def test_on_the_pi_a_dry_run_lists_the_commands_for_the_running_system(tmp_path: Path) -> None:
    # Without --root: the script asks the real system (through stand-ins here that answer
    # "nothing installed yet") and prints, but never runs, what it would change.
    bin_dir = tmp_path / "bin"
    answers = {
        "getent": 'case "$2" in gpio|spi|dialout|bluetooth) exit 0;; *) exit 2;; esac',
        "dpkg-query": "echo 'unknown ok not-installed'; exit 1",
        "apt-cache": "exit 0",
        "systemctl": "exit 1",
        "dtparam": "echo 'must not run' >&2; exit 99",
    }
    for name in ("apt-get", "udevadm", "useradd", "groupadd", "install", "ln", "mkdir"):
        answers[name] = "echo 'must not run' >&2; exit 99"
    write_stand_ins(bin_dir, answers)
    result = subprocess.run(
        ["bash", str(REPO / "scripts" / "install.sh"), "--dry-run"],
        capture_output=True,
        text=True,
        env={**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"},
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    would = would_run(result.stdout)
    assert would[:2] == [
        "apt-get update",
        "apt-get install -y --no-install-recommends python3-venv python3-dev gcc "
        "python3-lgpio python3-spidev",
    ]
    assert any(c.startswith("useradd --system") and c.endswith("bgpi") for c in would)
    assert "python3 -m venv --system-site-packages /opt/bgpi/venv" in would
    assert f"/opt/bgpi/venv/bin/python -m pip install --quiet --upgrade {REPO}\\[pi\\]" in would
    assert f"install -D -m 0644 {REPO}/systemd/bgpi.service {UNIT}" in would
    assert "systemctl daemon-reload" in would
    assert "udevadm control --reload-rules" in would
    assert "systemctl enable bgpi.service" in would
    assert not [c for c in would if "--prefix" in c or "--root" in c]


# apt-get as a Pi with one source that cannot be read sees it: the update fails (exit 100),
# every package is in the lists there are but those named in $UNAVAILABLE, and an install
# succeeds; each run of apt-get is logged.
APT_GET = """
echo "apt-get $*" >>"$APT_LOG"
case $1 in
update) echo "E: Failed to fetch http://archive.example/dists/bookworm/InRelease 404" >&2
        [ -n "$UPDATE_FAILS" ] && exit 100 || exit 0 ;;
*) exit 0 ;;
esac
"""
APT_CACHE = 'for name in $UNAVAILABLE; do [ "$2" = "$name" ] && exit 100; done; exit 0'


def install_packages(
    tmp_path: Path, *, update_fails: bool, unavailable: str = "", gnubg: bool = False
) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    """The installer's own install_packages, as it runs on a Pi (root, not a dry run) with
    apt-get, apt-cache and dpkg-query standing in: what it said, and what it ran of apt-get."""
    bin_dir, log = tmp_path / "bin", tmp_path / "apt.log"
    write_stand_ins(
        bin_dir,
        {
            "apt-get": APT_GET,
            "apt-cache": APT_CACHE,
            "dpkg-query": "echo 'unknown ok not-installed'; exit 1",
        },
    )
    flags = "--with-gnubg" if gnubg else ""
    # Sourced with the flags as its arguments, the script parses them and defines its functions.
    source = f'script=$1; set -- {flags}; source "$script"; install_packages'
    result = subprocess.run(
        ["bash", "-c", source, "_", str(REPO / "scripts" / "install.sh")],
        capture_output=True,
        text=True,
        env={
            **os.environ,
            "PATH": f"{bin_dir}:{os.environ['PATH']}",
            "APT_LOG": str(log),
            "UPDATE_FAILS": "yes" if update_fails else "",
            "UNAVAILABLE": unavailable,
        },
        timeout=60,
        check=False,
    )
    return result, log.read_text().splitlines() if log.exists() else []


def test_a_failing_apt_source_does_not_stop_the_install_when_the_packages_can_be_had(
    tmp_path: Path,
) -> None:
    # Debian has no python3-lgpio: pip builds it instead, so it is welcome but not needed.
    result, apt = install_packages(tmp_path, update_fails=True, unavailable="python3-lgpio")
    assert result.returncode == 0, result.stdout + result.stderr
    assert apt == [
        "apt-get update",
        "apt-get install -y --no-install-recommends python3-venv python3-dev gcc python3-spidev",
    ]
    assert "note: apt-get update failed (above), but the packages needed can be installed" in (
        result.stdout
    )


def test_a_failing_apt_update_stops_the_install_when_a_needed_package_cannot_be_had(
    tmp_path: Path,
) -> None:
    result, apt = install_packages(tmp_path, update_fails=True, unavailable="python3-dev")
    assert result.returncode == 1
    assert apt == ["apt-get update"]
    assert result.stderr.splitlines()[-1] == (
        "install.sh: apt-get update failed (above) and python3-dev cannot be installed without "
        "it: mend that source in /etc/apt and run this again"
    )


def test_with_gnubg_the_installer_installs_debian_s_gnubg(tmp_path: Path) -> None:
    result, apt = install_packages(tmp_path, update_fails=False, gnubg=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert apt[-1] == (
        "apt-get install -y --no-install-recommends python3-venv python3-dev gcc gnubg "
        "python3-lgpio python3-spidev"
    )
    assert 'white = "gnubg:expert"' in result.stdout
    # Asked for and not to be had: said, not skipped.
    result, apt = install_packages(tmp_path, update_fails=False, gnubg=True, unavailable="gnubg")
    assert result.returncode == 1
    assert "no package gnubg in this system's sources" in result.stderr


def test_without_the_option_gnubg_is_not_installed_and_under_a_root_it_is_left_to_you(
    tmp_path: Path,
) -> None:
    result, apt = install_packages(tmp_path / "pi", update_fails=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "gnubg" not in " ".join(apt)
    system = FakeSystem.create(tmp_path)
    out = system.install("--with-gnubg").stdout
    assert f"note: --with-gnubg: install gnubg in {system.root} yourself" in out
    assert not [c for c in system.commands() if c.startswith("apt")]


def test_shellcheck_finds_nothing() -> None:
    shellcheck = shutil.which("shellcheck")
    if shellcheck is None:
        pytest.skip("shellcheck is not installed (apt-get install shellcheck)")
    scripts = sorted(str(path) for path in (REPO / "scripts").glob("*.sh"))
    assert str(REPO / "scripts" / "pi_emulated.sh") in scripts
    result = subprocess.run(
        [shellcheck, *scripts, str(REPO / ".ci" / "run")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stdout
