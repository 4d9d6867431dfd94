"""The game log: the records of a match, one line each, in move notation
(``White 31: 8/5 6/5``), the way a player writes a match down. The browser page shows it and
``bgpi demo`` prints it.

Points are the board's printed numbers for both colours (:mod:`bgpi.present.numbering`): Black's
8/2 6/2 is logged as the board shows it, ``17/23 19/23``. The ``.mat`` export keeps gnubg's
own numbering."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from bgpi.base.i18n import N_, _, ngettext
from bgpi.base.words import BLACK, WHITE, Player
from bgpi.journal.records import (
    CubeAction,
    FlagFell,
    Forfeit,
    GameEnded,
    GameStarted,
    IllegalAccepted,
    MatchStarted,
    OpeningRolled,
    Played,
    Record,
    ResignAnswered,
    ResignOffered,
    Rethrown,
    Rolled,
    TakebackRefused,
    TakenBack,
    Unfit,
)
from bgpi.present.numbering import printed_moves
from bgpi.present.phrases import LEVELS, players
from bgpi.rules.result import GameResult

_VERBS: Final = {
    "double": N_("{name} doubles"),
    "take": N_("{name} takes"),
    "drop": N_("{name} drops"),
    "beaver": N_("{name} beavers"),
}


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of the log. ``player`` is who acted (None for the match's and games' lines);
    ``kind`` is what the line says: match, game, opening, roll, play, cube, resign or end."""

    text: str
    player: Player | None = None
    kind: str = ""

    def to_json(self) -> dict[str, object]:
        return {"text": self.text, "player": self.player, "kind": self.kind}


def current_match(records: Sequence[Record]) -> tuple[Record, ...]:
    """The records of the last match in ``records``, from its MatchStarted on (what a
    ``.mat`` file holds)."""
    starts = [i for i, record in enumerate(records) if isinstance(record, MatchStarted)]
    return tuple(records[starts[-1] :]) if starts else ()


def log_entries(records: Sequence[Record]) -> tuple[Entry, ...]:
    """The lines of a match's records. A roll shows as soon as it is rolled (``White 52:``)
    and its play completes that line, as a ``.mat`` file writes it."""
    log = GameLog()
    for record in records:
        log.add(record)
    return tuple(log.lines)


@dataclass
class GameLog:
    """The log built record by record; ``lines[-1]`` may be a roll still waiting for its
    play (:attr:`complete` says how many lines are final)."""

    lines: list[Entry] = field(default_factory=list)
    names: tuple[str, str] = ("White", "Black")
    score: list[int] = field(default_factory=lambda: [0, 0])
    rolled: int | None = None  # the line of the roll that the next play completes
    dice: tuple[int, int] | None = None  # the last roll, played again after a takeback

    @property
    def complete(self) -> int:
        """How many lines will not change: all but a roll whose play is still to come."""
        return len(self.lines) - (self.rolled is not None)

    def add(self, record: Record) -> None:
        if isinstance(record, MatchStarted | GameStarted):
            self._started(record)
        elif isinstance(record, OpeningRolled):
            self._opening(record)
        elif isinstance(record, Rolled):
            self._roll(record.player, record.dice)
        elif isinstance(record, Played):
            self._played(record)
        elif isinstance(record, CubeAction):
            # No value: automatic doubles turn the cube without a record; the page shows it.
            verb = _(_VERBS.get(record.action, "{name} " + record.action))
            self._say(verb.format(name=self.names[record.player]), record.player, "cube")
        elif isinstance(record, GameEnded | Forfeit):
            self._ended(record)
        elif isinstance(record, ResignOffered | ResignAnswered):
            self._resign(record)
        elif isinstance(record, IllegalAccepted):
            self._illegal(record)
        elif isinstance(record, FlagFell | Rethrown):
            self._aside(record)
        elif isinstance(record, TakenBack):
            self._taken_back(record)
        elif isinstance(record, TakebackRefused):
            self._refused(record)
        # OpeningDie: the pair follows as OpeningRolled; Clocked: the clock shows it.

    def _illegal(self, record: IllegalAccepted) -> None:
        rolled, self.rolled = self.rolled, None
        accepted = _("an illegal play, accepted")
        text = f"{self.names[record.player]}: {accepted}"
        if rolled is not None and self.lines[rolled].player == record.player:
            text = f"{self.lines[rolled].text} {accepted}"
            del self.lines[rolled]
        self._say(text, record.player, "play")

    def _started(self, record: MatchStarted | GameStarted) -> None:
        if isinstance(record, GameStarted):
            number = sum(entry.kind == "game" for entry in self.lines) + 1
            line = _("Game {number}, score {white_score}-{black_score}")
            white_score, black_score = self.score
            self._say(
                line.format(number=number, white_score=white_score, black_score=black_score),
                None,
                "game",
            )
            return
        self.names, self.score = players(record.names), [0, 0]
        if record.length:
            line = _("{white} (white) and {black} (black): a {length}-point match")
        else:
            line = _("{white} (white) and {black} (black): a money session")
        white, black = self.names
        self._say(line.format(white=white, black=black, length=record.length), None, "match")

    def _taken_back(self, record: TakenBack) -> None:
        """The play stays in the log as made, the takeback after it, and the same roll on a
        line of its own for the play made again."""
        name = self.names[record.player]
        moves = printed_moves(record.player, record.move_values())
        line = _("{name}'s {moves} taken back, as agreed").format(name=name, moves=moves)
        self._say(line, record.player, "takeback")
        if self.dice is not None:
            self._roll(record.player, self.dice)

    def _refused(self, record: TakebackRefused) -> None:
        """The play stays as made; the refusal after it says it stands for good."""
        name, other = self.names[record.player], self.names[record.player.other]
        moves = printed_moves(record.player, record.move_values())
        line = _("{other} refused {name}'s takeback of {moves}: the play stands")
        self._say(line.format(name=name, other=other, moves=moves), record.player, "takeback")

    def _flag(self, record: FlagFell) -> None:
        name, other = self.names[record.player], self.names[record.player.other]
        if record.overtime:
            line = _("{name}'s time ran out: overtime given")
        else:
            line = _("{name}'s time ran out: {other} wins the match on time")
        self._say(line.format(name=name, other=other), record.player, "end")

    def _aside(self, record: FlagFell | Rethrown) -> None:
        """What happened beside the moves: a flag that fell, a throw made again."""
        if isinstance(record, FlagFell):
            self._flag(record)
            return
        if record.why is Unfit.COCKED:
            line = _("{name}'s die {die} came to rest cocked: roll again")
        else:
            line = _("{name}'s die {die} was moved as it came to rest: roll again")
        name = self.names[record.player]
        self._say(line.format(name=name, die=record.die), record.player, "roll")

    def _resign(self, record: ResignOffered | ResignAnswered) -> None:
        name = self.names[record.player]
        if isinstance(record, ResignOffered):
            level = _(LEVELS[GameResult(record.result)])
            line = _("{name} offers to resign a {level}").format(name=name, level=level)
            self._say(line, record.player, "resign")
        else:
            if record.accepted:
                line = _("{name} accepts the resignation")
            else:
                line = _("{name} declines the resignation")
            self._say(line.format(name=name), record.player, "resign")

    def _say(self, text: str, player: Player | None, kind: str) -> None:
        self.lines.append(Entry(text, player, kind))

    def _opening(self, record: OpeningRolled) -> None:
        dice = (record.white, record.black)
        if record.white == record.black:
            tie = _("opening roll {dice}: a tie, roll again").format(dice=_dice(dice))
            self._say(tie, None, "opening")
            return
        first = WHITE if record.white > record.black else BLACK
        starts = _("opening roll: {name} starts").format(name=self.names[first])
        self._say(starts, first, "opening")
        self._roll(first, dice)

    def _roll(self, player: Player, dice: tuple[int, int]) -> None:
        self.rolled, self.dice = len(self.lines), dice
        self._say(f"{self.names[player]} {_dice(dice)}:", player, "roll")

    def _played(self, record: Played) -> None:
        text = printed_moves(record.player, record.move_values()) or _("no move")
        rolled, self.rolled = self.rolled, None
        if rolled is not None and self.lines[rolled].player == record.player:
            self.lines[rolled] = Entry(f"{self.lines[rolled].text} {text}", record.player, "play")
        else:
            self._say(f"{self.names[record.player]}: {text}", record.player, "play")

    def _ended(self, record: GameEnded | Forfeit) -> None:
        if isinstance(record, Forfeit):  # a remote board fell silent: a roll stays unplayed
            self.rolled = None
            line = _("{name} wins the match by forfeit").format(name=self.names[record.winner])
            self._say(line, record.winner, "end")
            return
        self.score[record.winner] += record.points
        level = _(LEVELS[GameResult(record.result)])
        how = _("a {level}").format(level=level)
        if record.dropped:
            how = _("a drop")
        elif record.resigned:
            how = _("a resigned {level}").format(level=level)
        line = ngettext(
            "{name} wins {points} point by {how}; score {white_score}-{black_score}",
            "{name} wins {points} points by {how}; score {white_score}-{black_score}",
            record.points,
        )
        white_score, black_score = self.score
        text = line.format(
            name=self.names[record.winner],
            points=record.points,
            how=how,
            white_score=white_score,
            black_score=black_score,
        )
        self._say(text, record.winner, "end")


def _dice(dice: tuple[int, int]) -> str:
    """``52``: the higher die first, as a match file writes a roll."""
    return f"{max(dice)}{min(dice)}"
