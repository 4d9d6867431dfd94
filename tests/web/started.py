"""A session on a fresh board with its match started as the defaults stand: one held ROLL,
as a player who wants the config's match does."""

from __future__ import annotations

from bgpi.base.words import ROLL, WHITE
from bgpi.service.config import Config
from bgpi.table import Phase
from bgpi.web.run import new_session
from bgpi.web.session import SimSession


def started_session(config: Config, *, seed: int) -> SimSession:
    session = new_session(config, seed=seed)
    sim = session.sim
    assert sim.phase is Phase.CHOOSING
    sim.press(WHITE, ROLL, hold=sim.table.config.long_press + 0.2)
    assert sim.phase is not Phase.CHOOSING
    return session
