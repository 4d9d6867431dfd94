"""The config holds secrets (the broker's password, the match code): the installer keeps it
readable by root and the bgpi group only, mending the mode an older install left."""

from __future__ import annotations

import os
from pathlib import Path

from tests.deploy.fakesystem import FakeSystem

CONFIG = "/etc/bgpi/config.toml"


def test_an_older_installs_world_readable_config_is_mended_and_kept(tmp_path: Path) -> None:
    system = FakeSystem.create(tmp_path)
    system.install()
    config = system.root / CONFIG.lstrip("/")
    # As an older installer left it, and then edited with a password.
    config.write_text(config.read_text() + '\n[remote]\npassword = "hunter2"\n')
    os.chown(config, 0, 0)
    config.chmod(0o644)
    system.commands()

    out = system.install().stdout

    status = config.stat()
    assert (status.st_mode & 0o777, status.st_uid) == (0o640, 0)
    bgpi_group = next(
        int(line.split(":")[2])
        for line in (system.root / "etc" / "group").read_text().splitlines()
        if line.startswith("bgpi:")
    )
    assert status.st_gid == bgpi_group
    assert "hunter2" in config.read_text()  # kept, as an edited config always is
    assert f"kept: {CONFIG} (edited)" in out
    assert f"+ chmod 0640 {config}" in out and f"+ chown 0:{bgpi_group} {config}" in out
    # Mended once: the next run finds nothing to do.
    assert "chmod" not in system.install().stdout
