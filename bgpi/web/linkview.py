"""A remote match on the page (``bgpi run``'s companion page and ``bgpi sim --remote``): the
match code, as text and as a QR code for the other player's phone, this board's side, and
the link's state: a stable key for the page's styles and tests, and its words for the player.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from bgpi.base.i18n import _
from bgpi.present.phrases import SIDES
from bgpi.remote.pairing import side_name
from bgpi.web.qr import qr_svg

if TYPE_CHECKING:
    from bgpi.remote.board import RemoteStatus


def remote_message(status: RemoteStatus) -> dict[str, Any]:
    """The ``remote`` part of the page's state message."""
    return {
        "code": status.code,
        "side": side_name(status.side),
        "side_words": _(SIDES[status.side]),
        "state": status.state.value,
        "words": _(status.state.value),
        "reason": status.reason,
        "qr": _qr(status.code),
    }


@lru_cache(maxsize=4)
def _qr(code: str) -> str:
    """Drawn once per code: the page's state is sent again with every change."""
    return qr_svg(code)
