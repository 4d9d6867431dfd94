"""``bgpi export --times`` reads in GNU Backgammon exactly as the plain export does.

gnubg's ``.mat`` importer treats a ``;`` line as a comment only above the ``N point match``
line; below it, every line goes through the move parser, where a time such as ``19:14:20``
splits into columns at its colons and ``14:20`` reads as a roll of 1-4. So the times stand
at the top, a line for each numbered line of each game. Over seeded demos that double,
beaver, take back, slip, resign, run a clock to a flag fall and throw GoDice or entered
dice, stamped by a journal clock whose minutes look like dice (the layout under each line
misread these), Debian's gnubg imports the plain and the timed file, exports each as its own
``.mat``, and the two are the same, game for game, move for move."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import count
from pathlib import Path

import pytest

from bgpi.engine.process import GNUBG
from bgpi.journal.export import MatHeader, export_mat
from bgpi.journal.records import (
    CubeAction,
    DiceSource,
    FlagFell,
    GameStarted,
    IllegalAccepted,
    MatchStarted,
    Played,
    Record,
    ResignAnswered,
    Rethrown,
    TakenBack,
)
from bgpi.journal.store import Journal
from bgpi.rules.clock import ClockMode, ClockRules
from bgpi.sim.demo import PipPlayer, play_match
from tests.engine.conftest import needs_gnubg

pytestmark = needs_gnubg

USBGF = ClockRules(ClockMode.USBGF)


@dataclass(frozen=True)
class Demo:
    """One seeded demo: its match, the two hands, and how many games of money play."""

    name: str
    start: MatchStarted
    seed: int
    sides: tuple[PipPlayer, PipPlayer] = (PipPlayer(), PipPlayer())
    games: int | None = None


def demos() -> Iterator[Demo]:
    takes_back = PipPlayer(takebacks=0.2)
    slips = PipPlayer(slips=0.15)
    for seed in (1, 2, 3):
        yield Demo(f"takebacks{seed}", MatchStarted(3), seed, (takes_back, takes_back))
        yield Demo(f"slips{seed}", MatchStarted(5), seed, (slips, slips))
        # A rash doubler, doubling when up to 10% behind in the race, is beavered.
        rash = (PipPlayer(double_lead=-0.1), PipPlayer())
        money = MatchStarted(0, beaver=True)
        yield Demo(f"beavers{seed + 3}", money, seed + 3, rash, games=4)
        yield Demo(f"clock{seed}", MatchStarted(3, clock=USBGF), seed)
        slow = (PipPlayer(thinks=400.0), PipPlayer())
        yield Demo(f"flag{seed}", MatchStarted(5, clock=USBGF), seed, slow)
        yield Demo(f"godice{seed}", MatchStarted(3, dice=DiceSource.GODICE), seed)
        yield Demo(f"entered{seed}", MatchStarted(3, dice=DiceSource.ENTERED), seed)


@dataclass(frozen=True)
class Exported:
    """A demo played and exported: its records, and its plain and timed ``.mat`` files."""

    demo: Demo
    records: list[Record]
    plain: Path
    timed: Path


def dice_like_clock() -> Iterator[float]:
    """Stamps 37 s apart from 12:11:00 UTC on: the minutes walk through every value, and
    most (11 to 16, 21 to 26, ...) read as a roll wherever the comment's colon falls."""
    return (1_781_000_000.0 + 60.0 + 37.0 * n for n in count())


def play(demo: Demo, folder: Path) -> Exported:
    ticks = dice_like_clock()
    path = folder / f"{demo.name}.sqlite"
    with Journal.open(path, clock=lambda: next(ticks)) as journal:
        play_match(
            demo.start,
            seed=demo.seed,
            journal=journal,
            say=lambda _: None,
            sides=demo.sides,
            games=demo.games,
        )
        (match,) = journal.matches()
        records = journal.records()
        stamps = journal.stamps(match.id)
        header = MatHeader.journaled(journal, "bgpi", match.id)
    plain = folder / f"{demo.name}.mat"
    timed = folder / f"{demo.name}.times.mat"
    plain.write_text(export_mat(records, header), encoding="utf-8")
    timed.write_text(export_mat(records, header, stamps), encoding="utf-8")
    return Exported(demo, records, plain, timed)


def gnubg_exports(files: list[Path]) -> dict[Path, str]:
    """Each file imported by one gnubg process and written back by its ``export match mat``:
    what gnubg holds of it. A file gnubg fails to import has no export."""
    commands = []
    for mat in files:
        commands += [f"import mat {mat}", f"export match mat {mat}.gnubg"]
    subprocess.run(
        [GNUBG, "-t", "-q", "-r"],
        input="\n".join(commands) + "\n",
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return {mat: Path(f"{mat}.gnubg").read_text(encoding="utf-8") for mat in files}


def games_of(gnubg_mat: str) -> str:
    """gnubg's export from its match line on: the games, their moves, cube actions and
    scores. Above it gnubg writes the match's comment, where the times are kept."""
    lines = gnubg_mat.splitlines()
    start = next(n for n, line in enumerate(lines) if re.match(r"\s*\d+ point match", line))
    return "\n".join(lines[start:])


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> list[Exported]:
    folder = tmp_path_factory.mktemp("times")
    return [play(demo, folder) for demo in demos()]


def test_the_demos_cover_every_kind_of_record_the_times_follow(played: list[Exported]) -> None:
    records = [record for each in played for record in each.records]
    cube = {record.action for record in records if isinstance(record, CubeAction)}
    assert cube == {"double", "take", "drop", "beaver"}
    assert any(isinstance(record, TakenBack) for record in records)
    assert any(isinstance(record, IllegalAccepted) for record in records)
    resigned = [r for r in records if isinstance(r, ResignAnswered) and r.accepted]
    assert resigned
    assert any(isinstance(record, FlagFell) and not record.overtime for record in records)
    assert any(isinstance(record, Rethrown) for record in records)  # a GoDice landed cocked
    sources = {each.demo.start.dice for each in played}
    assert {DiceSource.GODICE, DiceSource.ENTERED, DiceSource.ELECTRONIC} <= sources


def test_the_times_are_comments_at_the_top_one_line_for_each_line_of_a_game(
    played: list[Exported],
) -> None:
    for each in played:
        plain = each.plain.read_text(encoding="utf-8").splitlines()
        timed = each.timed.read_text(encoding="utf-8").splitlines()
        match_line = timed.index(next(line for line in timed if line.endswith("point match")))
        # Below the match line the timed file is the plain one, line for line.
        assert timed[match_line:] == plain[plain.index(timed[match_line]) :], each.demo.name
        times = [line for line in timed[:match_line] if re.match(r"; Game \d+ +\d+\) ", line)]
        cells = sum(len(re.findall(r"\d\d:\d\d:\d\d \d+\.\ds", line)) for line in times)
        # A time for each play and cube action that stands in the file: those taken back
        # are not written, nor those after an illegal play accepted (the game stops there).
        actions = sum(isinstance(r, Played | CubeAction) for r in standing(each.records))
        assert cells == actions, each.demo.name
        for line in times:
            game, number = map(int, re.findall(r"\d+", line)[:2])
            assert f"{number:3d}) " in "\n".join(game_lines(plain, game)), line


def test_gnubg_reads_the_timed_export_as_it_reads_the_plain_one(
    played: list[Exported],
) -> None:
    files = [path for each in played for path in (each.plain, each.timed)]
    exported = gnubg_exports(files)
    for each in played:
        plain, timed = games_of(exported[each.plain]), games_of(exported[each.timed])
        assert timed == plain, each.demo.name
        games = sum(isinstance(record, GameStarted) for record in each.records)
        assert plain.count(" Game ") == games, each.demo.name
        assert "; Times of the numbered lines below" in exported[each.timed]


def standing(records: list[Record]) -> list[Record]:
    """The records whose actions the file writes: a play taken back goes with its takeback,
    and a game's actions from an illegal play accepted to its end are not written."""
    kept: list[Record] = []
    cut = False
    for record in records:
        if isinstance(record, GameStarted):
            cut = False
        elif isinstance(record, IllegalAccepted):
            cut = True  # it stands for the illegal play, of which only the roll is written
        if isinstance(record, TakenBack):
            kept.pop()
        elif not cut:
            kept.append(record)
    return kept


def game_lines(lines: list[str], game: int) -> list[str]:
    """The lines of game ``game`` in a ``.mat`` file."""
    start = lines.index(f" Game {game}")
    end = next((n for n in range(start + 1, len(lines)) if lines[n].startswith(" Game ")), None)
    return lines[start:end]
