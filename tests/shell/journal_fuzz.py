"""Damaged journals by the hundred: ``bgpi status`` and ``bgpi export`` run on each, and what
they do counted.

Each case takes a sound journal (closed, or as a power cut left it, with its ``-wal`` and
``-shm``), damages a copy of it (bytes flipped, a page zeroed, the file cut short, another
journal's ``-wal`` beside it, an old ``-wal`` of its own, records swapped, deleted or made
another kind...), runs both commands on it in a subprocess, and sorts what each did:

- refused: exit status 1, one line naming the journal;
- same: exit status 0, the same output as on the sound journal (the damage missed what the
  command reads: free space, an older match);
- silent wrong answer: exit status 0 with another output. Must be 0;
- traceback (or an internal error, an exit status other than 0 and 1, more than one line,
  a hang). Must be 0;
- files changed by a command that refused. Must be 0 (nor may a reader change any);
- rolled back: the damage is inside the ``-wal``, whose own checksums make SQLite drop the
  damaged commit and every later one, so the journal reads as it stood before them: what a
  power cut at that moment would leave, which nothing in the files can tell apart. Counted
  apart from the silent wrong answers, and only for that damage;
- false alarms: a sound journal (controls: no damage, its own ``-wal`` without its ``-shm``)
  refused. Must be 0.

Shared by ``tests/shell/test_journal_fuzz.py`` (a slice) and ``scripts/fuzz_journals.py``.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from bgpi.journal.records import GameStarted, MatchStarted, Record, Rolled, to_json
from bgpi.journal.store import JOURNAL_NAME, Journal
from tests.shell.matches import play_match

ROOT = Path(__file__).resolve().parents[2]
SIDES = ("", "-wal", "-shm")
COMMANDS = {"status": ["status"], "export": ["export", "-o", "-"]}
PAGE = 4096


@dataclass(frozen=True)
class Base:
    """A sound journal to damage copies of: its files, its matches' records, and what each
    command prints on it."""

    directory: Path
    matches: tuple[tuple[Record, ...], ...]
    answers: dict[str, str] = field(default_factory=dict)

    @property
    def power_cut(self) -> bool:
        return (self.directory / f"{JOURNAL_NAME}-wal").exists()


Damage = Callable[[Path, random.Random, "Workshop"], "Base | None"]
"""Damages the journal in a state directory; returns the sound journal it damaged, if that is
not the base it was copied from."""


@dataclass
class Tally:
    """What the campaign saw; ``problems`` describes each case that is not as it must be."""

    cases: int = 0
    runs: int = 0
    refused: int = 0
    same: int = 0
    wrong: int = 0
    tracebacks: int = 0
    changed: int = 0
    rolled_back: int = 0
    false_alarms: int = 0
    problems: list[str] = field(default_factory=list)
    by_damage: dict[str, int] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __str__(self) -> str:
        return (
            f"{self.cases} damaged journals, {self.runs} runs: refused {self.refused}, same "
            f"answer {self.same}, silent wrong answers {self.wrong}, tracebacks "
            f"{self.tracebacks}, files changed {self.changed}, false alarms "
            f"{self.false_alarms}, rolled back by a damaged -wal {self.rolled_back}"
        )

    @property
    def bad(self) -> bool:
        return bool(self.wrong or self.tracebacks or self.changed or self.false_alarms)

    def begin(self, damage: str) -> None:
        with self._lock:
            self.cases += 1
            self.by_damage[damage] = self.by_damage.get(damage, 0) + 1

    def count(self, run: Run, journal: Path) -> None:
        outcome, problem = run.outcome(journal)
        with self._lock:
            self.runs += 1
            setattr(self, outcome, getattr(self, outcome) + 1)
            if problem is not None:
                self.problems.append(f"{run.where}: {problem}")
            if run.changed:
                self.changed += 1
                self.problems.append(f"{run.where}: files changed (exit {run.code})")


class Workshop:
    """Where the sound journals are made (once) and the damaged copies go."""

    def __init__(self, root: Path, seed: int) -> None:
        self.root = root
        self.seed = seed
        self.bases: list[Base] = []
        self.config = root / "bgpi.toml"
        self.config.write_text("[web]\nenabled = false\n", encoding="utf-8")
        for number, power_cut in enumerate((False, True, False, True)):
            self.bases.append(self._base(number, power_cut))
        self.donor = self._live(root / "donor", [play_match(seed + 99, MatchStarted(7))[:150]])

    # -- the sound journals ------------------------------------------------------------------

    def _base(self, number: int, power_cut: bool) -> Base:
        rng = random.Random(self.seed * 100 + number)
        matches = [play_match(rng.randrange(1000), MatchStarted(rng.choice((3, 5, 7))))]
        if number >= 2:  # a second match, under way
            second = play_match(rng.randrange(1000), MatchStarted(5))
            matches.append(second[: rng.randrange(5, len(second))])
        directory = self.root / f"base{number}"
        if power_cut:
            self._live(directory, matches)
        else:
            directory.mkdir()
            with Journal.open(directory / JOURNAL_NAME) as journal:
                for records in matches:
                    journal.append_all(records)
        base = Base(directory, tuple(tuple(m) for m in matches))
        for command in COMMANDS:
            code, out, err = self.run(command, directory)
            assert code == 0, err
            base.answers[command] = out
        return base

    def _live(self, directory: Path, matches: list[list[Record]]) -> Path:
        """A journal as a power cut leaves it: the last match in the -wal, its writer still
        at it when the files are copied."""
        live = directory.with_name(directory.name + "-live") / JOURNAL_NAME
        live.parent.mkdir()
        with Journal.open(live) as journal:
            for records in matches[:-1]:
                journal.append_all(records)
        with Journal.open(live) as journal:
            journal.append_all(matches[-1])
            directory.mkdir()
            for side in SIDES:
                shutil.copyfile(f"{live}{side}", directory / f"{JOURNAL_NAME}{side}")
        return directory / JOURNAL_NAME

    # -- running the commands ----------------------------------------------------------------

    def run(self, command: str, state_dir: Path) -> tuple[int, str, str]:
        try:
            done = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "bgpi",
                    *COMMANDS[command],
                    "--state-dir",
                    str(state_dir),
                    "--config",
                    str(self.config),
                ],
                check=False,
                capture_output=True,
                text=True,
                errors="replace",
                timeout=120,
                cwd=ROOT,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
            )
        except subprocess.TimeoutExpired:
            return -1, "", "hung: no answer in 120 s"
        return done.returncode, done.stdout, done.stderr


# -- the damage ------------------------------------------------------------------------------


def journal_of(state_dir: Path) -> Path:
    return state_dir / JOURNAL_NAME


def flip_bytes(state_dir: Path, rng: random.Random, _shop: Workshop) -> None:
    """One to three bytes anywhere in the file, the header too."""
    _flip(journal_of(state_dir), rng, rng.randint(1, 3), start=0)


def flip_in_a_record(state_dir: Path, rng: random.Random, _shop: Workshop) -> None:
    """A byte of a record's text in the file (its JSON, or just before it)."""
    path = journal_of(state_dir)
    content = bytearray(path.read_bytes())
    places = [m.start() for m in re.finditer(rb'\{"kind":"', content)]
    if not places:
        _flip(path, rng, 1, start=100)
        return
    at = rng.choice(places) + rng.randrange(-4, 40)
    content[min(at, len(content) - 1)] ^= rng.randrange(1, 256)
    path.write_bytes(bytes(content))


def zero_a_page(state_dir: Path, rng: random.Random, _shop: Workshop) -> None:
    path = journal_of(state_dir)
    pages = path.stat().st_size // PAGE
    with path.open("r+b") as file:
        file.seek(rng.randrange(pages) * PAGE)
        file.write(bytes(PAGE))


def cut_short(state_dir: Path, rng: random.Random, _shop: Workshop) -> None:
    """The file truncated: at a page boundary, or anywhere."""
    path = journal_of(state_dir)
    size = path.stat().st_size
    length = rng.randrange(size)
    if rng.random() < 0.5:
        length -= length % PAGE
    os.truncate(path, length)


def another_journal_s_wal(state_dir: Path, rng: random.Random, shop: Workshop) -> None:
    """The donor's -wal beside the journal, with its -shm or without."""
    shutil.copyfile(f"{shop.donor}-wal", journal_of(state_dir).with_name(f"{JOURNAL_NAME}-wal"))
    shm = journal_of(state_dir).with_name(f"{JOURNAL_NAME}-shm")
    if rng.random() < 0.5:
        shutil.copyfile(f"{shop.donor}-shm", shm)
    else:
        shm.unlink(missing_ok=True)


def an_old_wal_of_its_own(state_dir: Path, rng: random.Random, shop: Workshop) -> Base:
    """Its own -wal (a power-cut journal's) put back beside it after the journal moved on: a
    backup of the log, say. The sound journal is the one that moved on."""
    path = journal_of(state_dir)
    old = {side: Path(f"{path}{side}").read_bytes() for side in SIDES[1:]}
    more: list[Record] = [MatchStarted(1), GameStarted()][: rng.randint(1, 2)]
    with Journal.open(path) as journal:  # the log folded into the file, and more records
        journal.append_all(more)
    moved_on = Base(state_dir, ())
    for command in COMMANDS:
        moved_on.answers[command] = shop.run(command, state_dir)[1]
    for side, content in old.items():
        if side == "-wal" or rng.random() < 0.5:
            Path(f"{path}{side}").write_bytes(content)
    return moved_on


def swap_two_records(state_dir: Path, rng: random.Random, _shop: Workshop) -> None:
    match_id, count = _a_match(state_dir, rng)
    first, second = rng.sample(range(1, count), 2)
    _sql(
        journal_of(state_dir),
        "UPDATE records SET record = CASE seq "
        f"WHEN {first} THEN (SELECT record FROM records WHERE match_id = {match_id} "
        f"AND seq = {second}) ELSE (SELECT record FROM records WHERE match_id = {match_id} "
        f"AND seq = {first}) END WHERE match_id = {match_id} AND seq IN ({first}, {second})",
    )


def delete_rows(state_dir: Path, rng: random.Random, _shop: Workshop) -> None:
    """One to three records gone; half the time the number the journal keeps mended too."""
    match_id, count = _a_match(state_dir, rng)
    gone = rng.sample(range(1, count), min(count - 1, rng.randint(1, 3)))
    statements = [
        f"DELETE FROM records WHERE match_id = {match_id} AND seq IN ({','.join(map(str, gone))})"
    ]
    if rng.random() < 0.5:
        statements.append(f"UPDATE journal SET records = records - {len(gone)}")
    _sql(journal_of(state_dir), *statements)


def delete_the_last_rows(state_dir: Path, rng: random.Random, _shop: Workshop) -> None:
    """The journal's last records gone, its number of records mended."""
    gone = rng.randint(1, 4)
    _sql(
        journal_of(state_dir),
        f"DELETE FROM records WHERE rowid > (SELECT MAX(rowid) - {gone} FROM records)",
        f"UPDATE journal SET records = records - {gone}",
    )


def another_kind(state_dir: Path, rng: random.Random, _shop: Workshop) -> None:
    """A record replaced by a sound record of another kind, filed as that kind."""
    match_id, count = _a_match(state_dir, rng)
    seq = rng.randrange(1, count)
    record = rng.choice([GameStarted(), Rolled(rng.randrange(2), (rng.randint(1, 6), 3))])
    _sql(
        journal_of(state_dir),
        f"UPDATE records SET kind = '{record.kind}', record = '{to_json(record)}' "
        f"WHERE match_id = {match_id} AND seq = {seq}",
    )


def flip_in_the_wal(state_dir: Path, rng: random.Random, _shop: Workshop) -> None:
    """A byte of the -wal (a power-cut journal's): SQLite's checksums reject its commit."""
    _flip(journal_of(state_dir).with_name(f"{JOURNAL_NAME}-wal"), rng, 1, start=0)


def no_damage(state_dir: Path, rng: random.Random, _shop: Workshop) -> None:
    """A control: nothing, or only its -shm gone (a backup without it)."""
    if rng.random() < 0.5:
        journal_of(state_dir).with_name(f"{JOURNAL_NAME}-shm").unlink(missing_ok=True)


DAMAGES: dict[str, Damage] = {
    "bytes flipped": flip_bytes,
    "a byte of a record flipped": flip_in_a_record,
    "a page zeroed": zero_a_page,
    "cut short": cut_short,
    "another journal's -wal": another_journal_s_wal,
    "an old -wal of its own": an_old_wal_of_its_own,
    "two records swapped": swap_two_records,
    "records deleted": delete_rows,
    "the last records deleted": delete_the_last_rows,
    "a record of another kind": another_kind,
    "a byte of the -wal flipped": flip_in_the_wal,
    "no damage (a control)": no_damage,
}
WAL_ONLY = {"a byte of the -wal flipped", "an old -wal of its own"}  # power-cut journals
CONTROLS = {"no damage (a control)"}


def _flip(path: Path, rng: random.Random, count: int, *, start: int) -> None:
    content = bytearray(path.read_bytes())
    for _ in range(count):
        content[rng.randrange(start, len(content))] ^= rng.randrange(1, 256)
    path.write_bytes(bytes(content))


def _a_match(state_dir: Path, rng: random.Random) -> tuple[int, int]:
    """A match to damage (the latest, mostly) and how many records it has."""
    db = sqlite3.connect(journal_of(state_dir))
    counts = db.execute("SELECT match_id, COUNT(*) FROM records GROUP BY match_id").fetchall()
    db.close()
    match_id, count = counts[-1] if rng.random() < 0.8 else rng.choice(counts)
    return int(match_id), int(count)


def _sql(path: Path, *statements: str) -> None:
    """Another program's change, the append-only rule out of its way, folded into the file."""
    db = sqlite3.connect(path, isolation_level=None)
    for table in ("matches", "records"):
        for action in ("update", "delete"):
            db.execute(f"DROP TRIGGER IF EXISTS {table}_append_only_{action}")
    for statement in statements:
        db.execute(statement)
    db.close()


# -- a case ----------------------------------------------------------------------------------


def files(state_dir: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(state_dir.iterdir()) if p.is_file()}


def case(shop: Workshop, number: int, tally: Tally) -> None:
    """Damage a copy of a sound journal, run both commands on it, and count what they did."""
    rng = random.Random(f"{shop.seed}:{number}")
    base = rng.choice(shop.bases)
    names = [n for n in DAMAGES if base.power_cut or n not in WAL_ONLY]
    name = rng.choice(names)
    state_dir = shop.root / f"case{number}"
    shutil.copytree(base.directory, state_dir)
    sound = DAMAGES[name](state_dir, rng, shop) or base
    tally.begin(name)
    for command in COMMANDS:
        before = files(state_dir)
        code, out, err = shop.run(command, state_dir)
        where = f"case {number} ({name}, {base.directory.name}) {command}"
        run = Run(where, name, sound, command, code, out, err, before != files(state_dir))
        tally.count(run, journal_of(state_dir))
    shutil.rmtree(state_dir)


@dataclass(frozen=True)
class Run:
    """One command on one damaged journal, and what it did."""

    where: str
    damage: str
    sound: Base
    command: str
    code: int
    out: str
    err: str
    changed: bool

    def outcome(self, journal: Path) -> tuple[str, str | None]:
        """What it did (a :class:`Tally` field), and what is wrong with that (None: nothing)."""
        lines = self.err.strip().splitlines()
        first = lines[0] if lines else ""
        broke = "Traceback" in self.err or "internal error" in self.err or len(lines) > 1
        if self.code not in (0, 1) or broke:
            return "tracebacks", f"exit {self.code}: {self.err.strip()[-300:]}"
        if self.code == 1:
            return self._refusal(first, journal)
        if self.out == self.sound.answers[self.command]:
            return "same", None
        if self.damage == "a byte of the -wal flipped" and _earlier(journal, self.sound):
            return "rolled_back", None
        return "wrong", f"exit 0 with another answer: {self.out[:120]!r}"

    def _refusal(self, line: str, journal: Path) -> tuple[str, str | None]:
        if self.damage in CONTROLS:
            return "false_alarms", f"a sound journal refused: {line}"
        if str(journal) not in line:
            return "tracebacks", f"refused without naming the journal: {line}"
        return "refused", None


def _earlier(path: Path, base: Base) -> bool:
    """Whether the journal reads as the sound one stood at an earlier commit."""
    try:
        with Journal.open(path, read_only=True) as journal:
            matches = [tuple(journal.records(info.id)) for info in journal.matches()]
    except Exception:  # unreadable in-process: not an earlier state
        return False
    if not matches or len(matches) > len(base.matches):
        return False
    last = len(matches) - 1
    return matches[:last] == list(base.matches[:last]) and (
        base.matches[last][: len(matches[last])] == matches[last]
    )


def campaign(
    root: Path,
    *,
    count: int,
    seed: int,
    workers: int = 2,
    say: Callable[[str], None] = lambda _: None,
) -> Tally:
    """``count`` damaged journals from ``seed``, in ``root``."""
    shop = Workshop(root, seed)
    tally = Tally()
    with ThreadPoolExecutor(workers) as pool:
        for done, _ in enumerate(pool.map(lambda n: case(shop, n, tally), range(count)), 1):
            if done % 25 == 0:
                say(f"{done}: {tally}")
    return tally
