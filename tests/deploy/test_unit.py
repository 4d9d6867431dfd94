"""The systemd unit, the udev rule and the config for the Pi: systemd-analyze finds no fault
in the unit and rates its exposure at most 3.5; the rule and the config agree with the code."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from bgpi.hal import PinMap
from bgpi.service.config import SensorsConfig, load
from tests.deploy.fakesystem import REPO

SYSTEMD = REPO / "systemd"
UNIT = SYSTEMD / "bgpi.service"
MAX_EXPOSURE = 3.5
# Where a distribution keeps its units; verify needs the targets the unit is ordered against.
SYSTEM_UNIT_DIRS = (Path("/usr/lib/systemd/system"), Path("/lib/systemd/system"))


def systemd_analyze() -> str:
    found = shutil.which("systemd-analyze")
    if found is None:
        pytest.skip("systemd-analyze is not installed (apt-get install systemd)")
    return found


def unit_settings(text: str) -> dict[str, list[str]]:
    """``key -> [values]`` of every assignment in a unit file."""
    settings: dict[str, list[str]] = {}
    for line in text.splitlines():
        if "=" in line and not line.startswith(("#", ";", "[")):
            key, value = line.split("=", 1)
            settings.setdefault(key.strip(), []).append(value.strip())
    return settings


def verify(tmp_path: Path, unit_text: str, dropin: str | None = None) -> str:
    """What ``systemd-analyze verify`` says about the unit installed in a scratch root that
    holds the system's own units and the program the unit starts; empty means no fault."""
    analyze = systemd_analyze()
    root = tmp_path / "root"
    units = next((d for d in SYSTEM_UNIT_DIRS if (d / "sysinit.target").is_file()), None)
    if units is None:
        pytest.skip(f"no systemd units in {' or '.join(map(str, SYSTEM_UNIT_DIRS))}")
    shutil.copytree(units, root / "usr/lib/systemd/system", symlinks=True)
    installed = root / "etc/systemd/system/bgpi.service"
    installed.parent.mkdir(parents=True)
    installed.write_text(unit_text)
    if dropin is not None:
        (installed.parent / "bgpi.service.d").mkdir()
        (installed.parent / "bgpi.service.d" / "override.conf").write_text(dropin)
    program = unit_settings(unit_text)["ExecStart"][0].split()[0]
    fake = root / program.lstrip("/")
    fake.parent.mkdir(parents=True)
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    result = subprocess.run(
        [analyze, "verify", "--man=no", f"--root={root}", "bgpi.service"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return (result.stdout + result.stderr + ("" if result.returncode == 0 else "failed")).strip()


def test_systemd_analyze_verify_finds_nothing(tmp_path: Path) -> None:
    assert verify(tmp_path, UNIT.read_text()) == ""


def test_verify_does_report_a_fault(tmp_path: Path) -> None:
    # The check above is worth something only if a mistake makes it say so.
    broken = UNIT.read_text().replace("WatchdogSec=10", "WatchdogSecs=10")
    assert "Unknown key" in verify(tmp_path, broken)


def test_the_pwm_drop_in_from_the_build_guide_verifies(tmp_path: Path) -> None:
    guide = (REPO / "hardware" / "leds.md").read_text()
    dropin = guide.split("<!-- pwm-drop-in: begin -->")[1].split("<!-- pwm-drop-in: end -->")[0]
    dropin = dropin.split("```ini\n")[1].split("```")[0]
    assert "User=root" in dropin
    assert verify(tmp_path, UNIT.read_text(), dropin) == ""


def test_the_exposure_is_at_most_three_and_a_half() -> None:
    analyze = systemd_analyze()
    # --threshold counts tenths: 35 is an exposure of 3.5.
    result = subprocess.run(
        [analyze, "security", "--offline=true", f"--threshold={MAX_EXPOSURE * 10:.0f}", str(UNIT)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    found = re.search(r"Overall exposure level for bgpi\.service: (\d+\.\d)", result.stdout)
    assert found, result.stdout + result.stderr
    assert float(found.group(1)) <= MAX_EXPOSURE, result.stdout
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_unit_is_a_watched_notify_service_of_a_plain_user() -> None:
    settings = unit_settings(UNIT.read_text())

    def one(key: str) -> str:
        (value,) = settings[key]
        return value

    assert one("Type") == "notify"
    assert int(one("WatchdogSec")) > 0
    assert one("Restart") == "on-failure"
    assert one("User") == "bgpi" and one("Group") == "bgpi"
    assert one("SupplementaryGroups").split() == ["gpio", "spi", "dialout", "bluetooth"]
    assert one("StateDirectory") == "bgpi"
    assert one("DevicePolicy") == "closed"
    assert one("CapabilityBoundingSet") == "" and one("AmbientCapabilities") == ""
    for key in ("NoNewPrivileges", "ProtectHome", "PrivateTmp", "ProtectKernelTunables"):
        assert one(key) == "yes", key
    assert one("ProtectSystem") == "strict"
    assert one("ExecStart") == "/opt/bgpi/venv/bin/bgpi run --config /etc/bgpi/config.toml"
    # bgpi exits with 2 for a bad config; restarting would not mend it.
    assert one("RestartPreventExitStatus") == "2"


def test_the_scanner_rule_names_the_port_the_config_expects() -> None:
    rules = [
        line
        for line in (SYSTEMD / "99-bgpi.rules").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assignment = re.compile(r'^([A-Z_]+(?:\{[^}]+\})?)(==|!=|\+=|-=|:=|=)"([^"]*)"$')
    parsed = []
    for line in rules:
        pairs = [assignment.match(part.strip()) for part in line.split(", ")]
        assert all(pairs), line
        parsed.append({m.group(1) + m.group(2): m.group(3) for m in pairs if m})
    (scanner,) = [rule for rule in parsed if "SYMLINK+=" in rule]
    assert scanner["SUBSYSTEM=="] == "tty"
    assert scanner["ATTRS{idVendor}=="] == "2e8a"
    assert "0005" in scanner["ATTRS{idProduct}=="].split("|")
    assert "/dev/" + scanner["SYMLINK+="] == SensorsConfig().port
    assert scanner["GROUP="] == "dialout"
    assert scanner["TAG+="] == "systemd"
    assert scanner["ENV{SYSTEMD_WANTS}+="] == "bgpi.service"
    groups = {rule.get("SUBSYSTEM=="): rule.get("GROUP=") for rule in parsed}
    assert groups == {"tty": "dialout", "spidev": "spi", "gpio": "gpio"}


def test_the_config_for_the_pi_loads_and_agrees_with_the_pin_table() -> None:
    config = load(SYSTEMD / "config.toml")
    assert (config.sensors.backend, config.buttons.backend) == ("gpio", "gpio")
    assert (config.leds.backend, config.leds.wiring) == ("neopixel", "spi")
    assert config.pins == PinMap()
    assert config.state.dir == ""  # the journal goes to StateDirectory
    assert config.sensors.port == SensorsConfig().port
