"""A club's evening on a real mosquitto: seeded demos publish their results, a stranger
publishes junk and a result whose names are paths, and ``bgpi club results --save DIR``
prints the table and writes one ``.mat`` per match, each of which gnubg imports with the
score the table printed; nothing is written outside DIR, nor over another match's file."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bgpi.cli import main
from bgpi.journal.export import MatHeader
from bgpi.journal.records import MatchStarted
from bgpi.remote.broker import Broker
from bgpi.remote.club import ClubResult, club_topic
from bgpi.remote.transport import Transport
from bgpi.sim.demo import play_match
from tests.engine.conftest import needs_gnubg
from tests.engine.gnubg_cli import imported_score
from tests.remote.conftest import Mosquitto

pytestmark = needs_gnubg

CLUB = "Hinterhof"
SAFE_NAME = re.compile(r"\d{4}-\d\d-\d\d_\d{4}_[A-Za-z0-9_]+-[A-Za-z0-9_]+_[0-9a-f]{16}\.mat")
# date, time, board, players (names without blanks here), score, length, clock, ended
ROW = re.compile(
    r"(\d{4}-\d\d-\d\d)  (\d\d:\d\d)  (\S+) +(\S+) - (\S+) +(\d+)-(\d+) +(\d+)"
    r" +(off|usbgf 12 s) +(.+)"
)


def stranger(broker: Broker) -> None:
    """Junk, and a result of a real match whose players' names and an extra field are
    paths, on a topic that looks like one."""
    evil = MatchStarted(1, names=("../../../tmp/evil", "..\\..\\boot"))
    records = play_match(evil, seed=8, say=lambda _: None).driver.log
    data = json.loads(
        ClubResult.of(records, MatHeader("/etc/passwd", None, 1_795_000_000.0)).to_json()
    )
    data["file"] = "../../evil.mat"
    transport = Transport(broker, persistent=False).open()
    transport.publish(f"{club_topic(CLUB)}/junk", b'{"players": [', retain=True)
    transport.publish(f"{club_topic(CLUB)}/../../evil.mat", json.dumps(data).encode(), retain=True)
    transport.flush()
    transport.close()


def test_a_clubs_evening_printed_and_saved_for_gnubg(
    mosquitto: Mosquitto,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    config = tmp_path / "bgpi.toml"
    config.write_text(f'[remote]\nbroker = "{mosquitto.url}"\n')
    common = ["--config", str(config), "--club", CLUB]
    demos = [
        ["--seed", "3", "--length", "1", "--state-dir", str(tmp_path / "board1")],
        ["--seed", "4", "--length", "3"],
        ["--seed", "5", "--length", "5", "--clock", "usbgf"],
    ]
    for demo in demos:
        assert main(["demo", *demo, *common]) == 0
        assert capsys.readouterr().out.endswith(f"published the result to club {CLUB}\n")
    stranger(Broker.parse(mosquitto.url))
    folder = tmp_path / "evening"
    folder.mkdir()
    before = sorted(p for p in tmp_path.rglob("*") if folder not in p.parents)

    assert main(["club", "results", *common, "--save", str(folder)]) == 0
    out = capsys.readouterr()
    lines = out.out.splitlines()
    assert lines[0].split() == [
        "date",
        "time",
        "board",
        "players",
        "score",
        "length",
        "clock",
        "ended",
    ]
    assert lines[-1] == f".mat files saved in {folder}: 4 new, 0 there already"
    rows = [ROW.fullmatch(line) for line in lines[1:-1]]
    assert all(rows) and len(rows) == 4, lines
    columns = {"date": 1, "time": 2, "board": 3, "players": 4, "score": 6, "length": 8}
    columns |= {"clock": 9, "ended": 10}
    for name, group in columns.items():  # each cell starts under its column's name
        assert {row.start(group) for row in rows if row} == {lines[0].index(name)}, name
    printed = sorted(
        (row[4], row[5], int(row[8]), int(row[6]), int(row[7]), row[9], row[10])
        for row in rows
        if row is not None
    )
    assert [p[2] for p in printed] == [1, 1, 3, 5]
    assert [p[5] for p in printed] == ["off", "off", "off", "usbgf 12 s"]
    assert {p[6] for p in printed} <= {"played out", "resigned"}
    assert [p[:2] for p in printed].count(("../../../tmp/evil", "..\\..\\boot")) == 1
    (junk,) = [line for line in caplog.messages if "not a match result" in line]
    assert junk.startswith(f"{club_topic(CLUB)}/junk: ")

    saved = sorted(folder.iterdir())
    assert len(saved) == 4 and all(SAFE_NAME.fullmatch(path.name) for path in saved), saved
    after = sorted(p for p in tmp_path.rglob("*") if folder not in p.parents)
    assert after == before and not Path("/tmp/evil").exists()  # nothing outside the folder
    imported = []
    for path in saved:
        text = path.read_text(encoding="utf-8")
        assert text.startswith('; [Site "') and "; [EventDate " in text
        score = re.search(
            r"is: (\S+) (\d+), (\S+) (\d+) \(match to (\d+) points?",
            imported_score(path).replace("\n", " "),
        )
        assert score is not None, path
        white, one, black, two, length = score.groups()
        imported.append((white, black, int(length), int(one), int(two)))
    assert sorted(imported) == sorted(p[:5] for p in printed)

    # Again: nothing new, nothing replaced; a different file under a saved name is refused.
    assert main(["club", "results", *common, "--save", str(folder)]) == 0
    assert capsys.readouterr().out.endswith(f"{folder}: 0 new, 4 there already\n")
    saved[0].write_text("my own notes", encoding="utf-8")
    assert main(["club", "results", *common, "--save", str(folder)]) == 1
    err = capsys.readouterr().err
    assert (
        f"bgpi club: {saved[0]} is there already and holds another match: not overwritten\n" in err
    )
    assert saved[0].read_text(encoding="utf-8") == "my own notes"

    assert main(["club", "results", *common, "--save", str(tmp_path / "nowhere")]) == 2
    assert capsys.readouterr().err == (
        f"bgpi club: no folder {tmp_path / 'nowhere'}: --save writes into one that exists\n"
    )
