"""The wizard's files, all beside the config file: the part learned so far (kept aside so an
interrupted run can go on, while the config stays untouched), the backup of the old config,
and the config rewritten with the learned map.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bgpi.base.geometry import Entry, Geometry
from bgpi.base.wiringmap import map_toml, unused_toml
from bgpi.service.config import parse

_HEADER = re.compile(r"^\s*\[")
_MAP_HEADER = re.compile(r"^\s*\[\[\s*sensors\s*\.\s*map\s*\]\]")
_SENSORS_HEADER = re.compile(r"^\s*\[\s*sensors\s*\]")
_UNUSED = re.compile(r"^\s*unused\s*=")


def partial_path(config: Path) -> Path:
    """Where the learned part waits: ``bgpi.toml.calibrating``."""
    return config.with_name(config.name + ".calibrating")


@dataclass(frozen=True, slots=True)
class Partial:
    """What a run learned so far, for a chain of ``nbits`` and the given slot counts."""

    nbits: int
    slots: tuple[int, int, int]
    learned: Mapping[Entry, int]

    def save(self, path: Path) -> None:
        """Write it (atomically: a Ctrl-C mid-write leaves the previous one)."""
        data = {
            "nbits": self.nbits,
            "slots": list(self.slots),
            "learned": [[zone, slot, bit] for (zone, slot), bit in self.learned.items()],
        }
        temporary = path.with_name(path.name + ".tmp")
        temporary.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        os.replace(temporary, path)

    @classmethod
    def load(cls, path: Path) -> Partial | None:
        """The part kept at ``path``, or ``None`` if there is none or it cannot be read."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            learned = {(int(z), int(s)): int(b) for z, s, b in data["learned"]}
            slots = tuple(int(n) for n in data["slots"])
            return cls(int(data["nbits"]), (slots[0], slots[1], slots[2]), learned)
        except (OSError, ValueError, KeyError, TypeError, IndexError):
            return None


def backup_path(config: Path, now: datetime) -> Path:
    """``bgpi.toml.before-calibrate-20261123-214501``: beside it, named after it."""
    return config.with_name(f"{config.name}.before-calibrate-{now:%Y%m%d-%H%M%S}")


def _drop_map_tables(lines: list[str]) -> list[str]:
    kept: list[str] = []
    skipping = False
    for line in lines:
        if _HEADER.match(line):
            skipping = bool(_MAP_HEADER.match(line))
        if not skipping:
            kept.append(line)
    return kept


def _set_unused(lines: list[str], unused: str) -> list[str]:
    """``lines`` with ``unused`` the one unused line of ``[sensors]`` (added if need be)."""
    out: list[str] = []
    in_sensors = found = False
    depth = 0  # open brackets of an unused = [...] spread over lines, being dropped
    for line in lines:
        if depth:
            depth += line.count("[") - line.count("]")
            continue
        if _HEADER.match(line):
            in_sensors = bool(_SENSORS_HEADER.match(line))
            out.append(line)
            if in_sensors:
                found = True
                out.append(unused)
            continue
        if in_sensors and _UNUSED.match(line):
            depth = line.count("[") - line.count("]")
            continue
        out.append(line)
    if not found:
        out += ["", "[sensors]", unused]
    return out


def with_map(text: str, geometry: Geometry, stamp: str) -> str:
    """The config ``text`` with its wiring map replaced by ``geometry``'s; everything else
    is kept as written."""
    lines = _set_unused(_drop_map_tables(text.splitlines()), unused_toml(geometry))
    while lines and not lines[-1].strip():
        lines.pop()
    body = "\n".join(lines)
    return f"{body}\n\n# The wiring map, learned by bgpi calibrate {stamp}.\n{map_toml(geometry)}"


def write_map(config: Path, geometry: Geometry, now: datetime | None = None) -> Path:
    """Rewrite ``config`` with ``geometry``'s map, keeping the old file as a backup beside
    it; the backup's path. The new text is checked to read back to ``geometry`` before the
    old file is touched."""
    now = now or datetime.now(UTC)
    old = config.read_text(encoding="utf-8")
    new = with_map(old, geometry, f"on {now:%Y-%m-%d %H:%M} UTC")
    if parse(tomllib.loads(new), str(config)).geometry != geometry:
        raise ValueError(f"{config}: the rewritten file would not give the learned map")
    backup = backup_path(config, now)
    shutil.copy2(config, backup)
    temporary = config.with_name(config.name + ".tmp")
    temporary.write_text(new, encoding="utf-8")
    os.replace(temporary, config)
    return backup
