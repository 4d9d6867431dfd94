"""Jellyfish ``.mat`` match files: the text format GNU Backgammon reads with ``import mat``.

The layout is gnubg's own ``export match mat``, checked against gnubg's importer:

- `` 5 point match``; money play is `` 0 point match``, which gnubg imports as a session.
- Each game: `` Game 1``, the names with the score before the game, then numbered lines with
  White's action in the left column and Black's in the right (gnubg's player X and O). A
  turn is ``52: 13/11 13/8``, each move one die, in the mover's numbering: ``25`` is the bar,
  ``0`` off, ``*`` a hit (gnubg reads the hit from the board and ignores the mark). A roll
  with no legal move is ``52:`` alone. Whoever wins the opening roll plays its two dice, so
  when Black starts, White's half of line 1 is empty.
- Cube actions take a column each: `` Doubles => 2``, `` Takes``, `` Drops``, and a beaver
  `` Beavers => 4`` (gnubg reads it as the taker's redouble and the doubler's take).
- The game ends with ``Wins 2 points`` (`` and the match``) in the winner's column, on a line
  of its own without a number unless it follows the loser's drop on the same line.

- A resignation accepted is the winner's ``Wins 4 points`` with no drop or bear-off before
  it: gnubg reads it as a resignation of the points over the cube (4 at a cube of 2: a
  gammon). A roll not yet played when its player resigned is left out (gnubg would read it as
  a play of no move); a declined resignation is not written at all.
- A match won by forfeit (a remote board fell silent: :class:`~bgpi.journal.records.Forfeit`)
  or on time (a flag fell: :class:`~bgpi.journal.records.FlagFell`) has its games as played,
  the last one as far as it went, a ``;`` comment at the top saying who won it and how, and
  the game in play ended by the winner's ``Wins`` line, which gnubg reads as the loser's
  resignation: of the cube's value once, twice or three times (gnubg's importer gives no
  more), the fewest that reach the match. gnubg then shows the winner's match. When even a
  backgammon at the cube falls short of it (a 7-point match at 0-0, cube at 1), the line
  gives the backgammon, the comment says the score gnubg shows stays short of the match, and
  the match's winner is in the comment alone. gnubg drops a game with no roll in it, so a
  forfeit before a game's opening roll is in the comment alone too, which says so. Records
  its ``late`` counts (this board's, which the claim crossed) are left out: the match is the
  claimant's, so both boards write the same file.
- A play taken back by agreement (:class:`~bgpi.journal.records.TakenBack`) is not written:
  its line holds the play made after it, as if the first had never been made. With the
  times, a ``;`` comment at the top says where, what and when.
- With the times (``bgpi export --times``), a block of ``;`` comments at the top, after a
  line saying what they are, gives each numbered line of each game its times, laid out as
  that line is (White's on the left)::

    ; Game 1    2) 20:01:00 30.0s              20:01:02 2.2s

  when each action was made (the journal's stamp, local time) and how long its player
  thought (from the record before the action's first: the turn passing to them). A roll
  not played (the game ended before it) has no time, nor a line with no action.

Every comment stands at the top, above the match line, because that is the only place
gnubg's importer (``ImportMatVariation`` in its ``import.c``) reads a ``;`` or ``#`` line as
a comment: it keeps those lines as the match's comment (and reads the ``[Key "value"]`` ones).
Below the match line it skips whatever comes before the first line holding ``Game `` and
then reads every line of a game, up to the next line holding ``Game `` anywhere, through its
move parser (``ImportGame``, ``ParseMatMove``), ``;`` or not: the line splits into columns
two characters before its second colon (else at a double space past column 15), after a
``)``, and a column that begins with two dice and a colon (``14:20``, the minutes and
seconds of ``19:14:20``) is a roll, one that begins with ``Double``, ``Beaver``, ``Take``,
``Drop`` or ``Win`` a cube action or a resignation, and a line holding ``Game `` ends the
game. So a
comment inside a game, between games, after a cube action or a ``Wins`` line, is read as a
move or passed over depending on its text and the game's state: gnubg then reads another
match, silently.
(tests/engine/test_export_times_gnubg.py has Debian's gnubg import seeded demos both ways.)
- An illegal play accepted cannot be written (gnubg's importer replays legal moves only): the
  game's moves stop at its roll, written alone, a ``;`` comment at the top says where, and
  the game's ``Wins`` line follows, which gnubg reads as a resignation of those points.

What a ``.mat`` file cannot say: the Jacoby rule, beavers being allowed, the cube limit and
the Crawford rule. gnubg assumes the Crawford rule in matches and takes the others from its
own settings, so the file names them in a ``;`` comment before the header, which gnubg keeps
as the match's comment. Nor can it say automatic doubles: gnubg starts every game with the
cube at 1 and reads no value from ``Doubles => 4``. The lines here still show the cube's true
value, but gnubg's cube and points stay at half (or less) for a game that began with
automatic doubles.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Final

from bgpi.base.errors import BgpiError
from bgpi.base.words import BLACK, WHITE, Player
from bgpi.journal.records import (
    Clocked,
    CubeAction,
    FlagFell,
    Forfeit,
    GameEnded,
    GameStarted,
    IllegalAccepted,
    MatchStarted,
    OpeningDie,
    OpeningRolled,
    Played,
    Record,
    ResignAnswered,
    ResignOffered,
    Rethrown,
    Rolled,
    TakebackRefused,
    TakenBack,
    to_json,
    too_late,
)
from bgpi.rules import Match, MatchRules, RulesError
from bgpi.rules.match import GameState
from bgpi.rules.result import GameResult

if TYPE_CHECKING:
    from bgpi.journal.store import Journal

_LEFT: Final = 27
"""Width of the left column's text; the right column starts after one more space, at 33."""

_NAME_WIDTH: Final = 31
_NUMBER: Final = " " * 5
"""Where a line's number would be, on the unnumbered line that says who won."""

_TIMES: Final = (
    "; Times of the numbered lines below, White's on the left: made (local time), thought"
)
"""The line before the times (``--times``), saying what they are."""

_CUBE_WORDS: Final = {"double": "Doubles", "take": "Takes", "drop": "Drops", "beaver": "Beavers"}
_ANSWERS: Final = {"take": Match.take, "drop": Match.drop, "beaver": Match.beaver}

# gnubg splits a name at a comma (a GamesGrid rating follows), ends it at a colon, and turns
# blanks into underscores; so they become underscores here, and the file reads back the same.
_NAME_UNSAFE: Final = re.compile(r"[\s:,]+")
_HEADER_UNSAFE: Final = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")


class MatExportError(BgpiError, ValueError):
    """Records that do not make a match: names the record and what is wrong with it."""


@dataclass(frozen=True, slots=True)
class MatHeader:
    """Where and when the match was played, for the ``; [Key "value"]`` lines XG and gnubg
    read above the match (a director's files name the event, the match and its start)."""

    site: str = "bgpi"
    match_id: int | None = None  # the journal's number for the match
    started_at: float | None = None  # seconds since the epoch; written in local time

    @classmethod
    def journaled(cls, journal: Journal, site: str, match_id: int | None = None) -> MatHeader:
        """The header of a journal's match (default: its latest), as ``bgpi export``, the
        page's download and a club's result write it: the journal's number for the match
        and when it started. Only the site for a journal that holds no match yet."""
        matches = journal.matches()
        chosen = [m for m in matches if match_id is None or m.id == match_id]
        if not chosen:
            return cls(site)
        return cls(site, chosen[-1].id, chosen[-1].started_at)


def export_mat(
    records: Sequence[Record],
    header: MatHeader | None = None,
    stamps: Sequence[float] | None = None,
) -> str:
    """The match of ``records`` (as the journal keeps them, from ``MatchStarted`` on) as the
    text of a ``.mat`` file. An unfinished last game is written as far as it went. With a
    ``header``, the file begins with the header lines XG and gnubg read. With ``stamps`` (the
    journal's time of each record, seconds since the epoch), ``;`` comments above the match
    line, where gnubg's importer skips them, give each numbered line of each game when each
    action on it was made (local time) and how long its player thought (since the record
    before the action's first).

    The records are replayed through the cube and match rules, which must accept them; the
    plays are written as recorded, not checked against the board.
    """
    if not records or not isinstance(records[0], MatchStarted):
        raise MatExportError("a match's records begin with MatchStarted")
    writer = _Writer(records[0])
    writer.header = [] if header is None else header_lines(records[0], header)
    if stamps is not None and len(stamps) != len(records):
        raise MatExportError(f"{len(stamps)} times for {len(records)} records")
    late, before = too_late(records), 0  # the records a forfeit's claimant never had
    for index, record in enumerate(records[1:], start=1):
        if index in late:
            continue
        if stamps is not None:
            writer.stamps = (stamps[before], stamps[index])
        before = index
        try:
            writer.add(record)
        except (RulesError, MatExportError) as exc:
            raise MatExportError(f"record {index} {to_json(record)}: {exc}") from None
    return writer.text()


def write_mat(records: Sequence[Record], path: str | Path) -> None:
    """Write :func:`export_mat`'s text to ``path`` (replacing the file)."""
    Path(path).write_text(export_mat(records), encoding="utf-8")


def mat_play(dice: tuple[int, int], moves: Sequence[tuple[int, int, int, bool]]) -> str:
    """One turn as a ``.mat`` file writes it: ``64: 25/21* 13/7``; the higher die first."""
    text = " ".join(f"{src}/{dst}{'*' if hit else ''}" for src, dst, _, hit in moves)
    return f"{max(dice)}{min(dice)}: {text}".rstrip()


def header_lines(start: MatchStarted, header: MatHeader) -> list[str]:
    """The ``; [Key "value"]`` lines of XG's ``.mat`` header (gnubg reads the site, the
    date and the players from them, and keeps the rest in the match's comment)."""
    names = (_name(start.names[0], "White"), _name(start.names[1], "Black"))
    pairs = [("Site", header.site)]
    if header.match_id is not None:
        pairs.append(("Match ID", str(header.match_id)))
    pairs += [("Player 1", names[0]), ("Player 2", names[1])]
    if header.started_at is not None:
        when = time.localtime(header.started_at)
        pairs += [
            ("EventDate", time.strftime("%Y.%m.%d", when)),
            ("EventTime", time.strftime("%H.%M", when)),
        ]
    pairs += [("Variation", "Backgammon"), ("Unrated", "Off")]
    if start.length:
        pairs.append(("Crawford", "On" if start.crawford else "Off"))
    else:
        pairs.append(("Jacoby", "On" if start.jacoby else "Off"))
        pairs.append(("Beaver", "On" if start.beaver else "Off"))
        if start.automatic_doubles:
            pairs.append(("AutoDoubles", str(start.automatic_doubles)))
    pairs.append(("CubeLimit", str(start.cube_limit)))
    clock = start.clock
    if clock.on:  # not one of XG's keys: gnubg keeps it in the match's comment
        overtime = f", overtime {clock.overtime:g} s" if clock.overtime else ""
        pairs.append(("Clock", f"{clock.mode.value}, {clock.per_move:g} s a move{overtime}"))
    return [f'; [{key} "{_header_value(value)}"]' for key, value in pairs]


def _header_value(text: str) -> str:
    """A quote would end the value early and a line break the line: a site is anyone's text."""
    return _HEADER_UNSAFE.sub(" ", text).replace('"', "'")


def _name(name: str, default: str) -> str:
    return _NAME_UNSAFE.sub("_", name.strip()) or default


def _header(start: MatchStarted) -> list[str]:
    """The comment naming the rules a .mat file cannot carry, and the match line."""
    notes = []
    if start.length and not start.crawford:
        notes.append("no Crawford rule")
    if not start.length:
        notes.append(f"Jacoby rule {'on' if start.jacoby else 'off'}")
        notes.append(f"beavers {'allowed' if start.beaver else 'not allowed'}")
        if start.automatic_doubles:
            notes.append(f"automatic doubles up to {start.automatic_doubles}")
    if start.cube_limit != MatchRules().cube_limit:
        notes.append(f"cube limit {start.cube_limit}")
    lines = [f"; Rules: {', '.join(notes)}", ""] if notes else []
    return [*lines, f" {start.length} point match", ""]


@dataclass
class _Game:
    """The lines of one game: each player's actions alternate, White's on the left."""

    number: int
    score: tuple[int, int]
    cells: list[str] = field(default_factory=list)
    opening_played: bool = False  # later plays fill in the cell their roll opened
    wins: tuple[Player, str] | None = None
    cut: str | None = None  # why the game's moves stop early (an illegal play accepted)
    began: dict[int, float] = field(default_factory=dict)  # a cell's player's turn began
    times: dict[int, str] = field(default_factory=dict)  # a cell's time made and thought

    def add(self, player: Player, text: str) -> None:
        if self.cut is not None:
            return
        if not self.cells and player == BLACK:
            self.cells.append("")  # Black opens: White has nothing on line 1
        if len(self.cells) % 2 != player:
            raise MatExportError(f"player {player} acts out of turn")
        self.cells.append(text)

    def lines(self, names: tuple[str, str]) -> list[str]:
        white, black = (
            f"{name} : {points}" for name, points in zip(names, self.score, strict=True)
        )
        lines = [f" Game {self.number}", f" {white:<{_NAME_WIDTH}}{black}"]
        cells = list(self.cells)
        wins_here = self.wins is not None and len(cells) % 2 == 1 and self.wins[0] == BLACK
        if wins_here and self.wins is not None:
            cells.append(self.wins[1])
        for line, index in enumerate(range(0, len(cells), 2), start=1):
            pair = [*cells[index : index + 2], ""]
            lines.append(f"{line:3d}) {pair[0]:<{_LEFT}} {pair[1]}".rstrip())
        if self.wins is not None and not wins_here:
            winner, text = self.wins
            left, right = (text, "") if winner == WHITE else ("", text)
            lines.append(f"{_NUMBER}{left:<{_LEFT}} {right}".rstrip())
        return [*lines, ""]

    def time_lines(self) -> list[str]:
        """The game's times, a comment for each numbered line that has any, laid out as that
        line is: ``; Game 1   2) 20:01:00 30.0s              20:01:02 2.2s``."""
        lines = []
        for index in range(0, max(self.times, default=-1) + 1, 2):
            pair = [self.times.get(index, ""), self.times.get(index + 1, "")]
            if any(pair):
                where = f"; Game {self.number:<3d}{index // 2 + 1:3d})"
                lines.append(f"{where} {pair[0]:<{_LEFT}} {pair[1]}".rstrip())
        return lines


_Saved = tuple[Match, bool, tuple[list[str], tuple[Player, str] | None] | None]


class _Writer:
    """Replays the records through the match rules and lays out each game's lines."""

    def __init__(self, start: MatchStarted) -> None:
        self.start = start
        self.names = (_name(start.names[0], "White"), _name(start.names[1], "Black"))
        self.match = Match.new(start.rules())
        self.games: list[_Game] = []
        self.turn_played = False  # the turn ends with the next record, unless that wins
        self.header: list[str] = []
        self.flags: list[str] = []  # the clock's flag falls, said at the top
        self.takebacks: list[str] = []  # with the times: each play taken back, at the top
        self.forfeit: Forfeit | None = None  # a remote match won by forfeit, said at the top
        self.forfeit_note = ""  # what its comment adds
        self.unforfeited: _Saved = self._saved()  # as the game stood before the forfeit
        self.stamps: tuple[float, float] | None = None  # the record before's time, this one's

    def text(self) -> str:
        lines = [*self.header, ""] if self.header else []
        lines.extend(f"; {game.cut}" for game in self.games if game.cut is not None)
        lines.extend(f"; {flag}" for flag in self.flags)
        lines.extend(f"; {takeback}" for takeback in self.takebacks)
        if self.forfeit is not None:
            winner = self.forfeit.winner
            lines.append(
                f"; {self.names[winner]} wins the match by forfeit in game {len(self.games)}: "
                f"{self.names[winner.other]}'s board fell silent; the games are as played"
                + self.forfeit_note
            )
        times = [line for game in self.games for line in game.time_lines()]
        if times:
            lines += [_TIMES, *times]
        lines.extend(_header(self.start))
        for game in self.games:
            lines.extend(game.lines(self.names))
        return "\n".join(lines) + "\n"

    def add(self, record: Record) -> None:
        if isinstance(record, Forfeit):
            # Crossed claims: the last one is the settled one, given as the game stood.
            if self.forfeit is None:
                self.unforfeited = self._saved()
            else:
                self._restore(self.unforfeited)
            self.forfeit = record
            self.forfeit_note = self._given(record.winner)
            return
        if self.forfeit is not None:
            raise MatExportError("the match was over by forfeit")
        if isinstance(record, OpeningDie | Clocked | Rethrown | TakebackRefused):
            # The pair follows as OpeningRolled; the clock, a throw made again (a GoDice
            # cocked) and a takeback refused (the play stood) are not in a .mat file: a roll
            # is a roll, a play a play.
            return
        if isinstance(record, FlagFell):
            self._flag(record)
            return
        if isinstance(record, MatchStarted):
            raise MatExportError("a second MatchStarted: export one match at a time")
        if isinstance(record, GameStarted):
            self._start_game()
            return
        if not self.games:
            raise MatExportError("no GameStarted before it")
        if isinstance(record, TakenBack):
            self._taken_back(self.games[-1], record)
            return
        if self.turn_played and not (isinstance(record, GameEnded) and not record.dropped):
            self.match = self.match.end_turn()
            self.turn_played = False
        game = self.games[-1]
        cells = len(game.cells)
        self._in_game(game, record)
        if self.stamps is not None:
            self._time(game, record, opened=len(game.cells) > cells)

    def _time(self, game: _Game, record: Record, *, opened: bool) -> None:
        """Note when the action of ``record``'s cell began, and once made, its times."""
        before, at = self.stamps or (0.0, 0.0)
        last = len(game.cells) - 1
        if opened:
            game.began[last] = before
        if isinstance(record, Played | CubeAction) and last >= 0 and game.cut is None:
            made = time.strftime("%H:%M:%S", time.localtime(at))
            game.times[last] = f"{made} {at - game.began.get(last, before):.1f}s"

    def _in_game(self, game: _Game, record: Record) -> None:
        if isinstance(record, OpeningRolled):
            self.match = self.match.opening_roll(record.white, record.black)
        elif isinstance(record, Rolled):
            self._check_turn(record.player)
            self.match = self.match.roll(record.dice)
            game.add(record.player, mat_play(record.dice, ()))  # until the play fills it in
        elif isinstance(record, Played):
            self._played(game, record)
        elif isinstance(record, CubeAction):
            self._cube(game, record)
        elif isinstance(record, ResignOffered):
            self._check_turn(record.player)
            self.match = self.match.resign(record.player, GameResult(record.result))
        elif isinstance(record, ResignAnswered):
            self._answer(game, record)
        elif isinstance(record, IllegalAccepted):
            self._illegal(game, record)
        elif isinstance(record, GameEnded):
            self._end(game, record)
        else:
            raise MatExportError(f"{record} cannot come in a game")

    def _flag(self, record: FlagFell) -> None:
        """A flag fall cannot be a move: the game stands as played, a comment says it."""
        game = self.games[-1] if self.games else None
        where = f"Game {game.number}, line {(len(game.cells) + 1) // 2}" if game else "Before play"
        name, other = self.names[record.player], self.names[record.player.other]
        if record.overtime:
            self.flags.append(f"{where}: {name}'s time ran out; overtime given")
            return
        given = self._given(record.player.other)
        self.flags.append(f"{where}: {name}'s time ran out; {other} wins the match on time{given}")

    def _saved(self) -> _Saved:
        game = self.games[-1] if self.games else None
        cells = None if game is None else (list(game.cells), game.wins)
        return (self.match, self.turn_played, cells)

    def _restore(self, saved: _Saved) -> None:
        self.match, self.turn_played, cells = saved
        if cells is not None:
            self.games[-1].cells, self.games[-1].wins = list(cells[0]), cells[1]

    def _given(self, winner: Player) -> str:
        """The match given to ``winner`` with a game in play (a flag fall, a forfeit): the
        game ended by the winner's ``Wins`` line, which gnubg reads as the loser resigning
        ``points // cube`` (one to three) times the cube; the fewest that reach the match.
        Returns what the comment adds when gnubg's score cannot show the match won."""
        length = self.match.rules.length
        if self.games and self.match.state is GameState.NONE and length:
            # gnubg drops a game with no roll in it, and a resignation with it.
            return " (before the game's opening roll: gnubg's score stays as the games left it)"
        if not self.games or self.match.state is not GameState.PLAYING or not length:
            return ""  # between games, or money play: no game for gnubg to end
        game = self.games[-1]
        if self.turn_played:  # the play before was the turn's last action
            self.match = self.match.end_turn()
            self.turn_played = False
        rolled = game.cells and game.cells[-1].endswith(":")
        if self.match.dice is not None and rolled and game.cut is None:
            # Rolled, not played: gnubg would read the roll alone as a play of no move.
            game.cells.pop()
        needed = length - self.match.score[winner]
        cube = self.match.cube
        points = min(3, -(-needed // cube)) * cube
        plural = "" if points == 1 else "s"
        reached = points >= needed
        game.wins = (
            winner,
            f" Wins {points} point{plural}" + (" and the match" if reached else ""),
        )
        if reached:
            return ""
        return (
            f" (gnubg reads Game {game.number}'s last line as a backgammon resigned, {points} "
            f"point{plural}, the most a .mat file gives in one game: its score stays short)"
        )

    def _illegal(self, game: _Game, record: IllegalAccepted) -> None:
        self._check_turn(record.player)
        if game.cut is None:
            # The roll stays, alone: gnubg then has a game in play for the result to end.
            if not game.opening_played and self.match.dice is not None:
                game.add(record.player, mat_play(self.match.dice, ()))
                game.opening_played = True
            line = (len(game.cells) + 1) // 2
            game.cut = (
                f"Game {game.number}: {self.names[record.player]}'s illegal play on line "
                f"{line} was accepted; a .mat file cannot hold it, so the game's moves stop "
                "there and its result follows (gnubg reads it as a resignation)"
            )
        self.turn_played = True

    def _played(self, game: _Game, record: Played) -> None:
        self._check_turn(record.player)
        if self.match.dice is None:
            raise MatExportError(f"player {record.player} plays without having rolled")
        text = mat_play(self.match.dice, record.moves)
        if game.cut is not None:
            pass  # not written: the game's moves stopped at an accepted illegal play
        elif game.opening_played:
            game.cells[-1] = text
        else:
            game.add(record.player, text)
            game.opening_played = True
        self.turn_played = True

    def _taken_back(self, game: _Game, record: TakenBack) -> None:
        """The play just made is taken back: its line holds the roll alone again, for the
        play made after it; with the times, a comment says what was taken back."""
        self._check_turn(record.player)
        dice = self.match.dice
        if not self.turn_played or dice is None:
            raise MatExportError(f"player {record.player} takes back no play")
        self.turn_played = False
        if game.cut is not None or not game.cells:
            return  # the game's moves stopped at an accepted illegal play: nothing written
        last = len(game.cells) - 1
        game.cells[last] = mat_play(dice, ())
        game.times.pop(last, None)
        if self.stamps is not None:
            made = time.strftime("%H:%M:%S", time.localtime(self.stamps[1]))
            self.takebacks.append(
                f"Game {game.number}, line {last // 2 + 1}: {self.names[record.player]} took "
                f"back {mat_play(dice, record.moves)} at {made}, as agreed"
            )

    def _answer(self, game: _Game, record: ResignAnswered) -> None:
        if not record.accepted:
            self.match = self.match.decline_resignation()  # a .mat file cannot say it
            return
        self.match = self.match.accept_resignation()
        rolled = game.cells and game.cells[-1].endswith(":")
        if self.match.dice is not None and rolled and game.cut is None:
            # Resigned after rolling, before playing: gnubg would read the roll alone as a
            # play of no move, so the roll goes; the resignation is the game's last action.
            game.cells.pop()

    def _start_game(self) -> None:
        if self.games:
            if self.match.state not in (GameState.OVER, GameState.RESIGNED, GameState.DROPPED):
                raise MatExportError(f"game {len(self.games)} has not ended")
            self.match = self.match.start_game()
        self.games.append(_Game(len(self.games) + 1, self.match.score))

    def _check_turn(self, player: Player) -> None:
        if player != self.match.turn:
            raise MatExportError(f"player {player} acts but player {self.match.turn} is on roll")

    def _cube(self, game: _Game, record: CubeAction) -> None:
        word = _CUBE_WORDS.get(record.action)
        if word is None:
            raise MatExportError(f"unknown cube action {record.action!r}")
        if record.action == "double":
            self._check_turn(record.player)
            self.match = self.match.double()
            text = f" {word} => {self.match.cube * 2}"
        else:
            if record.player == self.match.turn:
                raise MatExportError(f"player {record.player} answers their own double")
            cube = self.match.cube
            self.match = _ANSWERS[record.action](self.match)
            text = f" {word} => {cube * 4}" if record.action == "beaver" else f" {word}"
        game.add(record.player, text)

    def _end(self, game: _Game, record: GameEnded) -> None:
        if record.resigned:
            if self.match.state is not GameState.RESIGNED:
                raise MatExportError("a game ended by a resignation, but nobody resigned")
        elif record.dropped:
            if self.match.state is not GameState.DROPPED:
                raise MatExportError("a game ended by a drop, but nobody dropped")
        else:
            self.match = self.match.win(record.winner, record.game_result)
            self.turn_played = False
        if self.match.game_winner != record.winner:
            raise MatExportError(
                f"player {record.winner} wins, but the rules say player {self.match.game_winner}"
            )
        points = self.match.score[record.winner] - game.score[record.winner]
        if points != record.points:
            raise MatExportError(f"the game is worth {points} points, not {record.points}")
        plural = "" if points == 1 else "s"
        text = f" Wins {points} point{plural}"
        if self.match.match_over:
            text += " and the match"
        game.wins = (record.winner, text)
