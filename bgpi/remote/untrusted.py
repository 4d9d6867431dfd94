"""Bytes and text from the broker, which anyone on it may have sent: read with bounds, shown
as text.

Python's ``json`` recurses once per nested array or object, so a few kilobytes of ``[`` end
a process with ``RecursionError``; :func:`loads` counts the nesting first, in one pass that
cannot recurse, and refuses it past :data:`MAX_DEPTH`. :func:`printable` turns a peer's
words into plain text before a terminal, a log or the page shows them: an escape sequence
(ANSI CSI, OSC) could otherwise retitle, clear or recolour the terminal of the other board.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

from bgpi.base.errors import BgpiError

MAX_DEPTH: Final = 8  # a message nests 4 deep (envelope, body, moves, a move)
MAX_TEXT: Final = 200  # characters of a peer's words shown (a halt's reason, a name)

_QUOTE: Final = ord('"')
_BACKSLASH: Final = ord("\\")
_OPEN: Final = frozenset(b"[{")
_CLOSE: Final = frozenset(b"]}")
# ESC [ ... final (CSI), ESC ] ... BEL or ESC \ (OSC; also DCS, PM, APC, SOS), ESC and one
# more character; and their 8-bit forms (C1 CSI, OSC, DCS...).
_ESCAPES: Final = re.compile(
    "\x1b\\[[0-?]*[ -/]*[@-~]?"
    "|\x9b[0-?]*[ -/]*[@-~]?"
    "|[\x1b][\\]PX^_][^\x07\x1b\x9c]*(?:\x07|\x1b\\\\|\x9c)?"
    "|[\x90\x98\x9d\x9e\x9f][^\x07\x1b\x9c]*(?:\x07|\x1b\\\\|\x9c)?"
    "|\x1b[ -~]?"
)
_SPACES: Final = re.compile(r"\s+")


class UntrustedJsonError(BgpiError, ValueError):
    """Bytes from outside that are not JSON this board reads: too deep, or not JSON."""


def depth(raw: bytes) -> int:
    """The deepest nesting of arrays and objects in ``raw``, strings skipped: one pass, no
    recursion and no backtracking, whatever the bytes."""
    deepest = level = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == _BACKSLASH:
                escaped = True
            elif byte == _QUOTE:
                in_string = False
        elif byte == _QUOTE:
            in_string = True
        elif byte in _OPEN:
            level += 1
            deepest = max(deepest, level)
        elif byte in _CLOSE:
            level -= 1
    return deepest


def loads(raw: bytes | str, *, max_depth: int = MAX_DEPTH) -> Any:
    """JSON nested at most ``max_depth`` deep; ``UntrustedJsonError`` saying why not."""
    data = raw.encode() if isinstance(raw, str) else raw
    nested = depth(data)
    if nested > max_depth:
        raise UntrustedJsonError(f"JSON nested {nested} deep, more than {max_depth}")
    try:
        return json.loads(data)
    except (ValueError, RecursionError) as exc:  # a bad byte, a number of 5,000 digits...
        raise UntrustedJsonError(f"not JSON ({type(exc).__name__})") from None


def printable(text: str, limit: int = MAX_TEXT) -> str:
    """``text`` as plain text on one line: escape sequences and control characters gone,
    runs of white space one space, at most ``limit`` characters (an ellipsis ends a cut)."""
    plain = _ESCAPES.sub("", text)
    plain = "".join(ch if ch.isprintable() else " " if ch.isspace() else "" for ch in plain)
    plain = _SPACES.sub(" ", plain).strip()
    return plain if len(plain) <= limit else plain[: limit - 1] + "…"
