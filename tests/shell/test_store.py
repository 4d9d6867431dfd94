"""The journal: records go in and come back, the file is guarded, the schema migrates, and a
process killed while appending leaves a journal that opens with what it acknowledged."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bgpi.journal import schema
from bgpi.journal.records import (
    CubeAction,
    GameEnded,
    GameStarted,
    MatchStarted,
    OpeningRolled,
    Played,
    Record,
    Rolled,
)
from bgpi.journal.store import (
    APPLICATION_ID,
    CorruptJournalError,
    EmptyJournalError,
    ForeignJournalError,
    Journal,
    JournalError,
    JournalVersionError,
    LockedJournalError,
    MatchInfo,
    NoJournalError,
    NoMatchError,
    WalJournalError,
    schema_version,
)
from tests.shell.matches import final_score, play_match

ROOT = Path(__file__).resolve().parents[2]


class Clock:
    """A clock that ticks one second per reading."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        self.now += 1
        return self.now


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "journal.sqlite"


@pytest.fixture
def journal(path: Path) -> Iterator[Journal]:
    with Journal.open(path, clock=Clock()) as journal:
        yield journal


def a_game() -> list[Record]:
    return [
        GameStarted(),
        OpeningRolled(3, 1),
        Played(0, ((8, 5, 3, False), (6, 5, 1, False))),
        Rolled(1, (6, 4)),
        Played(1, ((24, 18, 6, False), (13, 9, 4, False))),
        CubeAction(0, "double"),
        CubeAction(1, "drop"),
        GameEnded(0, 1, 1, dropped=True),
    ]


def raw(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path, isolation_level=None)


# -- records in and out ---------------------------------------------------------------------


def test_a_new_journal_is_bgpi_s_schema_in_wal_mode(journal: Journal, path: Path) -> None:
    db = raw(path)
    assert db.execute("PRAGMA application_id").fetchone() == (APPLICATION_ID,)
    assert db.execute("PRAGMA user_version").fetchone() == (schema_version(),) == (3,)
    assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    db.close()
    assert path.read_bytes()[68:72] == b"bgpi"


def test_records_come_back_in_order(journal: Journal, path: Path) -> None:
    assert journal.records() == []
    assert journal.new_match(MatchStarted(5)) == 1
    assert [journal.append(record) for record in a_game()] == list(range(1, 9))
    assert journal.records() == [MatchStarted(5), *a_game()]
    journal.close()
    with Journal.open(path) as again:
        assert again.records() == [MatchStarted(5), *a_game()]


def test_each_record_is_stamped_by_the_clock(journal: Journal, path: Path) -> None:
    journal.new_match(MatchStarted(3))
    journal.append(GameStarted())
    journal.append(OpeningRolled(3, 1), at=5.0)
    db = raw(path)
    assert db.execute("SELECT seq, at FROM records ORDER BY seq").fetchall() == [
        (0, 1_700_000_001.0),
        (1, 1_700_000_002.0),
        (2, 5.0),
    ]
    db.close()
    assert journal.matches()[0].started_at == 1_700_000_001.0


def test_records_go_to_the_latest_match(journal: Journal) -> None:
    first = journal.new_match(MatchStarted(3))
    journal.append(GameStarted())
    assert journal.append(MatchStarted(0, names=("Ann", "Bob"))) == 0
    journal.append(GameStarted())
    journal.append(OpeningRolled(2, 2))
    assert journal.records() == [
        MatchStarted(0, names=("Ann", "Bob")),
        GameStarted(),
        OpeningRolled(2, 2),
    ]
    assert journal.records(first) == [MatchStarted(3), GameStarted()]


def test_the_match_list_has_names_games_and_scores(journal: Journal) -> None:
    finished = play_match(3, MatchStarted(3, names=("Ann", "Bob")), double_rate=0.05)
    for record in finished:
        journal.append(record)
    journal.new_match(MatchStarted(0))
    for record in a_game():
        journal.append(record)
    journal.append(GameStarted())
    games = sum(isinstance(record, GameEnded) for record in finished)
    infos = journal.matches()
    assert infos == [
        MatchInfo(1, infos[0].started_at, 3, ("Ann", "Bob"), games, final_score(finished)),
        MatchInfo(2, infos[1].started_at, 0, ("White", "Black"), 1, (1, 0)),
    ]
    assert [info.finished for info in infos] == [True, False]
    assert not MatchInfo(3, 0.0, 5, ("a", "b"), 2, (4, 3)).finished


def test_no_match_yet_or_no_such_match(journal: Journal) -> None:
    with pytest.raises(NoMatchError, match="no match yet"):
        journal.append(GameStarted())
    journal.new_match(MatchStarted(3))
    with pytest.raises(NoMatchError, match="no match 7"):
        journal.records(7)
    with pytest.raises(LookupError):
        journal.records(7)


def test_a_match_starts_with_match_started(journal: Journal) -> None:
    with pytest.raises(TypeError, match="MatchStarted"):
        journal.new_match(GameStarted())  # type: ignore[arg-type]


def test_close_is_idempotent_and_ends_the_use(path: Path) -> None:
    journal = Journal.open(path)
    journal.close()
    journal.close()
    assert "closed" in repr(journal)
    with pytest.raises(JournalError, match="closed"):
        journal.records()
    with pytest.raises(JournalError, match="closed"):
        journal.append(GameStarted())


def test_the_journal_is_append_only(journal: Journal, path: Path) -> None:
    journal.new_match(MatchStarted(3))
    journal.append(GameStarted())
    db = raw(path)
    for statement in (
        "UPDATE records SET record = '{}'",
        "DELETE FROM records",
        "UPDATE matches SET length = 7",
        "DELETE FROM matches",
    ):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            db.execute(statement)
    db.close()
    assert journal.records() == [MatchStarted(3), GameStarted()]


# -- files that are not a bgpi journal are left alone -----------------------------------


def refused(
    path: Path,
    error: type[JournalError],
    message: str,
    *,
    read_only: bool = False,
    connected: bool = False,
) -> None:
    """Opening ``path`` raises ``error`` in one line naming the file, and changes no byte of
    it, nor adds a file (but, once ``connected``, the empty log and index SQLite makes to read
    a journal)."""
    before = path.read_bytes()
    files = set(path.parent.iterdir())
    with pytest.raises(error, match=message) as caught:
        Journal.open(path, read_only=read_only)
    assert str(path) in str(caught.value)
    assert "\n" not in str(caught.value)
    assert path.read_bytes() == before
    added = set(path.parent.iterdir()) - files
    assert {p.name[len(path.name) :] for p in added} <= ({"-wal", "-shm"} if connected else set())
    assert not any(p.stat().st_size for p in added if p.name.endswith("-wal"))


@pytest.mark.parametrize(
    "content",
    [b"hello, I am a text file\n" * 40, b"SQLite format 3\x00 but short", b"\x00" * 4096],
)
def test_a_file_that_is_not_sqlite_is_refused(path: Path, content: bytes) -> None:
    path.write_bytes(content)
    refused(path, ForeignJournalError, "not a SQLite database")


def test_another_application_s_database_is_refused(path: Path) -> None:
    db = raw(path)
    db.execute("CREATE TABLE records (x)")
    db.execute("INSERT INTO records VALUES (1)")
    db.close()
    refused(path, ForeignJournalError, "another application .application id 0x0")
    db = raw(path)
    db.execute("PRAGMA application_id = 42")
    db.close()
    refused(path, ForeignJournalError, "application id 0x2a")


def test_a_journal_of_a_newer_bgpi_is_refused(path: Path) -> None:
    with Journal.open(path) as journal:
        journal.new_match(MatchStarted(3))
    db = raw(path)
    db.execute("PRAGMA user_version = 4")
    db.close()
    refused(path, JournalVersionError, "schema version 4; this bgpi knows up to 3")


def test_a_newer_version_still_in_the_wal_is_refused(path: Path) -> None:
    Journal.open(path).close()
    newer = raw(path)
    newer.execute("PRAGMA wal_autocheckpoint = 0")
    newer.execute("PRAGMA user_version = 4")  # in the WAL only, while this stays open
    assert path.read_bytes()[60:64] == (3).to_bytes(4, "big")
    with pytest.raises(JournalVersionError, match="schema version 4"):
        Journal.open(path)
    newer.close()


def test_an_empty_file_is_refused_not_started_over(path: Path) -> None:
    path.touch()
    refused(path, EmptyJournalError, r"is empty \(0 bytes\).*move it aside")
    refused(path, EmptyJournalError, "is empty", read_only=True)


def test_a_new_journal_appears_whole_under_its_name(path: Path) -> None:
    leftover = path.with_name(path.name + ".new")
    leftover.write_bytes(b"half made when the power went")  # a cut during a creation
    with Journal.open(path) as journal:
        assert journal.records() == []
    assert not leftover.exists()
    assert path.read_bytes().startswith(b"SQLite format 3\x00")
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]


def test_a_missing_directory_is_a_journal_error(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match="cannot create the journal"):
        Journal.open(tmp_path / "nowhere" / "journal.sqlite")


# -- damaged content ----------------------------------------------------------------------


def insert(path: Path, match_id: int, seq: int, text: str, kind: str = "roll") -> None:
    db = raw(path)
    db.execute(
        "INSERT INTO records (match_id, seq, kind, at, record) VALUES (?, ?, ?, 0, ?)",
        (match_id, seq, kind, text),
    )
    db.close()


def test_a_record_that_does_not_parse_names_its_row(journal: Journal, path: Path) -> None:
    journal.new_match(MatchStarted(3))
    journal.append(GameStarted())
    insert(path, 1, 2, '{"kind":"roll","player":0}')
    with pytest.raises(CorruptJournalError, match=r"record 2 of match 1 cannot be read: .*fields"):
        journal.records()
    insert(path, 1, 3, "not json", kind="end")
    with pytest.raises(CorruptJournalError, match="record 3 of match 1 cannot be read"):
        journal.matches()


def test_a_missing_record_is_corruption(journal: Journal, path: Path) -> None:
    journal.new_match(MatchStarted(3))
    insert(path, 1, 2, '{"kind":"game"}')
    with pytest.raises(CorruptJournalError, match="record 2 of match 1 stands where record 1"):
        journal.records()


def test_a_match_must_begin_with_its_start(journal: Journal, path: Path) -> None:
    journal.new_match(MatchStarted(3))
    journal.append(MatchStarted(5))
    insert(
        path,
        2,
        1,
        '{"kind":"match","length":1,"crawford":true,"jacoby":false,'
        '"beaver":false,"automatic_doubles":0,"cube_limit":64,"names":["a","b"]}',
    )
    with pytest.raises(CorruptJournalError, match="record 1 of match 2 is a MatchStarted"):
        journal.records()


def test_a_journal_without_its_tables_is_corrupt(path: Path) -> None:
    Journal.open(path).close()
    db = raw(path)
    db.execute("DROP TABLE records")
    db.close()
    with pytest.raises(CorruptJournalError, match="no table records"):
        Journal.open(path)


# -- migrations ---------------------------------------------------------------------------


def add_venue(db: sqlite3.Connection) -> None:
    db.execute("ALTER TABLE matches ADD COLUMN venue TEXT NOT NULL DEFAULT 'club'")


def test_an_older_schema_is_migrated(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with Journal.open(path) as journal:
        journal.new_match(MatchStarted(3))
        journal.append(GameStarted())
    monkeypatch.setattr(schema, "MIGRATIONS", (*schema.MIGRATIONS, add_venue))
    assert schema_version() == 4
    with Journal.open(path) as journal:
        assert journal.records() == [MatchStarted(3), GameStarted()]
        journal.append(OpeningRolled(6, 1))
    db = raw(path)
    assert db.execute("PRAGMA user_version").fetchone() == (4,)
    assert db.execute("SELECT venue FROM matches").fetchall() == [("club",)]
    db.close()


def test_a_bgpi_database_of_version_0_gets_the_whole_schema(path: Path) -> None:
    db = raw(path)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.close()
    with Journal.open(path) as journal:
        journal.new_match(MatchStarted(7))
        assert journal.records() == [MatchStarted(7)]


def test_a_failed_migration_leaves_the_journal_as_it_was(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def half_done(db: sqlite3.Connection) -> None:
        add_venue(db)
        raise RuntimeError("disk on fire")

    with Journal.open(path) as journal:
        journal.new_match(MatchStarted(3))
    monkeypatch.setattr(schema, "MIGRATIONS", (*schema.MIGRATIONS, half_done))
    with pytest.raises(JournalError, match=r"from schema version 3 to 4 failed.*disk on fire"):
        Journal.open(path)
    db = raw(path)
    assert db.execute("PRAGMA user_version").fetchone() == (3,)
    columns = [row[1] for row in db.execute("PRAGMA table_info(matches)")]
    assert "venue" not in columns
    db.close()
    monkeypatch.undo()
    with Journal.open(path) as journal:
        assert journal.records() == [MatchStarted(3)]


# -- a process killed while appending -----------------------------------------------------

APPENDER = """
import sys
from bgpi.journal.records import MatchStarted
from bgpi.journal.store import Journal
from tests.shell.matches import play_match

records = play_match(int(sys.argv[2]), MatchStarted(5))
with Journal.open(sys.argv[1]) as journal:
    done = len(journal.records())
    if not done:
        journal.new_match(records[0])
        done = 1
        print(done, flush=True)
    for record in records[done:]:
        done = journal.append(record) + 1
        print(done, flush=True)
print("all", flush=True)
"""


def run_appender(path: Path, seed: int, stop_after: Callable[[], int]) -> int:
    """Run the appender and SIGKILL it after ``stop_after()`` acknowledgements and a random
    moment more; return how many records it acknowledged (-1 if it finished first)."""
    child = subprocess.Popen(
        [sys.executable, "-c", APPENDER, str(path), str(seed)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    acknowledged = 0
    for _ in range(stop_after()):
        line = child.stdout.readline().strip()
        if line in ("all", ""):
            child.wait()
            return -1
        acknowledged = int(line)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    for line in child.stdout.read().split():
        if line != "all":
            acknowledged = int(line)
    child.stdout.close()
    return acknowledged


def test_a_killed_appender_leaves_a_prefix_of_its_records(path: Path) -> None:
    seed = 11
    expected = play_match(seed, MatchStarted(5))
    rng = random.Random(seed)
    kills = 0
    while True:
        acknowledged = run_appender(path, seed, lambda: rng.randint(1, 25))
        with Journal.open(path) as journal:
            found = journal.records()
        assert found == expected[: len(found)]
        if acknowledged < 0:
            break
        kills += 1
        assert len(found) >= acknowledged
    assert found == expected
    assert kills >= 3


# -- a journal that names its damage, and readers that never write ----------------------


def a_long_match(path: Path) -> list[Record]:
    records = play_match(5, MatchStarted(7))
    with Journal.open(path) as journal:
        journal.append_all(records)
    return records


def test_a_reader_never_writes(path: Path) -> None:
    with pytest.raises(NoJournalError, match="no journal at"):
        Journal.open(path, read_only=True)
    assert not path.exists()
    records = a_long_match(path)
    writer = Journal.open(path)
    writer.append(GameStarted())  # in the WAL, not yet in the file
    files = {p.name: p.read_bytes() for p in path.parent.iterdir() if p.suffix != ".sqlite-shm"}
    with Journal.open(path, read_only=True) as reader:
        assert reader.records() == [*records, GameStarted()]
        assert "read-only" in repr(reader)
        with pytest.raises(JournalError, match="cannot write"):
            reader.append(GameStarted())
    for name, content in files.items():
        assert (path.parent / name).read_bytes() == content, name
    writer.close()


def test_a_reader_refuses_a_newer_version_still_in_the_wal(path: Path) -> None:
    Journal.open(path).close()
    newer = raw(path)
    newer.execute("PRAGMA wal_autocheckpoint = 0")
    newer.execute("PRAGMA user_version = 4")
    with pytest.raises(JournalVersionError, match="use a newer bgpi"):
        Journal.open(path, read_only=True)
    newer.close()


@pytest.mark.parametrize("read_only", [False, True])
def test_a_corrupt_journal_is_named_and_left_alone(path: Path, read_only: bool) -> None:
    a_long_match(path)
    size = path.stat().st_size
    assert size >= 4 * 4096
    with path.open("r+b") as file:  # a page of the records scribbled over, header intact
        file.seek(size - 2 * 4096)
        file.write(b"\xa5" * 4096)
    refused(
        path, CorruptJournalError, "corrupt: .*move it aside", read_only=read_only, connected=True
    )


@pytest.mark.parametrize("read_only", [False, True])
def test_a_wal_that_cannot_be_applied_is_named(path: Path, read_only: bool) -> None:
    a_long_match(path)
    wal = path.with_name(path.name + "-wal")
    wal.mkdir()  # what the log should be cannot even be opened
    with pytest.raises(WalJournalError, match=r"-wal \(the journal's write-ahead log") as caught:
        Journal.open(path, read_only=read_only)
    assert "move the journal and both of them aside" in str(caught.value)


def test_a_second_writer_is_refused_while_readers_go_on(path: Path) -> None:
    records = a_long_match(path)
    with Journal.open(path) as writer:
        refused(
            path, LockedJournalError, "in use by another bgpi .run, demo or sim.", connected=True
        )
        with Journal.open(path, read_only=True) as reader:
            assert reader.records() == records
        writer.append(GameStarted())
    with Journal.open(path) as again:  # the lock goes with the writer
        assert again.records() == [*records, GameStarted()]


@pytest.mark.parametrize("read_only", [False, True])
def test_a_journal_locked_by_another_program_is_named(path: Path, read_only: bool) -> None:
    a_long_match(path)
    shell = raw(path)
    shell.execute("PRAGMA locking_mode = EXCLUSIVE")
    shell.execute("BEGIN EXCLUSIVE")
    with pytest.raises(LockedJournalError, match=r"locked by another process.*try again"):
        Journal.open(path, read_only=read_only)
    shell.close()


def test_every_record_of_a_step_goes_in_one_transaction(journal: Journal, path: Path) -> None:
    journal.new_match(MatchStarted(3))
    fails = raw(path)
    fails.execute(
        "CREATE TRIGGER no_end BEFORE INSERT ON records WHEN NEW.kind = 'end' "
        "BEGIN SELECT RAISE(ABORT, 'no end today'); END"
    )
    fails.close()
    with pytest.raises(JournalError, match="no end today"):
        journal.append_all([CubeAction(1, "drop"), GameEnded(0, 1, 1, dropped=True)])
    assert journal.records() == [MatchStarted(3)]  # not the drop without its end
    journal.append_all([GameStarted(), MatchStarted(1), GameStarted()])
    assert journal.records() == [MatchStarted(1), GameStarted()]
    assert journal.records(1) == [MatchStarted(3), GameStarted()]
