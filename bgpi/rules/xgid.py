"""eXtreme Gammon's XGID: a position with its cube, turn, dice and score in one line, as XG
publishes it: ``XGID=`` then ten fields separated by colons.

1. The board in 26 characters, from the bottom player's side: the top player's bar, the
   bottom player's points 1 to 24, the bottom player's bar. ``-`` is an empty point, ``A`` to
   ``P`` one to sixteen of the bottom player's checkers, ``a`` to ``p`` the top player's.
2. The cube as the power of two (0: a cube of 1).
3. Who owns it: 1 the bottom player, -1 the top, 0 centred.
4. Who is to act: 1 the bottom player, -1 the top. While a double waits for its answer, the
   player who must answer.
5. The dice: ``00`` not rolled, ``D`` a double offered, else the two dice.
6. and 7. The bottom and the top player's scores.
8. In a match 1 for the Crawford game; in money play the Jacoby rule (1) plus beavers (2).
9. The match length (0: money).
10. The cube limit as the power of two.

Here White is the bottom player, in White's numbering (the board's printed numbers), so the
XGID reads as the board is seen from White's side.
"""

from __future__ import annotations

from typing import Final

from bgpi.rules.match import Match
from bgpi.rules.position import BAR, POINTS, Position

_EMPTY: Final = "-"


def _point(bottom: int, top: int) -> str:
    if bottom:
        return chr(ord("A") + bottom - 1)
    if top:
        return chr(ord("a") + top - 1)
    return _EMPTY


def xgid(white_view: Position, match: Match) -> str:
    """The XGID of ``white_view`` (the board with White as the player of the position, in
    White's numbering, whoever is on roll) at ``match``'s cube, turn, dice and score."""
    white, black = white_view.player, white_view.opponent
    board = _point(0, black[BAR])
    board += "".join(_point(white[point], black[BAR - point]) for point in range(1, POINTS + 1))
    board += _point(white[BAR], 0)
    owner = 0 if match.cube_owner is None else (1 if match.cube_owner == 0 else -1)
    acting = match.decider() if match.double_offered else (match.turn or 0)
    if match.double_offered:
        dice = "D"
    elif match.dice is not None:
        dice = "".join(str(die) for die in sorted(match.dice, reverse=True))
    else:
        dice = "00"
    rules = match.rules
    money = int(rules.jacoby) + 2 * int(rules.beaver)
    flags = int(match.crawford_game) if rules.length else money
    fields = (
        board,
        match.cube.bit_length() - 1,
        owner,
        1 if acting == 0 else -1,
        dice,
        match.score[0],
        match.score[1],
        flags,
        rules.length,
        rules.cube_limit.bit_length() - 1,
    )
    return "XGID=" + ":".join(str(value) for value in fields)
