from __future__ import annotations

from typing import Any

import pytest

from bgpi.base.words import BLACK, WHITE
from bgpi.lights import Meaning, Scene, SceneError


def test_the_default_scene_is_a_quiet_money_game() -> None:
    scene = Scene()
    assert (scene.turn, scene.dice, scene.cube_value, scene.score, scene.length) == (
        None,
        (),
        1,
        (0, 0),
        0,
    )
    assert scene == Scene()
    assert hash(scene) == hash(Scene())


def test_prompt_reads_a_buttons_meaning() -> None:
    scene = Scene(
        turn=BLACK, prompts=((BLACK, "roll", Meaning.END_TURN), (WHITE, "cube", Meaning.TAKE))
    )
    assert scene.prompt(BLACK, "roll") is Meaning.END_TURN
    assert scene.prompt(WHITE, "cube") is Meaning.TAKE
    assert scene.prompt(WHITE, "roll") is None


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"destinations": frozenset({29})}, "destinations names zone 29, not a zone 1-28"),
        ({"lifted": frozenset({0})}, "lifted names zone 0"),
        ({"extra": ((7, 0),)}, "extra gives point 7 a count of 0: a count is 1 or more"),
        ({"missing": ((25, 1), (25, 2))}, "missing names white bar twice"),
        ({"extra": ((3, 1),), "missing": ((3, 2),)}, "point 3 is in both extra and missing"),
        ({"missing": ((3,),)}, r"missing holds \(3,\), not a \(zone, count\) pair"),
        ({"turn": 2}, "turn is 2, not 0 .white., 1 .black. or None"),
        ({"winner": True}, "winner is True"),
        ({"turn": 0, "dice": (3,)}, r"dice \(3,\) are not a roll of two dice"),
        ({"turn": 0, "dice": (3, 7)}, "dice holds a die of 7, not 1 to 6"),
        ({"dice": (3, 1)}, "shown on the side of the player on turn: no turn"),
        ({"turn": 0, "dice": (3, 1), "dice_left": (5,)}, r"dice_left \(5,\) are not dice of"),
        ({"turn": 0, "dice": (3, 1), "dice_left": (3, 3)}, "are not dice of the roll"),
        ({"turn": 0, "dice": (2, 2), "dice_left": (2,) * 5}, "are not dice of the roll"),
        ({"opening_dice": (0, None)}, "opening_dice holds a die of 0"),
        ({"cube_value": 3}, "cube_value 3 is not a power of two"),
        ({"cube_value": 0}, "cube_value 0 is not a power of two"),
        ({"score": (-1, 0)}, "score .* is not two counts of points"),
        ({"length": -3}, "length -3 is not a match length"),
        ({"prompts": ((0, "doubling", Meaning.DOUBLE),)}, "names button 'doubling', not one of"),
        ({"prompts": ((0, "cube", "redouble"),)}, "means 'redouble', not a Meaning .Meaning.ROLL"),
        ({"prompts": ((0, "cube", "take"),)}, "means 'take', not a Meaning"),
        ({"prompts": ((2, "cube", Meaning.TAKE),)}, "a prompt's player is 2"),
        ({"prompts": ((None, "cube", Meaning.TAKE),)}, "names no player"),
        (
            {"prompts": ((0, "roll", Meaning.ROLL), (0, "roll", Meaning.NEXT))},
            "white's roll button is prompted twice",
        ),
        ({"alert": "oops"}, r"alert 'oops' is not an Alert \(Alert.WRONG, Alert.NO_MOVE"),
        ({"alert": "wrong"}, "alert 'wrong' is not an Alert"),
    ],
)
def test_a_scene_that_cannot_be_shown_is_refused_naming_the_field(
    fields: dict[str, Any], message: str
) -> None:
    with pytest.raises(SceneError, match=message):
        Scene(**fields)


def test_the_dice_of_a_double_are_four_to_play() -> None:
    Scene(turn=1, dice=(5, 5), dice_left=(5, 5, 5, 5))
    Scene(turn=1, dice=(6, 2), dice_left=(2, 6))
