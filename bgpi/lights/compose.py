"""Scene -> marks: which look each thing of the game gets.

Every look pairs a palette colour with a pattern in time or in space, so the meaning survives a
palette that a colour-blind player cannot tell apart (see :mod:`bgpi.lights.patterns`).

On the points, bars and trays a zone shows one meaning only, the most urgent one (the order of
:data:`ZONE_LOOKS`): a mixture of two blinks on one point would read as neither.

=============== ====================================== ===================================
zone meaning    pixels of the zone                     pattern
=============== ====================================== ===================================
mistake         all                                    double flash
extra           ``count`` from the tip                 fast blink
missing         ``count`` from the base                wink (long on, short off)
lifted          all                                    slow blink
destination     all                                    steady
candidate       all, odd and even pixels in turn       chase
correct         the base pixel, dim                    steady
last play       every other pixel from the base, dim   steady
=============== ====================================== ===================================

A point's stack grows from its base, so the pixels lit from the base for "missing" sit where
the checkers go; the "extra" ones are counted from the tip, away from the stack, and the count
reads the same however many checkers are on the point. Spatial looks need room: on a zone of
one pixel, destination, correct and last play differ by colour and level only.

The areas (:data:`~bgpi.lights.ledmap.AREAS`):

- **cube**: at its owner's place, or the centre; a bar graph of its doublings from the first
  pixel (2 lights one, 64 six; more saturates), nothing at 1. An offered double shows the new
  value in a double flash. The Crawford game: a dim dotted line (pixels 1, 3, 5...) at the
  centre, which no value draws.
- **dice**: on the side of the player on turn, one half of the area per die, the value being
  the number of lit pixels from the half's first. A die to play is steady; a played die keeps
  only its last pixel, dim; a double's four moves are two per half (the first half played
  first), and a half with one of its two moves left winks. Before the first turn each player's
  opening die shows on their own side.
- **score**: points won, a pixel a point, with the goal (the match length) as a dim pixel. A
  match longer than the bar counts several points a pixel
  (:func:`~bgpi.lights.marks.points_per_pixel`: 25 points on 15 pixels is two a pixel), and a
  score between two steps lights the next pixel dim. A money game saturates.
- **turn**: steady in the colour of the player on turn; an alert replaces it with its blink
  (:data:`ALERT_LOOKS`) on both players' turn lights, or the one of the player on turn (no
  move) or of the winner (game over, match over).
- **resignation**: the level chosen or offered (1 single, 2 gammon, 3 backgammon) as that
  many pixels of the resigner's dice area, slow blink while chosen, double flash once offered.
- **buttons**: each prompted button in its meaning's colour and blink (:data:`BUTTON_PATTERNS`).
- **clock**: each player's reserve left, as a bar from the first pixel (a full bar is the
  game's reserve; a reserve not yet spent lights one pixel at least), in the player's colour;
  while the running player's delay runs (the reserve untouched) the bar is dim, in the delay's
  colour; in the running player's last minute it blinks slowly.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from bgpi.base.words import COLOUR_NAMES, PLAYERS
from bgpi.lights.marks import ALL, Fill, Gauge, Mark, Span, Target
from bgpi.lights.patterns import (
    CHASE,
    DAH_DAH,
    DAH_DIT,
    DAH_DIT_DAH,
    DAH_DIT_DIT,
    DIT_DAH,
    DIT_DIT_DAH,
    DIT_GAP_DIT,
    DOUBLE_FLASH,
    FAST,
    FLASH,
    LONG_DIT,
    MEDIUM,
    SLOW,
    STEADY,
    TRIPLE_FLASH,
    WINK,
    Pattern,
)
from bgpi.lights.scene import Alert, Meaning, Scene


@dataclass(frozen=True, slots=True)
class ZoneLook:
    """How a zone shows one meaning; ``span``'s count is set from the scene for counted ones."""

    colour: str
    pattern: Pattern
    span: Span
    dim: bool = False


# A mistake just explained (the page says it in words) flashes its points for a few seconds
# over everything else, then gives way to what to take away and add.
MISTAKE: Final = ZoneLook("mistake", DOUBLE_FLASH, ALL)
EXTRA: Final = ZoneLook("extra", FAST, Span(from_end=True))
MISSING: Final = ZoneLook("missing", WINK, ALL)
LIFTED: Final = ZoneLook("lifted", SLOW, ALL)
DESTINATION: Final = ZoneLook("destination", STEADY, ALL)
CANDIDATE: Final = ZoneLook("candidate", CHASE, ALL)
CORRECT: Final = ZoneLook("correct", STEADY, Span(count=1), dim=True)
LAST_PLAY: Final = ZoneLook("last play", STEADY, Span(step=2), dim=True)
ZONE_LOOKS: Final = (MISTAKE, EXTRA, MISSING, LIFTED, DESTINATION, CANDIDATE, CORRECT, LAST_PLAY)
"""The zone looks, most urgent first."""

BUTTON_PATTERNS: Final[dict[Meaning, Pattern]] = {
    Meaning.ROLL: STEADY,
    Meaning.DOUBLE: DOUBLE_FLASH,
    Meaning.TAKE: WINK,
    Meaning.DROP: FAST,
    Meaning.BEAVER: TRIPLE_FLASH,
    Meaning.END_TURN: SLOW,
    Meaning.CONFIRM: MEDIUM,
    Meaning.NEXT: FLASH,
    Meaning.CHANGE: DAH_DIT_DIT,
    Meaning.ACKNOWLEDGE: DAH_DIT,
    Meaning.NEW_GAME: DIT_DAH,
    Meaning.RESIGN: DAH_DAH,
    Meaning.ACCEPT: LONG_DIT,
    Meaning.DECLINE: DIT_GAP_DIT,
    Meaning.CLAIM: DIT_DIT_DAH,
    # Lit at once with ACCEPT (long-dit) and DECLINE (dit-gap-dit) on the opponent's buttons:
    # no rotation of either, so the asker tells his own from theirs whatever phase he catches.
    Meaning.WITHDRAW: DAH_DIT_DAH,
}
"""Each button meaning's blink; its colour is the palette entry of the same name."""

# alert -> (pattern, whose turn areas: "both", "turn" (the player on turn) or "winner").
ALERT_LOOKS: Final[dict[Alert, tuple[Pattern, str]]] = {
    Alert.WRONG: (FAST, "both"),
    Alert.NO_MOVE: (DOUBLE_FLASH, "turn"),
    Alert.GAME_OVER: (SLOW, "winner"),
    Alert.MATCH_OVER: (CHASE, "winner"),
    Alert.FAULT: (TRIPLE_FLASH, "both"),
    Alert.AGAIN: (DAH_DIT, "turn"),
}

CUBE_PLACES: Final = ("cube.white", "cube.black")
CENTRE: Final = "cube.centre"


def compose(scene: Scene) -> tuple[Mark, ...]:
    """The marks that show ``scene``. Where two marks claim a pixel, the first one wins."""
    return (
        *_zone_marks(scene),
        *_cube_marks(scene),
        *_resign_marks(scene),
        *_dice_marks(scene),
        *_score_marks(scene),
        *_turn_marks(scene),
        *_button_marks(scene),
        *_clock_marks(scene),
    )


def _zone_marks(scene: Scene) -> tuple[Mark, ...]:
    layers: tuple[tuple[ZoneLook, dict[int, int | None]], ...] = (
        (MISTAKE, dict.fromkeys(scene.mistake)),
        (EXTRA, dict(scene.extra)),
        (MISSING, dict(scene.missing)),
        (LIFTED, dict.fromkeys(scene.lifted)),
        (DESTINATION, dict.fromkeys(scene.destinations)),
        (CANDIDATE, dict.fromkeys(scene.candidate)),
        (CORRECT, dict.fromkeys(scene.correct)),
        (LAST_PLAY, dict.fromkeys(scene.last_play)),
    )
    shown: dict[Target, Mark] = {}
    for look, zones in layers:
        for zone, count in sorted(zones.items()):
            span = look.span if count is None else replace(look.span, count=count)
            shown.setdefault(zone, Mark(zone, span, look.colour, look.pattern, look.dim))
    return tuple(shown.values())


def _cube_marks(scene: Scene) -> tuple[Mark, ...]:
    # Crawford: a dotted line at the centre that no cube value draws (values light a run of
    # pixels from the first), so "no cube this game" is not mistaken for a cube at 2. A place
    # of one pixel cannot draw it: give the centre two or more.
    if not scene.cube_available:
        return (Mark(CENTRE, Span(start=1, step=2), "cube unavailable", dim=True),)
    place = CENTRE if scene.cube_owner is None else CUBE_PLACES[scene.cube_owner]
    doublings = scene.cube_value.bit_length() - 1
    if scene.cube_offered:
        return (Mark(place, Span(count=doublings + 1), "cube", DOUBLE_FLASH),)
    # A cube at 1 lights nothing: the bar graph counts doublings, and a dim full bar for 1
    # would differ from a bright full bar for 64 by level only.
    return (Mark(place, Span(count=doublings), "cube"),) if doublings else ()


def _resign_marks(scene: Scene) -> tuple[Mark, ...]:
    # On the resigner's dice: a pixel per level (single, gammon, backgammon), slow while
    # chosen, a double flash once offered (as an offered double shows on the cube).
    if not scene.resign or scene.turn is None:
        return ()
    pattern = DOUBLE_FLASH if scene.resign_offered else SLOW
    area = f"dice.{COLOUR_NAMES[scene.turn]}"
    return (Mark(area, Span(count=scene.resign), "resign", pattern),)


def _dice_marks(scene: Scene) -> tuple[Mark, ...]:
    if scene.dice and scene.turn is not None:
        area = f"dice.{COLOUR_NAMES[scene.turn]}"
        colour = COLOUR_NAMES[scene.turn]
        return tuple(
            _die_mark(area, colour, half, value, left, of)
            for half, (value, left, of) in enumerate(_halves(scene))
        )
    return tuple(
        Mark(f"dice.{name}", Span(count=die, parts=2), name)
        for name, die in zip(COLOUR_NAMES, scene.opening_dice, strict=True)
        if die is not None
    )


def _halves(scene: Scene) -> tuple[tuple[int, int, int], ...]:
    """(value, moves left, moves) for each half of the dice area. A double's four moves are two
    per half, the first half played first."""
    first, second = scene.dice
    if first != second:
        return tuple((die, int(die in scene.dice_left), 1) for die in scene.dice)
    left = len(scene.dice_left)
    return ((first, max(0, left - 2), 2), (first, min(left, 2), 2))


def _die_mark(area: str, colour: str, half: int, value: int, left: int, of: int) -> Mark:
    if left == of:
        return Mark(area, Span(count=value, part=half, parts=2), colour)
    if left == 0:
        # A played die keeps only its last pixel, dimly: its value is still read by position.
        return Mark(area, Span(start=value - 1, count=1, part=half, parts=2), colour, dim=True)
    return Mark(area, Span(count=value, part=half, parts=2), colour, WINK)


def _score_marks(scene: Scene) -> tuple[Mark, ...]:
    marks: list[Mark] = []
    for name, points in zip(COLOUR_NAMES, scene.score, strict=True):
        area = f"score.{name}"
        marks.append(Mark(area, Gauge(points, scene.length, "won"), name))
        marks.append(Mark(area, Gauge(points, scene.length, "part"), name, dim=True))
        marks.append(Mark(area, Gauge(points, scene.length, "goal"), "score goal", dim=True))
    return tuple(marks)


def _turn_marks(scene: Scene) -> tuple[Mark, ...]:
    marks: list[Mark] = []
    if scene.alert is not None:
        pattern, whose = ALERT_LOOKS[scene.alert]
        player = {"turn": scene.turn, "winner": scene.winner}.get(whose)
        players = PLAYERS if player is None else (player,)
        marks.extend(Mark(f"turn.{COLOUR_NAMES[p]}", ALL, scene.alert, pattern) for p in players)
    if scene.turn is not None:
        name = COLOUR_NAMES[scene.turn]
        marks.append(Mark(f"turn.{name}", ALL, name))
    return tuple(marks)


def _button_marks(scene: Scene) -> tuple[Mark, ...]:
    return tuple(
        Mark(f"button.{COLOUR_NAMES[player]}.{button}", ALL, meaning, BUTTON_PATTERNS[meaning])
        for player, button, meaning in scene.prompts
    )


def _clock_marks(scene: Scene) -> tuple[Mark, ...]:
    marks: list[Mark] = []
    for name, bar in zip(COLOUR_NAMES, scene.clocks, strict=True):
        if bar is None:
            continue
        # The delay differs by level as well as by colour, for a colour-blind player.
        colour = "clock delay" if bar.delay else name
        pattern = SLOW if bar.low else STEADY
        marks.append(Mark(f"clock.{name}", Fill(bar.left), colour, pattern, dim=bar.delay))
    return tuple(marks)
