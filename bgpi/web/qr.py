"""QR codes for a phone beside the board: the page's address with its token (scanning it is
easier than typing 22 random characters), and a remote match's code.

The code is made by segno (ISO/IEC 18004: the smallest version, the best mask); drawn here as
one SVG path of dark squares, light around them, so the page styles it like the rest.
Level M: a code read off a screen, sometimes at an angle or a little out of focus.
"""

from __future__ import annotations

from typing import Final

import segno

from bgpi.base.errors import BgpiError

Matrix = tuple[tuple[bool, ...], ...]
MAX_VERSION: Final = 10  # larger codes are hard to scan off a phone-sized page


class QrError(BgpiError, ValueError):
    """Text too long for a code a phone can read off the page."""


def qr_matrix(text: str) -> Matrix:
    """The modules of the code of ``text`` (True: dark), row by row, no quiet zone."""
    try:
        code = segno.make_qr(text, error="m", boost_error=False)
    except segno.DataOverflowError:
        code = None
    if code is None or int(code.version) > MAX_VERSION:
        raise QrError(f"{len(text.encode())} bytes do not fit a QR code of version {MAX_VERSION}")
    return tuple(tuple(bool(module) for module in row) for row in code.matrix)


def qr_svg(text: str, *, module: int = 4, quiet: int = 4) -> str:
    """An SVG image of the QR code of ``text``: dark modules on white, in one path."""
    matrix = qr_matrix(text)
    size = (len(matrix) + 2 * quiet) * module
    path = "".join(
        f"M{(c + quiet) * module},{(r + quiet) * module}h{module}v{module}h-{module}z"
        for r, row in enumerate(matrix)
        for c, dark in enumerate(row)
        if dark
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" '
        f'width="{size}" height="{size}" shape-rendering="crispEdges">'
        f'<rect width="{size}" height="{size}" fill="#fff"/><path d="{path}" fill="#000"/></svg>'
    )
