"""The cube and the match: score, Crawford, Jacoby, beavers, automatic doubles, resignations,
and gnubg's Match ID.

A :class:`Match` is an immutable value. Each action (opening roll, roll, double, take, win...)
is a method that returns the next value, or raises naming the rule it would break. Players are
:class:`~bgpi.base.words.Player` values, numbered 0 (White) and 1 (Black) as the Match ID
numbers them; a plain 0 or 1 given to a Match or its methods is read as one.

The value holds exactly what gnubg's Match ID holds, so ``Match.from_id(m.id(), m.rules) == m``
for every match these methods can reach. What the ID cannot hold is derived, not stored: the
automatic doubles of a game are the doublings of a centred cube (nothing else turns it without
giving it an owner), and a game is post-Crawford when a player needs one point and it is not
the Crawford game. The number of games and the result of an ended game belong to the journal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import IntEnum
from typing import Final, TypeGuard

from bgpi.base.words import BLACK, WHITE, Player
from bgpi.rules.dice import Roll, check_roll
from bgpi.rules.errors import IllegalCubeActionError, InvalidMatchError
from bgpi.rules.result import GameResult

MAX_LENGTH: Final = 2**15 - 1
"""The longest match, and the highest score, that a Match ID's 15-bit fields can hold."""

MAX_CUBE: Final = 64
"""The highest face of a real doubling cube."""

_CUBE_LIMITS: Final = (2, 4, 8, 16, 32, 64)


class GameState(IntEnum):
    """Where the current game stands. The values are gnubg's (Match ID bits 8-10)."""

    NONE = 0
    """Set up and waiting for the opening roll: nobody is on roll yet."""
    PLAYING = 1
    OVER = 2
    """Won by bearing off all fifteen."""
    RESIGNED = 3
    DROPPED = 4


_ENDED: Final = frozenset({GameState.OVER, GameState.RESIGNED, GameState.DROPPED})

_RESULT_NAMES: Final = {
    GameResult.SINGLE: "single game",
    GameResult.GAMMON: "gammon",
    GameResult.BACKGAMMON: "backgammon",
}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_player(value: object) -> TypeGuard[int]:
    return _is_int(value) and value in (0, 1)


def _check_player(player: object) -> Player:
    if not _is_player(player):
        raise InvalidMatchError(f"player {player!r} is not 0 or 1")
    return Player(player)


@dataclass(frozen=True, slots=True)
class MatchRules:
    """What is played: a match to ``length`` points, or money play (``length`` 0).

    The Crawford rule applies to matches only. Jacoby, beavers and automatic doubles are
    money-play rules and are refused in a match. ``automatic_doubles`` is the most times the
    cube is doubled by opening-roll ties in one game; ``cube_limit`` the highest cube value.
    """

    length: int = 0
    crawford: bool = True
    jacoby: bool = False
    beaver: bool = False
    automatic_doubles: int = 0
    cube_limit: int = MAX_CUBE

    def __post_init__(self) -> None:
        if not _is_int(self.length) or not 0 <= self.length <= MAX_LENGTH:
            raise InvalidMatchError(
                f"match length {self.length!r} is not 0 (money play) to {MAX_LENGTH}"
            )
        for name in ("crawford", "jacoby", "beaver"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidMatchError(f"{name} is {getattr(self, name)!r}, not True or False")
        if not _is_int(self.automatic_doubles) or self.automatic_doubles < 0:
            raise InvalidMatchError(
                f"automatic doubles {self.automatic_doubles!r} is not a count of 0 or more"
            )
        if not _is_int(self.cube_limit) or self.cube_limit not in _CUBE_LIMITS:
            raise InvalidMatchError(
                f"cube limit {self.cube_limit!r} is not a power of two from 2 to {MAX_CUBE}"
            )
        money_only = [
            name
            for name, used in (
                ("the Jacoby rule", self.jacoby),
                ("beavers", self.beaver),
                ("automatic doubles", self.automatic_doubles),
            )
            if used
        ]
        if self.length and money_only:
            raise InvalidMatchError(
                f"{' and '.join(money_only)} cannot be used in a {self.length}-point match: "
                "money play only"
            )

    @property
    def money(self) -> bool:
        """Whether this is money play (a session) rather than a match."""
        return self.length == 0


@dataclass(frozen=True, slots=True)
class Match:
    """The cube and the score of a match (or money session) and where its game stands.

    - ``score``: points of player 0 and player 1.
    - ``cube`` and ``cube_owner``: the cube's value, and who owns it (None: centred).
    - ``crawford_game``: the game set up, in play or just ended is the Crawford game.
    - ``state``: see :class:`GameState`.
    - ``turn``: the player on roll (None before the opening roll). Once the game has ended it
      stays with the last player on roll: the winner, but for a resignation on the resigner's
      own turn.
    - ``dice``: the roll of the player on roll, or None while they have not rolled.
    - ``double_offered``: the player on roll has doubled and the other must answer.
    - ``resignation`` and ``resigner``: what ``resigner`` offers to resign, while the other
      player must answer; once accepted, what was resigned.

    Start with :meth:`new` or :meth:`from_id`; the constructor checks that the state can exist.
    """

    rules: MatchRules
    score: tuple[int, int] = (0, 0)
    cube: int = 1
    cube_owner: Player | None = None
    crawford_game: bool = False
    state: GameState = GameState.NONE
    turn: Player | None = None
    dice: Roll | None = None
    double_offered: bool = False
    resignation: GameResult | None = None
    resigner: Player | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.rules, MatchRules):
            raise InvalidMatchError(f"rules {self.rules!r} are not MatchRules")
        if not isinstance(self.state, GameState):
            raise InvalidMatchError(f"game state {self.state!r} is not a GameState")
        self._check_values()
        self._check_cube()
        self._check_turn()
        self._check_offers()
        self._check_score()
        self._check_crawford()

    # -- construction ------------------------------------------------------------------------

    @classmethod
    def new(cls, rules: MatchRules) -> Match:
        """A match at 0-0 with its first game set up: the next action is the opening roll."""
        return cls(rules)

    def start_game(self) -> Match:
        """Set up the next game once one has ended: the cube back to 1 in the middle.

        The next game is the Crawford game when the Crawford rule is on and the game that just
        ended brought its winner to need exactly one point while the other player needs more.
        """
        if self.state not in _ENDED:
            raise InvalidMatchError(f"cannot start a new game: {self._situation()}")
        if self.match_over:
            raise InvalidMatchError(f"cannot start a new game: player {self.winner} won the match")
        return Match(self.rules, self.score, crawford_game=self._next_is_crawford())

    def _next_is_crawford(self) -> bool:
        if not self.rules.length or not self.rules.crawford or self.crawford_game:
            return False
        one_away = [player for player in Player if self.away(player) == 1]
        # The game's winner alone needing one point means it came to need it in this game;
        # if the loser needs one point, it did so before, in the Crawford game or earlier.
        return one_away == [self.game_winner]

    # -- the turn ----------------------------------------------------------------------------

    def opening_roll(self, die0: int, die1: int) -> Match:
        """Each player rolls one die (``die0`` is player 0's): the higher die moves first and
        plays both dice. A tie is rolled again; in money play it may double the cube first."""
        check_roll((die0, die1))
        if self.state is not GameState.NONE:
            raise InvalidMatchError(f"no opening roll now: {self._situation()}")
        if die0 == die1:
            doubles_done = self.cube.bit_length() - 1  # a centred cube: see the module
            if (
                self.rules.money
                and doubles_done < self.rules.automatic_doubles
                and self.cube * 2 <= self.rules.cube_limit
            ):
                return replace(self, cube=self.cube * 2)
            return self
        first = WHITE if die0 > die1 else BLACK
        return replace(
            self, state=GameState.PLAYING, turn=first, dice=(max(die0, die1), min(die0, die1))
        )

    def roll(self, dice: Sequence[int]) -> Match:
        """The player on roll rolls ``dice``."""
        roll = check_roll(dice)
        reason = self._why_not_act()
        if reason is None and self.dice is not None:
            reason = f"player {self.turn} has already rolled {self.dice[0]}-{self.dice[1]}"
        if reason is not None:
            raise InvalidMatchError(f"no roll now: {reason}")
        return replace(self, dice=roll)

    def end_turn(self) -> Match:
        """The player on roll has played their roll: the other player is on roll."""
        reason = self._why_not_act()
        if reason is None and self.dice is None:
            reason = f"player {self.turn} has not rolled yet"
        if reason is not None:
            raise InvalidMatchError(f"the turn cannot end: {reason}")
        assert self.turn is not None
        return replace(self, turn=self.turn.other, dice=None)

    def _why_not_act(self) -> str | None:
        """Why the player on roll cannot roll or move now, or None."""
        if self.state is not GameState.PLAYING:
            return self._situation()
        if self.double_offered:
            return f"player {self.decider()} must first take or drop the double"
        if self.resignation is not None:
            return f"player {self.decider()} must first accept or decline the resignation"
        return None

    # -- the cube ----------------------------------------------------------------------------

    def may_double(self, player: Player) -> bool:
        """Whether ``player`` may double now."""
        return self.double_refusal(player) is None

    def double_refusal(self, player: Player) -> str | None:
        """Why ``player`` may not double now, as a sentence; None if they may."""
        player = _check_player(player)
        reason = self._why_not_act() or self._why_not_turn_cube(player)
        return None if reason is None else f"player {player} may not double: {reason}"

    def _why_not_turn_cube(self, player: Player) -> str | None:
        """Why ``player`` may not turn the cube in a game in play with nothing pending."""
        away = self.away(player) if self.rules.length else MAX_LENGTH + 1
        refusals = (
            (self.turn != player, f"it is player {self.turn}'s turn"),
            (self.dice is not None, "they have already rolled"),
            (self.crawford_game, "this is the Crawford game"),
            (self.cube_owner == player.other, f"player {player.other} owns the cube"),
            (self.cube * 2 > self.rules.cube_limit, f"the cube is at {self.cube}, the limit"),
            (away == 1, "they need only one point to win the match"),
            # A dead cube: turning it would hand the opponent more than can be won.
            (
                self.cube >= away,
                f"the cube at {self.cube} already wins the {away} points they need",
            ),
        )
        return next((reason for refused, reason in refusals if refused), None)

    def double(self) -> Match:
        """The player on roll doubles, before rolling; the other player must take or drop."""
        if self.turn is None:
            raise IllegalCubeActionError(f"nobody may double: {self._situation()}")
        reason = self.double_refusal(self.turn)
        if reason is not None:
            raise IllegalCubeActionError(reason)
        return replace(self, double_offered=True)

    def take(self) -> Match:
        """The doubled player takes: the cube doubles and is theirs; the doubler rolls."""
        taker = self._answering_double("take")
        return replace(self, cube=self.cube * 2, cube_owner=taker, double_offered=False)

    def drop(self) -> Match:
        """The doubled player drops: the doubler wins the cube's value before the double."""
        dropper = self._answering_double("drop")
        return replace(
            self,
            state=GameState.DROPPED,
            score=self._scored(dropper.other, self.cube),
            double_offered=False,
        )

    def beaver(self) -> Match:
        """The doubled player takes and at once redoubles, keeping the cube (money play with
        beavers only): the cube is worth four times what it was, and the doubler rolls."""
        beaverer = self._answering_double("beaver")
        if not self.rules.money:
            raise IllegalCubeActionError(
                f"player {beaverer} may not beaver: beavers belong to money play, "
                f"not to a {self.rules.length}-point match"
            )
        if not self.rules.beaver:
            raise IllegalCubeActionError(
                f"player {beaverer} may not beaver: beavers are not in these rules"
            )
        if self.cube * 4 > self.rules.cube_limit:
            raise IllegalCubeActionError(
                f"player {beaverer} may not beaver: the cube would pass its limit "
                f"{self.rules.cube_limit}"
            )
        return replace(self, cube=self.cube * 4, cube_owner=beaverer, double_offered=False)

    def _answering_double(self, action: str) -> Player:
        """The player who answers the pending double, or raise naming why ``action`` is out."""
        if self.state is not GameState.PLAYING or not self.double_offered:
            raise IllegalCubeActionError(
                f"nobody may {action}: no double is offered ({self._situation()})"
            )
        return self.decider()

    # -- resignations ------------------------------------------------------------------------

    def resign(self, player: Player, result: GameResult) -> Match:
        """``player`` offers to resign the game as ``result`` (times the cube); the other
        player must accept or decline. Either player may offer, on either turn."""
        player = _check_player(player)
        if not isinstance(result, GameResult):
            raise InvalidMatchError(f"{result!r} is not a GameResult to resign")
        reason = self._why_not_act()
        if reason is not None:
            raise InvalidMatchError(f"player {player} cannot resign now: {reason}")
        return replace(self, resignation=result, resigner=player)

    def accept_resignation(self) -> Match:
        """The other player accepts the resignation: they win what was offered, times the
        cube. The Jacoby rule does not reduce it: GNU Backgammon scores a resignation as the
        cube times the level offered, even a gammon with the cube centred in a Jacoby money
        game (and reads a ``.mat`` game won without a bear-off as a resignation of the points
        over the cube). A resigned gammon is worth two there; a player who wants to concede
        only a single offers a single."""
        resigner, resignation = self._pending_resignation("accept")
        return replace(
            self,
            state=GameState.RESIGNED,
            score=self._scored(resigner.other, int(resignation) * self.cube),
        )

    def decline_resignation(self) -> Match:
        """The other player declines the resignation: the game goes on."""
        self._pending_resignation("decline")
        return replace(self, resignation=None, resigner=None)

    def _pending_resignation(self, action: str) -> tuple[Player, GameResult]:
        if self.state is not GameState.PLAYING or self.resigner is None or self.resignation is None:
            raise InvalidMatchError(f"no resignation to {action}: {self._situation()}")
        return self.resigner, self.resignation

    # -- the end of a game and of the match --------------------------------------------------

    def points_for(self, result: GameResult) -> int:
        """What winning ``result`` is worth now: its value times the cube, except that under
        the Jacoby rule gammons and backgammons count as single while the cube is centred."""
        if self.rules.money and self.rules.jacoby and self.cube_owner is None:
            return self.cube
        return int(result) * self.cube

    def win(self, winner: Player, result: GameResult) -> Match:
        """``winner``, on roll, has borne off their last checker: the game is ``result``."""
        winner = _check_player(winner)
        if not isinstance(result, GameResult):
            raise InvalidMatchError(f"{result!r} is not a GameResult")
        reason = self._why_not_act()
        if reason is None and self.turn != winner:
            reason = f"it is player {self.turn}'s turn"
        if reason is None and self.dice is None:
            reason = f"player {winner} has not rolled"
        if reason is not None:
            raise InvalidMatchError(f"player {winner} cannot win now: {reason}")
        return replace(
            self, state=GameState.OVER, score=self._scored(winner, self.points_for(result))
        )

    def _scored(self, player: Player, points: int) -> tuple[int, int]:
        score = list(self.score)
        score[player] += points
        return score[0], score[1]

    @property
    def game_winner(self) -> Player | None:
        """Who won the game that has just ended; None while one is set up or in play."""
        if self.state is GameState.RESIGNED:
            assert self.resigner is not None
            return self.resigner.other
        if self.state in _ENDED:
            return self.turn
        return None

    @property
    def match_over(self) -> bool:
        """Whether a player has reached the match length (never, in money play)."""
        return bool(self.rules.length) and max(self.score) >= self.rules.length

    @property
    def winner(self) -> Player | None:
        """The winner of the match once it is over, else None."""
        if not self.match_over:
            return None
        return WHITE if self.score[WHITE] >= self.rules.length else BLACK

    def away(self, player: Player) -> int:
        """The points ``player`` still needs to win the match (0 once they have won it)."""
        player = _check_player(player)
        if not self.rules.length:
            raise InvalidMatchError("money play has no match length to count points away from")
        return max(self.rules.length - self.score[player], 0)

    @property
    def post_crawford(self) -> bool:
        """Whether the game set up or in play comes after the Crawford game: under the
        Crawford rule, a player needs one point and this is not the Crawford game.

        False once the game has ended: the next game's status is settled by
        :meth:`start_game`, from the ended game's winner.
        """
        return (
            self.state in (GameState.NONE, GameState.PLAYING)
            and bool(self.rules.length)
            and self.rules.crawford
            and not self.crawford_game
            and min(self.away(WHITE), self.away(BLACK)) == 1
        )

    # -- gnubg Match ID ----------------------------------------------------------------------

    def id(self) -> str:
        """The gnubg Match ID (see :mod:`bgpi.rules.matchid`)."""
        # matchid builds Match values, so it is imported when first used.
        from bgpi.rules.matchid import encode  # noqa: PLC0415

        return encode(self)

    def decider(self) -> Player:
        """Whose decision it is: the answering player while an offer is pending or after a
        drop or a resignation, else the player on roll (White before the opening roll)."""
        if self.resigner is not None:
            return self.resigner.other
        if self.double_offered or self.state is GameState.DROPPED:
            assert self.turn is not None
            return self.turn.other
        return self.turn or WHITE

    @classmethod
    def from_id(cls, match_id: str, rules: MatchRules | None = None) -> Match:
        """Decode a gnubg Match ID (see :mod:`bgpi.rules.matchid`)."""
        from bgpi.rules.matchid import decode  # noqa: PLC0415

        return decode(match_id, rules)

    # -- checks ------------------------------------------------------------------------------

    def _check_values(self) -> None:
        """Each field on its own; the other checks then compare them."""
        score = self.score
        if (
            not isinstance(score, tuple)
            or len(score) != 2
            or not all(_is_int(points) and points >= 0 for points in score)
        ):
            raise InvalidMatchError(f"score {score!r} is not two counts of points")
        for name in ("cube_owner", "turn", "resigner"):
            value = getattr(self, name)
            if value is None:
                continue
            if not _is_player(value):
                raise InvalidMatchError(f"{name.replace('_', ' ')} {value!r} is not 0 or 1")
            object.__setattr__(self, name, Player(value))
        if self.resignation is not None and not isinstance(self.resignation, GameResult):
            raise InvalidMatchError(f"resignation {self.resignation!r} is not a GameResult")
        if self.dice is not None and (
            not isinstance(self.dice, tuple) or check_roll(self.dice) != self.dice
        ):
            raise InvalidMatchError(f"dice {self.dice!r} are not a tuple of two dice")

    def _check_score(self) -> None:
        score = self.score
        length = self.rules.length
        reached = [player for player in Player if length and score[player] >= length]
        if not reached:
            return
        if self.state not in _ENDED:
            raise InvalidMatchError(
                f"score {score[0]}-{score[1]} in a {length}-point match leaves no game to play"
            )
        if reached != [self.game_winner]:
            raise InvalidMatchError(
                f"score {score[0]}-{score[1]} in a {length}-point match: only the winner "
                f"of the last game (player {self.game_winner}) can have reached {length}"
            )

    def _check_cube(self) -> None:
        cube, limit = self.cube, self.rules.cube_limit
        if not _is_int(cube) or cube < 1 or cube & (cube - 1):
            raise InvalidMatchError(f"cube {cube!r} is not a power of two")
        if cube > limit:
            raise InvalidMatchError(f"cube {cube} passes the cube limit {limit}")
        if self.cube_owner is not None:
            if cube == 1:
                raise InvalidMatchError("a cube at 1 has not been turned, so nobody owns it")
            if self.state is GameState.NONE:
                raise InvalidMatchError("the cube is owned before the opening roll")
            return
        # A centred cube above 1 can only come from automatic doubles.
        doubles = cube.bit_length() - 1
        if doubles and self.rules.length:
            raise InvalidMatchError(
                f"a centred cube at {cube} in a match: automatic doubles are for money play"
            )
        if doubles > self.rules.automatic_doubles:
            raise InvalidMatchError(
                f"a centred cube at {cube} needs {doubles} automatic doubles; "
                f"the rules allow {self.rules.automatic_doubles}"
            )

    def _check_turn(self) -> None:
        if self.state is GameState.NONE:
            if self.turn is not None or self.dice is not None:
                raise InvalidMatchError("a player is on roll before the opening roll")
        elif self.turn is None:
            raise InvalidMatchError(f"game state {self.state.name} needs a player on roll")
        if self.state is GameState.DROPPED and self.dice is not None:
            raise InvalidMatchError("dice rolled in a dropped game: a double comes before the roll")

    def _check_offers(self) -> None:
        if (self.resignation is None) != (self.resigner is None):
            raise InvalidMatchError("a resignation needs both its value and who offers it")
        if self.resignation is not None and self.state not in (
            GameState.PLAYING,
            GameState.RESIGNED,
        ):
            raise InvalidMatchError(f"a resignation in game state {self.state.name}")
        if self.state is GameState.RESIGNED and self.resignation is None:
            raise InvalidMatchError("a resigned game without the resignation")
        if not self.double_offered:
            return
        if self.state is not GameState.PLAYING:
            raise InvalidMatchError(f"a double offered in game state {self.state.name}")
        if self.resignation is not None:
            raise InvalidMatchError("a double and a resignation offered at once")
        assert self.turn is not None
        refusal = replace(self, double_offered=False).double_refusal(self.turn)
        if refusal is not None:
            raise InvalidMatchError(f"a double is offered but {refusal}")

    def _check_crawford(self) -> None:
        if not self.crawford_game:
            return
        length = self.rules.length
        if not length or not self.rules.crawford:
            raise InvalidMatchError("a Crawford game without the Crawford rule in a match")
        if self.cube != 1 or self.cube_owner is not None:
            raise InvalidMatchError(f"the cube was turned to {self.cube} in the Crawford game")
        one_away = [player for player in Player if length - self.score[player] == 1]
        if self.state in _ENDED:
            # The winner may since have passed the length or come to need one point too.
            winner = self.game_winner
            assert winner is not None
            began_right = winner.other in one_away or (
                self.match_over and length - self.score[winner.other] > 1
            )
        else:
            began_right = len(one_away) == 1
        if not began_right:
            raise InvalidMatchError(
                f"score {self.score[0]}-{self.score[1]} cannot be the Crawford game of a "
                f"{length}-point match: exactly one player needs one point in that game"
            )

    # -- text --------------------------------------------------------------------------------

    def __str__(self) -> str:
        length = self.rules.length
        parts = [
            f"{length}-point match" if length else "money game",
            f"{self.score[0]}-{self.score[1]}",
        ]
        if self.cube_owner is not None:
            parts.append(f"cube {self.cube} owned by player {self.cube_owner}")
        else:
            parts.append(f"cube {self.cube} centred" if self.cube > 1 else "cube centred")
        if self.crawford_game:
            parts.append("Crawford game")
        elif self.post_crawford:
            parts.append("post-Crawford")
        parts.append(self._situation())
        return ", ".join(parts)

    def _situation(self) -> str:
        """Where the game stands, in words."""
        turn, other = self.turn, None if self.turn is None else self.turn.other
        if self.state is GameState.NONE:
            return "waiting for the opening roll"
        if self.state is GameState.PLAYING:
            if self.double_offered:
                return f"player {turn} doubles to {self.cube * 2}, player {other} to answer"
            if self.resigner is not None and self.resignation is not None:
                return (
                    f"player {self.resigner} offers to resign a "
                    f"{_RESULT_NAMES[self.resignation]}, player {self.resigner.other} to answer"
                )
            if self.dice is not None:
                return f"player {turn} rolled {self.dice[0]}-{self.dice[1]}"
            return f"player {turn} on roll"
        if self.state is GameState.RESIGNED and self.resignation is not None:
            game = f"player {self.resigner} resigned a {_RESULT_NAMES[self.resignation]}"
        elif self.state is GameState.DROPPED:
            game = f"player {other} dropped, player {turn} won the game"
        else:
            game = f"player {turn} won the game"
        if self.match_over:
            game += " and the match"
        return game
