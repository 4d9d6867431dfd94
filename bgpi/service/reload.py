"""A config file edited while ``bgpi run`` runs: its rules take effect for the next match,
never mid-match.

The table's :class:`~bgpi.table.TableConfig` carries the rules the options phase offers
(``next_match``) and whether an illegal play may be accepted. The shell asks
:class:`ConfigWatch` once the match is over; a file that changed since it was read is read
again, and a file that no longer checks keeps the rules in force, with its error logged once.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field, replace

from bgpi.service.config import Config, ConfigError, load
from bgpi.table import Table

log = logging.getLogger("bgpi")


@dataclass
class ConfigWatch:
    """Watches ``path`` (None: a config of defaults, nothing to watch)."""

    path: str | None
    _stamp: tuple[int, int] | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self._stamp = self._read_stamp()

    def _read_stamp(self) -> tuple[int, int] | None:
        if self.path is None:
            return None
        try:
            stat = os.stat(self.path)
        except OSError:
            return None
        return stat.st_mtime_ns, stat.st_size

    def changed(self) -> Config | None:
        """The config as the file says now, if it changed since last asked and checks."""
        stamp = self._read_stamp()
        if stamp is None or stamp == self._stamp:
            return None
        self._stamp = stamp
        try:
            config = load(self.path)
        except ConfigError as exc:
            log.error("%s; the rules in force stay for the next match", exc)
            return None
        log.info("%s changed: its rules take effect for the next match", self.path)
        return config


def with_rules_of(table: Table, config: Config) -> Table:
    """``table`` offering ``config``'s rules for the next match."""
    rules = replace(
        table.config,
        next_match=config.match_record().rules(),
        next_clock=config.clock.rules(),
        accept_illegal=not config.rules.demand_correction,
        roster=config.players.roster,
    )
    return replace(table, config=rules)
