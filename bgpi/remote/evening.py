"""A club's evening for its director: the results the boards published, as an aligned table,
and their ``.mat`` files saved into a folder.

Everything here comes from the broker, where anyone who may publish on the club's topic
could have written it: names are shown as plain text, cut to a column's width, and a file's
name is made here from the result's date, its players' names reduced to letters and digits,
and the match's ID (hex digits hashed here from the ``.mat``), never taken from the message.
A file already in the folder is left alone: the same match is not written twice, and a
different one under the same name is refused, loudly.
"""

from __future__ import annotations

import re
import time
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from bgpi.base.i18n import N_, _
from bgpi.remote.club import ClubResult, Ending
from bgpi.remote.untrusted import printable
from bgpi.rules.clock import ClockRules

COLUMNS: Final = (
    N_("date"),
    N_("time"),
    N_("board"),
    N_("players"),
    N_("score"),
    N_("length"),
    N_("clock"),
    N_("ended"),
)
NAME_WIDTH: Final = 24  # characters of a player's name in the table
BOARD_WIDTH: Final = 32
FILE_NAME_PART: Final = 24  # characters of a player's name in a file's name
ABSENT: Final = "-"  # a field a board of an older version did not publish
_UNSAFE: Final = re.compile(r"[^A-Za-z0-9]+")
_UNSAFE_STAMP: Final = re.compile(r"[^0-9_-]+")  # 2026-11-26_1840 (the colon goes too)


def table(results: Sequence[ClubResult]) -> list[str]:
    """The results as lines of aligned columns, a header line first."""
    rows = [[_(column) for column in COLUMNS], *(_row(result) for result in results)]
    widths = [max(len(row[index]) for row in rows) for index in range(len(COLUMNS))]
    return [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]


def _row(result: ClubResult) -> list[str]:
    day, hour = when(result)
    white, black = (printable(name, NAME_WIDTH) for name in result.players)
    return [
        day,
        hour or ABSENT,
        printable(result.board, BOARD_WIDTH) or ABSENT,
        f"{white} - {black}",
        f"{result.score[0]}-{result.score[1]}",
        str(result.length) if result.length else _("money"),
        ABSENT if result.clock is None else clock_text(result.clock),
        _ended(result, (white, black)),
    ]


def when(result: ClubResult) -> tuple[str, str]:
    """The day and the time (``HH:MM``) the match started, in this machine's time zone; no
    time from a board of an older version, which published the day only (UTC)."""
    if result.started_at is None:
        return result.date, ""
    local = time.localtime(result.started_at)
    return time.strftime("%Y-%m-%d", local), time.strftime("%H:%M", local)


def clock_text(clock: ClockRules) -> str:
    """The clock's setting as the config and ``--clock`` name it: ``usbgf 12 s``."""
    if not clock.on:
        return _("off")
    overtime = f" +{clock.overtime:g} s" if clock.overtime else ""
    return f"{clock.mode.value} {clock.per_move:g} s{overtime}"


def _ended(result: ClubResult, names: tuple[str, str]) -> str:
    ending = Ending.FORFEIT if result.forfeit is not None else result.ending
    if ending is None:
        return ABSENT
    if result.forfeit is not None:
        return _("forfeit, {player} wins").format(player=names[result.forfeit])
    return _(ending.value)


def file_name(result: ClubResult) -> str:
    """``2026-11-26_1840_Anna-Ben_ID.mat``: made here, whatever the message says (a name
    reduced to ASCII letters and digits, the ID hashed here), so it cannot leave the folder."""
    day, hour = when(result)
    white, black = (
        _safe(name, default)
        for name, default in zip(result.players, ("White", "Black"), strict=True)
    )
    stamp = _UNSAFE_STAMP.sub("", f"{day}_{hour}" if hour else day) or "undated"
    return f"{stamp}_{white}-{black}_{result.id}.mat"


def _safe(text: str, default: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return _UNSAFE.sub("_", ascii_text).strip("_")[:FILE_NAME_PART].strip("_") or default


@dataclass
class Saved:
    """What :func:`save` did with each result's file."""

    written: list[Path] = field(default_factory=list)
    kept: list[Path] = field(default_factory=list)  # already there, the same match
    refused: list[Path] = field(default_factory=list)  # already there, holding another


def save(results: Sequence[ClubResult], folder: Path) -> Saved:
    """Write each result's ``.mat`` into ``folder`` (which must exist); ``OSError`` from
    the file system (no permission, a full disk) is the caller's to say."""
    saved = Saved()
    for result in results:
        path = folder / file_name(result)
        try:
            # "x": created here or not at all, so nothing there is replaced, not even a link
            with path.open("x", encoding="utf-8", newline="") as out:
                out.write(result.mat)
        except FileExistsError:
            same = not path.is_symlink() and path.is_file() and _holds(path, result.mat)
            (saved.kept if same else saved.refused).append(path)
            continue
        saved.written.append(path)
    return saved


def _holds(path: Path, text: str) -> bool:
    try:
        return path.read_bytes() == text.encode()
    except OSError:
        return False
