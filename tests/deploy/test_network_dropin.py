"""The service as installed against what its config asks of the network: the installer writes
the drop-in that opens exactly that (none for a board on its own, this machine's addresses
for the page or the broker on the loopback, the network for phones or a broker elsewhere),
systemd-analyze verifies the unit with it and rates what it opens, and ``bgpi config check``
refuses the service's own config when the installed unit forbids what it asks."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bgpi.service.config import Network, load
from bgpi.service.unit import DROPIN, Families, Sandbox, dropin, installed
from tests.deploy.fakesystem import REPO, FakeSystem
from tests.deploy.test_unit import MAX_EXPOSURE, SYSTEM_UNIT_DIRS, systemd_analyze, verify

CONFIG = "/etc/bgpi/config.toml"
UNIT = "/etc/systemd/system/bgpi.service"
REMOTE = '\n[remote]\nbroker = "{broker}"\nmatch = "K7QDM-2PXWA"\nside = "white"\n'

# What each kind of config is, and what systemd-analyze must then say of the service.
KINDS = {
    "local only": (
        lambda text: text,
        Network.NONE,
        (
            "Service has no access to the host's network",
            "Service cannot allocate Internet sockets",
            "Service blocks all IP address ranges",
        ),
    ),
    "the page on the loopback": (
        lambda text: text.replace("enabled = false", "enabled = true"),
        Network.LOOPBACK,
        (
            "Service has access to the host's network",
            "Service may allocate Internet sockets",
            "Service defines IP address allow list with only localhost entries",
        ),
    ),
    "the page for phones": (
        lambda text: text.replace("enabled = false", 'enabled = true\nhost = "0.0.0.0"'),
        Network.ANY,
        (
            "Service has access to the host's network",
            "Service may allocate Internet sockets",
            "Service does not define an IP address allow list",
        ),
    ),
    "a remote match": (
        lambda text: text + REMOTE.format(broker="mqtts://broker.example.org"),
        Network.ANY,
        (
            "Service has access to the host's network",
            "Service may allocate Internet sockets",
            "Service does not define an IP address allow list",
        ),
    ),
    "a remote match through a broker here": (
        lambda text: text + REMOTE.format(broker="mqtt://127.0.0.1:1883"),
        Network.LOOPBACK,
        ("Service defines IP address allow list with only localhost entries",),
    ),
}


def at(system: FakeSystem, path: str) -> Path:
    return system.root / path.lstrip("/")


def installed_with(tmp_path: Path, kind: str) -> FakeSystem:
    """A fresh install, its config then edited to ``kind``, and the installer run again."""
    system = FakeSystem.create(tmp_path)
    system.install()
    config = at(system, CONFIG)
    config.write_text(KINDS[kind][0](config.read_text()))
    system.install()
    return system


def config_check(system: FakeSystem, path: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bgpi", "config", "check", str(path or at(system, CONFIG))],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "BGPI_SYSTEMD_ROOT": str(system.root)},
    )


def security(system: FakeSystem) -> str:
    """``systemd-analyze security`` of the service installed in ``system``'s root (with the
    distribution's own units beside it, which it needs)."""
    analyze = systemd_analyze()
    units = next((d for d in SYSTEM_UNIT_DIRS if (d / "sysinit.target").is_file()), None)
    if units is None:
        pytest.skip(f"no systemd units in {' or '.join(map(str, SYSTEM_UNIT_DIRS))}")
    shutil.copytree(units, at(system, "/usr/lib/systemd/system"), symlinks=True)
    program = at(system, "/opt/bgpi/venv/bin/bgpi")
    assert program.is_file()
    result = subprocess.run(
        [analyze, "security", "--offline=true", f"--root={system.root}", "bgpi.service"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return result.stdout + result.stderr


@pytest.mark.parametrize("kind", list(KINDS))
def test_the_installed_unit_opens_exactly_what_the_config_asks(tmp_path: Path, kind: str) -> None:
    _edit, network, said = KINDS[kind]
    system = installed_with(tmp_path, kind)
    written = at(system, DROPIN)
    config = load(at(system, CONFIG))
    assert config.network()[0] is network
    if network is Network.NONE:
        assert not written.exists()
    else:
        assert written.read_text() == dropin(config)
        assert written.stat().st_mode & 0o777 == 0o644
    # systemd reads the unit with its drop-in without a fault, and says what it opens.
    unit_text = at(system, UNIT).read_text()
    assert verify(tmp_path / "verify", unit_text, dropin(config)) == ""
    report = security(system)
    for sentence in said:
        assert sentence in report, report
    exposure = re.search(r"Overall exposure level for bgpi\.service: (\d+\.\d)", report)
    assert exposure and float(exposure.group(1)) <= MAX_EXPOSURE, report
    # And bgpi agrees: the service's config asks for nothing it forbids.
    sandbox = installed(system.root)
    assert sandbox is not None and sandbox.forbids(network) == []
    result = config_check(system)
    assert (result.returncode, result.stderr) == (0, ""), result.stderr


def test_a_config_that_asks_more_than_the_unit_gives_fails_its_check_until_installed(
    tmp_path: Path,
) -> None:
    system = FakeSystem.create(tmp_path)
    system.install()
    config = at(system, CONFIG)
    config.write_text(KINDS["a remote match"][0](config.read_text()))

    result = config_check(system)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"bgpi: {config}: remote.broker: needs the network, ")
    for setting in ("PrivateNetwork=yes", "without AF_INET AF_INET6", "IPAddressDeny=any"):
        assert setting in result.stderr
    assert DROPIN in result.stderr and "scripts/install.sh" in result.stderr

    # A config that is not the service's own is not the unit's business (bgpi sim's, say).
    elsewhere = tmp_path / "sim.toml"
    shutil.copy(config, elsewhere)
    assert config_check(system, elsewhere).returncode == 0

    system.install()  # writes the drop-in
    assert config_check(system).returncode == 0

    # Back to a board on its own: the drop-in goes, and the check still passes.
    config.write_text((REPO / "systemd" / "config.toml").read_text())
    system.install()
    assert not at(system, DROPIN).exists()
    assert not at(system, DROPIN).parent.exists()
    assert config_check(system).returncode == 0


def test_an_override_of_ones_own_counts_as_much_as_the_installers(tmp_path: Path) -> None:
    system = FakeSystem.create(tmp_path)
    system.install()
    config = at(system, CONFIG)
    config.write_text(KINDS["the page for phones"][0](config.read_text()))
    override = at(system, "/etc/systemd/system/bgpi.service.d/override.conf")
    override.parent.mkdir()
    # As the example config once told: what `sudo systemctl edit bgpi` would hold.
    override.write_text(
        "[Service]\nPrivateNetwork=no\nIPAddressDeny=\n"
        "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6\n"
    )
    assert config_check(system).returncode == 0
    override.write_text("[Service]\nPrivateNetwork=no\n")  # not enough
    result = config_check(system)
    assert result.returncode == 2 and "PrivateNetwork" not in result.stderr
    assert "IPAddressDeny=any" in result.stderr


def test_uninstall_takes_the_drop_in_too(tmp_path: Path) -> None:
    system = installed_with(tmp_path, "a remote match")
    assert at(system, DROPIN).exists()
    system.install("--uninstall")
    assert not at(system, DROPIN).parent.exists()


@pytest.mark.parametrize(
    ("lines", "allowed", "forbidden"),
    [
        (["AF_UNIX"], {"AF_UNIX"}, {"AF_INET"}),
        (["AF_UNIX", "AF_INET AF_INET6"], {"AF_INET", "AF_INET6"}, {"AF_PACKET"}),
        (["AF_UNIX", ""], {"AF_INET", "AF_PACKET"}, set()),  # an empty one resets
        (["~AF_INET"], {"AF_UNIX", "AF_INET6"}, {"AF_INET"}),
        (["AF_UNIX AF_INET", "~AF_INET"], {"AF_UNIX"}, {"AF_INET"}),
        (["~AF_INET", "AF_INET"], {"AF_INET"}, set()),
        (["none"], set(), {"AF_UNIX", "AF_INET"}),
    ],
)
def test_address_families_follow_systemds_rules_for_repeating(
    lines: list[str], allowed: set[str], forbidden: set[str]
) -> None:
    families = Families()
    for line in lines:
        families = families.then(line)
    assert all(families.permit(name) for name in allowed)
    assert not any(families.permit(name) for name in forbidden)


def test_ip_address_lists_allow_what_an_allow_entry_matches_or_no_deny_entry_does(
    tmp_path: Path,
) -> None:
    unit = tmp_path / "bgpi.service"

    def forbids(text: str, network: Network) -> list[str]:
        unit.write_text("[Service]\nExecStart=/bin/bgpi run --config /c.toml\n" + text)
        sandbox = Sandbox.read([unit])
        assert sandbox.config == "/c.toml"
        return [s.split("=")[0] for s in sandbox.forbids(network)]

    assert forbids("IPAddressDeny=any\n", Network.LOOPBACK) == ["IPAddressDeny"]
    assert forbids("IPAddressDeny=any\nIPAddressAllow=127.0.0.0/8 ::1\n", Network.LOOPBACK) == []
    assert forbids("IPAddressDeny=any\nIPAddressAllow=localhost\n", Network.ANY) == [
        "IPAddressDeny"
    ]
    assert forbids("IPAddressDeny=10.0.0.0/8\n", Network.ANY) == []
    assert forbids("IPAddressDeny=any\nIPAddressDeny=\n", Network.ANY) == []
    assert forbids("PrivateNetwork=yes\nPrivateNetwork=no\n", Network.ANY) == []
    assert forbids("PrivateNetwork=yes\n", Network.NONE) == []


def test_the_docs_and_the_example_config_name_the_drop_in() -> None:
    for path in (REPO / "docs" / "remote.md", REPO / "systemd" / "config.toml"):
        assert DROPIN in path.read_text(), path
