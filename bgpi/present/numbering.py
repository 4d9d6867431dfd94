"""The board's printed numbering, the one numbering a player at the table reads.

The board's points are printed from White's side: White's home is 1-6, Black's 19-24. The
rules count each side from its own ace point (gnubg's way), so White's own numbers are the
printed ones and Black's point ``p`` is printed ``25 - p``: Black's 8/2 is the board's
17/23. Everything a player reads (the page, the game log, ``bgpi demo``, ``bgpi status``)
writes points this way; gnubg's numbering stays in the ``.mat`` export and the IDs.
"""

from __future__ import annotations

from collections.abc import Sequence

from bgpi.base.words import BLACK, Player, check_colour
from bgpi.rules import BAR, OFF, Move, format_moves
from bgpi.rules.notation import point_name


def printed_point(colour: Player, point: int) -> int:
    """The printed number of ``colour``'s own point 1-24."""
    if not 1 <= point < BAR:
        raise ValueError(f"point {point} is not 1-24")
    return 25 - point if check_colour(colour) == BLACK else point


def printed_name(colour: Player, point: int) -> str:
    """``bar``, ``off`` or the printed number of ``colour``'s own ``point``."""
    if point in (BAR, OFF):
        return point_name(point)
    return str(printed_point(colour, point))


def printed_moves(colour: Player, moves: Sequence[Move]) -> str:
    """``colour``'s moves (in its own numbering) written in the printed one, e.g. Black's
    8/2 6/2 as ``17/23 19/23``; ``""`` for no moves."""
    check_colour(colour)
    return format_moves(moves, name=lambda point: printed_name(colour, point))
