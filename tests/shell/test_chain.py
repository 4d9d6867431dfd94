"""Each journal has its own identity and each record a hash chained to the one before it: a
record changed, lost, moved or taken from another journal, and a write-ahead log that is not
the journal's own, are named as damage (with the record's number), never shown as a match;
and ``export`` checks a match as ``status`` does before it writes a line."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bgpi.cli import main
from bgpi.journal import schema
from bgpi.journal.chain import link, seed
from bgpi.journal.records import GameEnded, MatchStarted, Played, Record, Rolled
from bgpi.journal.store import (
    JOURNAL_NAME,
    CorruptJournalError,
    ForeignWalError,
    Journal,
)
from tests.shell.matches import play_match
from tests.shell.test_damage import bgpi_command, snapshot

ROOT = Path(__file__).resolve().parents[2]
FIRST = play_match(5, MatchStarted(7, names=("Ann", "Bob")))
SECOND = play_match(5, MatchStarted(5))[:10]  # Black to roll


@pytest.fixture
def path(tmp_path: Path) -> Path:
    state_dir = tmp_path / "state"
    state_dir.mkdir()
    return state_dir / JOURNAL_NAME


def two_matches(path: Path) -> None:
    with Journal.open(path) as journal:
        journal.append_all(FIRST)
        journal.append_all(SECOND)


def tamper(path: Path, *statements: str) -> None:
    """Another program changes the journal (the append-only rule out of its way), and the
    change is folded into the file."""
    db = sqlite3.connect(path, isolation_level=None)
    for table in ("matches", "records"):
        for action in ("update", "delete"):
            db.execute(f"DROP TRIGGER IF EXISTS {table}_append_only_{action}")
    for statement in statements:
        db.execute(statement)
    db.close()


def stored(path: Path) -> list[tuple[int, int, str, float, str, bytes]]:
    db = sqlite3.connect(path)
    rows = db.execute(
        "SELECT match_id, seq, kind, at, record, hash FROM records ORDER BY match_id, seq"
    ).fetchall()
    db.close()
    return rows


def identity(path: Path) -> tuple[bytes, int, bytes]:
    db = sqlite3.connect(path)
    row: tuple[bytes, int, bytes] = db.execute("SELECT id, records, tip FROM journal").fetchone()
    db.close()
    return row


# -- the identity and the chain ------------------------------------------------------------


def test_each_journal_has_its_own_identity_kept_for_good(tmp_path: Path) -> None:
    ids = []
    for name in ("a.sqlite", "b.sqlite"):
        with Journal.open(tmp_path / name) as journal:
            journal.append_all(SECOND)
        with Journal.open(tmp_path / name):
            pass
        ids.append(identity(tmp_path / name)[0])
    assert ids[0] != ids[1]
    assert {len(journal_id) for journal_id in ids} == {16}
    db = sqlite3.connect(tmp_path / "a.sqlite")
    for statement in (
        "UPDATE journal SET id = randomblob(16)",
        "DELETE FROM journal",
        "INSERT INTO journal VALUES (randomblob(16), 0, x'')",
    ):
        with pytest.raises(sqlite3.IntegrityError, match="a journal"):
            db.execute(statement)
    db.close()


def test_each_record_carries_a_hash_of_the_one_before_and_of_its_own_bytes(path: Path) -> None:
    two_matches(path)
    assert_chained(path, len(FIRST) + len(SECOND))


def assert_chained(path: Path, count: int) -> None:
    """Each of the ``count`` records of the journal carries the hash of the one before it
    (the journal's seed before the first) and of its own bytes; the last is the tip."""
    journal_id, kept, tip = identity(path)
    previous = seed(journal_id)
    for match_id, seq, kind, at, text, digest in stored(path):
        assert digest == link(previous, match_id, seq, kind.encode(), at, text.encode())
        previous = digest
    assert (kept, tip) == (count, previous)


def version(path: Path) -> int:
    db = sqlite3.connect(path)
    (found,) = db.execute("PRAGMA user_version").fetchone()
    db.close()
    return int(found)


def test_a_journal_of_version_2_gets_its_identity_and_chain_in_one_migration(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as patch:  # as bgpi wrote it before the chain
        patch.setattr(schema, "MIGRATIONS", schema.MIGRATIONS[:2])
        two_matches(path)
    assert version(path) == 2
    with Journal.open(path, read_only=True) as reader:  # a reader leaves it at version 2
        assert reader.records() == SECOND
    assert version(path) == 2
    with Journal.open(path) as journal:
        assert journal.records(1) == FIRST
        assert journal.records() == SECOND
        journal.append(Rolled(1, (3, 1)))
    assert version(path) == 3
    db = sqlite3.connect(path)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        db.execute("UPDATE records SET hash = x''")
    db.close()
    assert_chained(path, len(FIRST) + len(SECOND) + 1)


# -- damage named, with the record's number --------------------------------------------------


def named(path: Path, message: str, *, match: int | None = None) -> None:
    """Opening the journal (reading ``match`` if given) names the damage, in one line."""
    with (
        pytest.raises(CorruptJournalError, match=message) as caught,
        Journal.open(path, read_only=True) as journal,
    ):
        journal.records(match)
    assert "\n" not in str(caught.value)
    assert str(caught.value).startswith(str(path))


def test_a_changed_record_is_named_where_it_stands(path: Path) -> None:
    two_matches(path)
    tamper(
        path,
        "UPDATE records SET record = replace(record, '[6,6]', '[5,5]') "
        "WHERE match_id = 1 AND seq = 4",
    )
    with Journal.open(path, read_only=True) as journal:
        assert journal.records() == SECOND  # the latest match is sound
    named(path, "record 4 of match 1 does not follow the record before it", match=1)


def test_a_changed_time_is_named_too(path: Path) -> None:
    two_matches(path)
    tamper(path, "UPDATE records SET at = at + 60 WHERE match_id = 2 AND seq = 3")
    named(path, "record 3 of match 2 does not follow the record before it")


def test_two_records_swapped_are_named(path: Path) -> None:
    two_matches(path)
    tamper(
        path,
        "UPDATE records SET record = CASE seq WHEN 4 THEN "
        "(SELECT record FROM records WHERE match_id = 2 AND seq = 8) ELSE "
        "(SELECT record FROM records WHERE match_id = 2 AND seq = 4) END "
        "WHERE match_id = 2 AND seq IN (4, 8)",
    )
    named(path, "record 4 of match 2 does not follow")


def test_a_record_of_another_kind_is_named(path: Path) -> None:
    two_matches(path)
    tamper(
        path,
        "UPDATE records SET kind = 'game', record = '{\"kind\":\"game\"}' "
        "WHERE match_id = 2 AND seq = 6",
    )
    named(path, "record 6 of match 2 does not follow")


def test_the_last_records_lost_are_named(path: Path) -> None:
    two_matches(path)
    tamper(
        path,
        "DELETE FROM records WHERE match_id = 2 AND seq >= 8",
        "UPDATE journal SET records = records - 2",  # even with the count mended
    )
    named(path, "match 2 does not end with the journal's last record")


def test_a_lost_record_and_a_lost_match_are_named(path: Path) -> None:
    two_matches(path)
    tamper(path, "DELETE FROM records WHERE match_id = 1 AND seq = 40")
    named(path, f"holds {len(FIRST) + len(SECOND) - 1} records where it wrote")
    tamper(path, "UPDATE journal SET records = records - 1")
    named(path, "record 41 of match 1 stands where record 40 should be", match=1)
    tamper(
        path,
        "DELETE FROM records WHERE match_id = 1",
        "DELETE FROM matches WHERE id = 1",
        f"UPDATE journal SET records = {len(SECOND)}",
    )
    named(path, "record 0 of match 2 does not follow the record before it")


def test_a_record_from_another_journal_is_named(tmp_path: Path, path: Path) -> None:
    two_matches(path)
    other = tmp_path / "other.sqlite"
    with Journal.open(other) as journal:
        journal.append_all([*SECOND, Rolled(1, (3, 1))])
    db = sqlite3.connect(path, isolation_level=None)
    db.execute(f"ATTACH '{other}' AS other")
    db.execute(  # the other journal's next record, hash and all, and its tip
        "INSERT INTO records SELECT 2, seq, kind, at, record, hash FROM other.records "
        "WHERE seq = 10"
    )
    db.execute("UPDATE journal SET records = records + 1, tip = (SELECT tip FROM other.journal)")
    db.close()
    named(path, "record 10 of match 2 does not follow the record before it")


def test_a_changed_game_end_or_match_is_named_in_the_match_list(path: Path) -> None:
    two_matches(path)
    seq = next(n for n, record in enumerate(FIRST) if isinstance(record, GameEnded))
    tamper(  # a game won for 11 points, or 12
        path,
        "UPDATE records SET record = replace(record, '\"points\":', '\"points\":1') "
        f"WHERE match_id = 1 AND seq = {seq}",
    )
    with pytest.raises(CorruptJournalError, match=f"record {seq} of match 1 does not follow"):
        Journal.open(path, read_only=True)
    two = path.with_name("two.sqlite")
    two_matches(two)
    tamper(two, "UPDATE matches SET white = 'Eve' WHERE id = 1")
    with pytest.raises(CorruptJournalError, match=r"match 1 is listed as 7 points, .*'Eve'"):
        Journal.open(two, read_only=True)


def flip_to_non_utf8(path: Path, text: bytes) -> None:
    content = bytearray(path.read_bytes())
    at = content.rindex(text)
    content[at + 1] |= 0x80  # no longer UTF-8
    path.write_bytes(bytes(content))


@pytest.mark.parametrize("command", ["status", "export"])
def test_a_record_that_is_not_utf8_is_named_with_its_number(path: Path, command: str) -> None:
    two_matches(path)
    flip_to_non_utf8(path, b'"kind":"cube","player":1,"action":"take"')  # the latest
    before = snapshot(path.parent)
    code, stderr = bgpi_command(command, path.parent)
    assert code == 1, stderr
    assert len(stderr.splitlines()) == 1, stderr
    assert "codec" not in stderr and "decode" not in stderr
    assert "record 7 of match 2 cannot be read: byte" in stderr
    assert "is not UTF-8; the journal is damaged" in stderr
    assert snapshot(path.parent) == before


# -- another journal's write-ahead log ----------------------------------------------------


def beside(path: Path, other: Path) -> None:
    """``other``'s write-ahead log and its index beside ``path``, as if copied there."""
    for side in ("-wal", "-shm"):
        shutil.copyfile(f"{other}{side}", f"{path}{side}")


def test_another_journal_s_wal_beside_a_finished_match_is_named(tmp_path: Path, path: Path) -> None:
    with Journal.open(path) as journal:
        journal.append_all(FIRST)  # finished, all in the file
    other = tmp_path / "other" / JOURNAL_NAME
    other.parent.mkdir()
    writer = Journal.open(other)  # another 7-point match, its writer still at it
    writer.append_all(play_match(9, MatchStarted(7, names=("Ann", "Bob")))[:200])
    beside(path, other)
    with pytest.raises(ForeignWalError, match=r"-wal does not belong to .*journal.sqlite"):
        Journal.open(path, read_only=True)
    before = snapshot(path.parent)
    code, stderr = bgpi_command("status", path.parent)
    assert code == 1, stderr
    assert f"{path}-wal does not belong to {path}" in stderr
    assert snapshot(path.parent) == before
    writer.close()


def test_an_own_wal_left_by_a_power_cut_is_read(tmp_path: Path, path: Path) -> None:
    live = tmp_path / "live.sqlite"
    with Journal.open(live) as journal:
        journal.append_all(FIRST)
    writer = Journal.open(live)
    writer.append_all(SECOND)  # in the -wal, the writer still at it when the power goes
    for side in ("", "-wal", "-shm"):
        shutil.copyfile(f"{live}{side}", f"{path}{side}")
    writer.close()
    before = snapshot(path.parent)
    with Journal.open(path, read_only=True) as reader:
        assert reader.records() == SECOND
    assert snapshot(path.parent) == before
    with Journal.open(path) as journal:
        assert journal.records() == SECOND


def test_a_wal_of_the_journal_from_before_it_moved_on_is_named(tmp_path: Path, path: Path) -> None:
    live = tmp_path / "live.sqlite"
    with Journal.open(live) as journal:
        journal.append_all(FIRST)
    writer = Journal.open(live)
    writer.append_all(SECOND[:5])
    old = tmp_path / "old-wal"
    shutil.copyfile(f"{live}-wal", old)  # a backup of the log, taken then
    writer.close()
    with Journal.open(live) as journal:
        journal.append_all(SECOND[5:])
    shutil.copyfile(live, path)
    shutil.copyfile(old, f"{path}-wal")  # put back beside the journal that moved on
    with pytest.raises(ForeignWalError):
        Journal.open(path, read_only=True)


# -- export checks a match as status does ----------------------------------------------------


ILLEGAL: dict[str, list[Record]] = {
    "an illegal play": [*SECOND[:9], Played(0, ((24, 14, 6, False), (13, 11, 2, False)))],
    "an illegal double six": [*SECOND[:4], Rolled(1, (6, 6)), Played(1, ((13, 7, 6, False),))],
}


@pytest.mark.parametrize("records", ILLEGAL)
@pytest.mark.parametrize("command", ["status", "export"])
def test_export_refuses_what_status_refuses(path: Path, command: str, records: str) -> None:
    with Journal.open(path) as journal:
        journal.append_all(ILLEGAL[records])
    before = snapshot(path.parent)
    code, stderr = bgpi_command(command, path.parent)
    assert code == 1, stderr
    assert "does not fit" in stderr and "the journal is damaged" in stderr
    assert snapshot(path.parent) == before


def test_export_writes_no_file_for_a_damaged_match(path: Path, tmp_path: Path) -> None:
    with Journal.open(path) as journal:
        journal.append_all(ILLEGAL["an illegal play"])
    out = tmp_path / "match.mat"
    assert main(["export", "--state-dir", str(path.parent), "-o", str(out)]) == 1
    assert not out.exists()


# -- a reader beside a writer -----------------------------------------------------------------

APPENDER = """
import sys
from bgpi.journal.records import MatchStarted
from bgpi.journal.store import Journal
from tests.shell.matches import play_match

with Journal.open(sys.argv[1]) as journal:
    print("open", flush=True)
    for seed in range(4):
        for record in play_match(seed, MatchStarted(3)):
            journal.append(record)
"""


def test_a_reader_beside_a_writer_reads_each_moment_whole(path: Path) -> None:
    """What a reader reads together (a match, its chain, the journal's tip) is of one moment,
    however the writer's commits fall between its reads: never a false alarm."""
    writer = subprocess.Popen(
        [sys.executable, "-c", APPENDER, str(path)], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    assert writer.stdout is not None
    assert writer.stdout.readline() == "open\n"
    matches = [play_match(seed, MatchStarted(3)) for seed in range(4)]
    reads = 0
    while writer.poll() is None or not reads:
        with Journal.open(path, read_only=True) as journal:
            listed = journal.matches()
            records = journal.records()
        assert any(records == match[: len(records)] for match in matches)
        assert len(listed) <= len(matches)
        reads += 1
    writer.stdout.close()
    assert writer.wait() == 0
    assert reads > 10
