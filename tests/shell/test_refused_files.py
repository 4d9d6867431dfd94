"""A command that refuses a journal leaves its files byte for byte as they were: the journal,
its ``-wal`` and its ``-shm``, as a power cut left them, and no file is added. (SQLite folds a
``-wal`` into its file and deletes it when the last connection closes: a refused journal is
never opened by one that could.)"""

from __future__ import annotations

import re
import shutil
import sqlite3
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

import pytest

from bgpi.journal.records import MatchStarted, Rolled
from bgpi.journal.store import JOURNAL_NAME, Journal
from tests.shell.matches import play_match
from tests.shell.test_damage import bgpi_command, snapshot

Writer = Callable[[Path, ExitStack], None]
SIDES = ("", "-wal", "-shm")


def power_cut(journal: Path, write: Writer, *, shm: bool = True) -> None:
    """``journal`` as the disk holds it when the power goes while ``write`` has it open: the
    files copied from where it wrote them while its connections are still open. ``shm``: with
    the log's index (a backup may have left it out)."""
    live = journal.parent.parent / "live" / journal.name
    live.parent.mkdir()
    with ExitStack() as stack:
        write(live, stack)
        for side in SIDES if shm else SIDES[:2]:
            shutil.copyfile(f"{live}{side}", f"{journal}{side}")
    assert {p.name for p in journal.parent.iterdir()} == {
        journal.name + side for side in (SIDES if shm else SIDES[:2])
    }


def played(path: Path, stack: ExitStack, *, close: bool = False) -> Journal:
    """A long match in the journal, and the start of another: Black to roll."""
    journal = Journal.open(path)
    journal.append_all(play_match(5, MatchStarted(7)))
    journal.append_all(play_match(5, MatchStarted(5))[:10])
    if close:
        journal.close()
    else:
        stack.callback(journal.close)
    return journal


def raw(path: Path, stack: ExitStack) -> sqlite3.Connection:
    """Another program's connection, left open (its changes in the -wal only)."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA wal_autocheckpoint = 0")
    stack.callback(db.close)
    return db


def corrupt(path: Path, stack: ExitStack) -> None:
    played(path, stack, close=True)  # all in the file; then a match more, in the -wal
    journal = Journal.open(path)
    stack.callback(journal.close)
    journal.append(MatchStarted(3))
    with path.open("r+b") as file:  # and a page of the file's records scribbled over
        file.seek(8 * 4096)
        file.write(b"\xa5" * 4096)


def a_record_that_does_not_fit(path: Path, stack: ExitStack) -> None:
    played(path, stack).append(Rolled(0, (6, 6)))  # Black is on roll


def newer(path: Path, stack: ExitStack) -> None:
    played(path, stack, close=True)
    raw(path, stack).execute("PRAGMA user_version = 99")


def a_changed_record(path: Path, stack: ExitStack) -> None:
    played(path, stack, close=True)
    db = raw(path, stack)  # Black's 66 made a 55, in a record the file already had
    db.execute("DROP TRIGGER records_append_only_update")
    db.execute(
        "UPDATE records SET record = replace(record, '[6,6]', '[5,5]') "
        "WHERE match_id = 2 AND seq = 4"
    )


def a_lost_last_record(path: Path, stack: ExitStack) -> None:
    played(path, stack, close=True)
    with ExitStack() as gone:  # lost, and that folded into the file
        db = raw(path, gone)
        db.execute("DROP TRIGGER records_append_only_delete")
        db.execute("DELETE FROM records WHERE match_id = 2 AND seq = 9")
    raw(path, stack).execute(  # then something else in the -wal
        "INSERT INTO analyses VALUES (1, 1, 'gnubg', 0, '{}')"
    )


def another_journal_s_wal(path: Path, stack: ExitStack) -> None:
    played(path, stack, close=True)
    other = path.with_name("other.sqlite")
    journal = Journal.open(other)
    stack.callback(journal.close)
    journal.append_all(play_match(9, MatchStarted(7))[:200])
    for side in SIDES[1:]:
        shutil.copyfile(f"{other}{side}", f"{path}{side}")


KINDS: dict[str, tuple[Writer, str]] = {
    "corrupt": (corrupt, "is corrupt"),
    "a record that does not fit": (a_record_that_does_not_fit, "does not fit"),
    "newer": (newer, "schema version 99"),
    "a changed record": (a_changed_record, "record 4 of match 2 does not follow the record"),
    "a lost last record": (a_lost_last_record, r"holds 276 records where it wrote 277"),
    "another journal's -wal": (another_journal_s_wal, "-wal does not belong to .*journal.sqlite"),
}
COMMANDS = ("run", "status", "export", "hint", "analyse", "demo", "sim")


def refuses_and_leaves(command: str, state_dir: Path, message: str) -> None:
    before = snapshot(state_dir)
    code, stderr = bgpi_command(command, state_dir)
    assert code == 1, stderr
    assert re.search(message, stderr), stderr
    assert len(stderr.splitlines()) == 1, stderr
    assert snapshot(state_dir) == before  # every byte, and no file added or removed


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("kind", KINDS)
def test_a_refused_journal_its_wal_and_shm_are_left_byte_for_byte(
    tmp_path: Path, kind: str, command: str
) -> None:
    write, message = KINDS[kind]
    state_dir = tmp_path / "state"
    state_dir.mkdir()
    power_cut(state_dir / JOURNAL_NAME, write)
    assert (state_dir / f"{JOURNAL_NAME}-wal").stat().st_size > 0
    refuses_and_leaves(command, state_dir, message)


@pytest.mark.parametrize("command", ["run", "status"])
@pytest.mark.parametrize("kind", KINDS)
def test_a_refused_journal_and_a_wal_without_its_shm_are_left_byte_for_byte(
    tmp_path: Path, kind: str, command: str
) -> None:
    write, message = KINDS[kind]
    state_dir = tmp_path / "state"
    state_dir.mkdir()
    power_cut(state_dir / JOURNAL_NAME, write, shm=False)
    refuses_and_leaves(command, state_dir, message)
