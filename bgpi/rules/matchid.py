"""gnubg's Match ID: the cube, the score, the match length and where the game stands, in
66 bits written as 12 characters of base64 (the layout is gnubg manual's section 11.7), and
GNU Backgammon 1.1's bit 66: set when the Jacoby rule is not used (a match, or money play
without it), clear for money play with it. IDs of older versions leave it clear; in a match
that changes nothing, and a money ID without it reads as Jacoby on, as gnubg 1.1 reads it."""

from __future__ import annotations

from typing import Final

from bgpi.base.words import Player
from bgpi.rules import bits
from bgpi.rules.errors import InvalidMatchError, RulesError
from bgpi.rules.match import MAX_LENGTH, GameState, Match, MatchRules
from bgpi.rules.result import GameResult

# gnubg's Match ID: 66 bits, each field least significant bit first, in this order.
_ID_LAYOUT: Final = (
    ("cube", 4),  # log2 of the cube value
    ("owner", 2),  # 0, 1, or 3 for centred
    ("dice_owner", 1),  # the player on roll
    ("crawford", 1),
    ("state", 3),
    ("decider", 1),  # whose decision it is: the other player while an offer awaits an answer
    ("doubled", 1),
    ("resigned", 2),  # 0 none, else the GameResult offered
    ("die1", 3),
    ("die2", 3),
    ("length", 15),
    ("score0", 15),
    ("score1", 15),
    ("no_jacoby", 1),  # gnubg 1.1: bit 66
)
_ID_BITS: Final = sum(width for _, width in _ID_LAYOUT)
_ID_BYTES: Final = 9
_CENTRED: Final = 3


def encode(match: Match) -> str:
    """The gnubg Match ID: 12 characters of base64 for 66 bits.

    Before the opening roll nobody is on roll and the player bits are 0. After a drop the
    decision bit names the player who dropped, as gnubg leaves it. The dice are written the
    higher first, and bit 66 is set unless the Jacoby rule is used, both as gnubg 1.1 does.
    """
    if max(match.score) > MAX_LENGTH:
        raise InvalidMatchError(
            f"score {match.score[0]}-{match.score[1]} does not fit a Match ID "
            f"(at most {MAX_LENGTH})"
        )
    # The higher die first, as gnubg writes a roll (the ID could hold either order).
    die1, die2 = sorted(match.dice or (0, 0), reverse=True)
    values = {
        "cube": match.cube.bit_length() - 1,
        "owner": _CENTRED if match.cube_owner is None else match.cube_owner,
        "dice_owner": match.turn or 0,
        "crawford": int(match.crawford_game),
        "state": int(match.state),
        "decider": match.decider(),
        "doubled": int(match.double_offered),
        "resigned": int(match.resignation or 0),
        "die1": die1,
        "die2": die2,
        "length": match.rules.length,
        "score0": match.score[0],
        "score1": match.score[1],
        "no_jacoby": int(not match.rules.jacoby),
    }
    key: list[int] = []
    for name, width in _ID_LAYOUT:
        bits.put(key, values[name], width)
    return bits.encode(key, _ID_BYTES)


def decode(match_id: str, rules: MatchRules | None = None) -> Match:
    """Decode a gnubg Match ID.

    The ID has the match length and (since gnubg 1.1) whether money play uses the Jacoby
    rule, but not the other money-play options: pass ``rules`` (of the same length) to
    supply them all. Without it, the defaults, with the Jacoby rule as the ID says and as
    many automatic doubles as a centred money cube shows.
    """
    try:
        key = bits.decode(match_id, _ID_BYTES, "Match ID")
    except ValueError as exc:
        raise InvalidMatchError(str(exc)) from None
    try:
        return _from_key(key, rules)
    except RulesError as exc:
        raise InvalidMatchError(f"Match ID {match_id!r}: {exc}") from None


def _from_key(key: list[int], rules: MatchRules | None) -> Match:
    if any(key[_ID_BITS:]):
        raise InvalidMatchError(f"bits after the first {_ID_BITS} are set")
    fields: dict[str, int] = {}
    start = 0
    for name, width in _ID_LAYOUT:
        fields[name] = bits.field(key, start, width)
        start += width
    _check_id_fields(fields)
    owner = None if fields["owner"] == _CENTRED else Player(fields["owner"])
    cube = 1 << fields["cube"]
    if rules is None:
        money = not fields["length"]
        automatic = fields["cube"] if owner is None and money else 0
        jacoby = money and not fields["no_jacoby"]
        rules = MatchRules(fields["length"], jacoby=jacoby, automatic_doubles=automatic)
    elif rules.length != fields["length"]:
        raise InvalidMatchError(
            f"match length {fields['length']} differs from the rules' {rules.length}"
        )
    state = GameState(fields["state"])
    playing = state is not GameState.NONE
    resigner = Player(fields["decider"]).other if fields["resigned"] else None
    return Match(
        rules,
        (fields["score0"], fields["score1"]),
        cube,
        owner,
        bool(fields["crawford"]),
        state,
        Player(fields["dice_owner"]) if playing else None,
        (fields["die1"], fields["die2"]) if fields["die1"] else None,
        bool(fields["doubled"]),
        GameResult(fields["resigned"]) if fields["resigned"] else None,
        resigner,
    )


def _check_id_fields(fields: dict[str, int]) -> None:
    """Refuse values no field of a Match ID can take."""
    if fields["owner"] == 2:
        raise InvalidMatchError("cube owner field is 2; it must be 0, 1 or 3 (centred)")
    if fields["state"] >= len(GameState):
        raise InvalidMatchError(f"game state {fields['state']} is not 0 to {len(GameState) - 1}")
    dice = (fields["die1"], fields["die2"])
    if max(dice) > 6 or (0 in dice and dice != (0, 0)):
        raise InvalidMatchError(f"dice {dice[0]}-{dice[1]} are not two dice of 1 to 6, or 0-0")
    if fields["doubled"] and fields["resigned"]:
        raise InvalidMatchError("a double and a resignation offered at once")
    playing = fields["state"] == GameState.PLAYING
    if playing and fields["doubled"] and fields["decider"] == fields["dice_owner"]:
        raise InvalidMatchError("the player who doubled is the one to answer the double")
    offer = fields["doubled"] or fields["resigned"]
    if playing and not offer and fields["decider"] != fields["dice_owner"]:
        raise InvalidMatchError("turn and dice owners differ with no offer to answer")
    if fields["state"] == GameState.NONE and (fields["die1"] or fields["doubled"]):
        raise InvalidMatchError("dice or a double before the opening roll")
