"""How a game ends and what it is worth before the cube."""

from __future__ import annotations

from enum import IntEnum

from bgpi.rules.position import BAR, CHECKERS, OFF, Position


class GameResult(IntEnum):
    """What a won game is worth before the cube: its value is the multiplier."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


def game_result(pos: Position) -> GameResult | None:
    """The result if the player on roll in ``pos`` has borne off all fifteen, else None.

    Pass the position a winning play leaves, from the winner's view (``Play.result``).
    A gammon: the loser has borne off none. A backgammon: a gammon with a loser's checker
    still on the bar or in the winner's home board.
    """
    if pos.player[OFF] != CHECKERS:
        return None
    loser = pos.opponent
    if loser[OFF]:
        return GameResult.SINGLE
    # The winner's home board (points 1-6) is the loser's 19-24; the bar is the loser's 25.
    if any(loser[19 : BAR + 1]):
        return GameResult.BACKGAMMON
    return GameResult.GAMMON
