"""The page's own words, in the players' language: sent once with the layout, so the page
(``static/app.js``) holds no catalogue of its own.

``PAGE`` names each sentence the page shows by a key: the static text of ``index.html``
(elements marked ``data-words="KEY"``, ``data-words-label`` for an ``aria-label``,
``data-words-alt`` for an image's ``alt``) and the lines ``app.js`` builds, whose
``{placeholders}`` it fills in. A sentence with ``{r}``-style key names is shown with the keys
as keyboard caps.
"""

from __future__ import annotations

from typing import Final

from bgpi.base.i18n import N_, _, language, ngettext
from bgpi.present.phrases import MEANINGS

PAGE: Final = {
    # index.html
    "connecting": N_("Connecting…"),
    "board": N_("the board"),
    "board-image": N_("backgammon board"),
    "share-text": N_(
        "Scan to open this board on a phone or tablet (the code holds the address and its token)."
    ),
    "share-code": N_("QR code of this page's address with its token"),
    "close": N_("Close"),
    "match": N_("match"),
    "score": N_("score"),
    "pips": N_("pips"),
    "position-id": N_("Position ID"),
    "match-id": N_("Match ID"),
    "download": N_("Download the match (.mat)"),
    "share-button": N_("Open on another device…"),
    "choose-label": N_("the next match"),
    "choose-heading": N_("The next match"),
    "choose-start": N_("Start the match"),
    "choose-companion": N_(
        "Chosen at the board: ROLL goes to the next option, CUBE changes it, ROLL held starts "
        "the match."
    ),
    "choose-change": N_("change"),
    "choose-change-label": N_("change the {option}"),
    "dice-label": N_("the dice"),
    "dice-heading": N_("The dice"),
    "dice-face": N_("die {row}: {value}"),
    "dice-by-hand": N_("Or enter this roll by hand:"),
    "remote-match": N_("Remote match"),
    "remote-code": N_("Match code {code}"),
    "remote-side": N_("You play {side}"),
    "remote-qr": N_("QR code of the match code"),
    "log": N_("Log"),
    "game-log": N_("game log"),
    "analysis": N_("Analysis"),
    "help": N_("Hands and keys"),
    "help-label": N_("how to play"),
    "help-drag": N_(
        "Drag a checker: lift it on press, hold it, put it down on release, on the slot under "
        "the pointer."
    ),
    "help-knock": N_(
        "Right-click (or Alt-click) a checker: knock it off its switch; click a knocked checker "
        "to set it straight."
    ),
    "help-buttons": N_("Buttons: click and hold like the real ones (hold ROLL to beaver)."),
    "help-phone": N_(
        "On a phone or tablet: drag a checker with a finger, and touch and hold ROLL or CUBE as "
        "you would press them; held upright, the board turns to fill the screen."
    ),
    "help-keys": N_(
        "Keys: {r} White's ROLL, {c} White's CUBE, {R} Black's ROLL, {C} Black's CUBE, {s} sets "
        "the board up for the position."
    ),
    "help-companion": N_(
        "This page shows a real board: play with the checkers and the buttons on it."
    ),
    "help-leds": N_(
        "The LEDs are drawn from the very frame the strip gets; the dots in each player's panel "
        "are the dice, cube and score lights beside their buttons."
    ),
    # app.js
    "panel-dice": N_("dice"),
    "panel-cube": N_("cube"),
    "panel-score": N_("score"),
    "button-white-roll": N_("White's ROLL"),
    "button-white-cube": N_("White's CUBE"),
    "button-black-roll": N_("Black's ROLL"),
    "button-black-cube": N_("Black's CUBE"),
    "in-hand": N_("in hand"),
    "to-answer": N_("to answer"),
    "to-play": N_("to play"),
    "doubles": N_("doubles"),
    "score-of": N_("{score} of {length}"),
    "length": N_("{length}-point match"),
    "money": N_("money session"),
    "cube-centred": N_("cube {value}, centred"),
    "cube-owned": N_("cube {value}, {name}'s"),
    "cube-offered": N_("{name} offers the cube at {value}"),
    "crawford": N_("Crawford game: no cube"),
    "clock-delay": N_("delay {time}"),
    "clock-overtime": N_("overtime {time}"),
    "throw-dice": N_("throw the dice"),
    "throw-opening": N_("throw the opening die"),
    "again-cocked": N_("die {die} cocked: roll again"),
    "again-moved": N_("die {die} moved: roll again"),
    "connection-lost": N_("Connection lost: trying again…"),
    "mode-sim": N_("simulated board"),
    "mode-companion": N_("companion of the board (read-only)"),
}

_MOST_MOVES: Final = 4  # a double's four


def page_words() -> dict[str, object]:
    """The page's words in the language in use, with the buttons' meanings and the count of
    moves left (one line per count, since plurals follow each language's own rule)."""
    return {
        "language": language(),
        "page": {key: _(text) for key, text in PAGE.items()},
        "meanings": {meaning.value: _(word) for meaning, word in MEANINGS.items()},
        "moves-left": [
            ngettext("{count} move left", "{count} moves left", count).format(count=count)
            for count in range(_MOST_MOVES + 1)
        ],
    }
