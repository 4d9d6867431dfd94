"""A QR code of the page's address with its token, for a phone beside a board bound to the
network: scanning it is easier than typing 22 random characters.

A small encoder of the QR Code standard (ISO/IEC 18004), just what an address needs: byte
mode, error correction level L (the code is read off a screen, not a worn label), versions 1
to 6 (up to 134 bytes), the mask with the lowest penalty. Written here rather than taken from
a package because the board's dependencies stay few.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Final

Matrix = tuple[tuple[bool, ...], ...]

# version: (error correction codewords per block, blocks, data codewords per block), level L
_BLOCKS: Final = {
    1: (7, 1, 19),
    2: (10, 1, 34),
    3: (15, 1, 55),
    4: (20, 1, 80),
    5: (26, 1, 108),
    6: (18, 2, 68),
}
MAX_BYTES: Final = 134
_FORMAT_L: Final = 1  # level L's two bits in the format information
_MASKS: Final[tuple[Callable[[int, int], bool], ...]] = (
    lambda r, c: (r + c) % 2 == 0,
    lambda r, c: r % 2 == 0,
    lambda r, c: c % 3 == 0,
    lambda r, c: (r + c) % 3 == 0,
    lambda r, c: (r // 2 + c // 3) % 2 == 0,
    lambda r, c: r * c % 2 + r * c % 3 == 0,
    lambda r, c: (r * c % 2 + r * c % 3) % 2 == 0,
    lambda r, c: ((r + c) % 2 + r * c % 3) % 2 == 0,
)
"""Whether each mask flips the module at (row, column)."""


class QrError(ValueError):
    """Text that does not fit the codes this encoder makes."""


def qr_matrix(data: bytes, *, mask: int | None = None) -> Matrix:
    """The modules of the smallest code holding ``data`` (True: dark), row by row, without
    the quiet zone. ``mask`` forces one of the eight masks (for tests)."""
    version = next(
        (v for v, (_, blocks, size) in _BLOCKS.items() if 12 + 8 * len(data) <= 8 * blocks * size),
        None,
    )
    if version is None:
        raise QrError(f"{len(data)} bytes do not fit a QR code of version 6 (at most {MAX_BYTES})")
    codewords = _codewords(data, version)
    masks = range(8) if mask is None else (mask,)
    candidates = [_Grid(version).draw(codewords, m) for m in masks]
    best = min(candidates, key=lambda grid: _penalty(grid.modules))
    return tuple(tuple(row) for row in best.modules)


def qr_svg(text: str, *, module: int = 4, quiet: int = 4) -> str:
    """An SVG image of the QR code of ``text``: dark modules on white, in one path."""
    matrix = qr_matrix(text.encode())
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


# -- the codewords ------------------------------------------------------------------------------


def _codewords(data: bytes, version: int) -> list[int]:
    ec_size, blocks, size = _BLOCKS[version]
    bits = [0, 1, 0, 0]  # byte mode
    bits += [(len(data) >> i) & 1 for i in range(7, -1, -1)]
    for byte in data:
        bits += [(byte >> i) & 1 for i in range(7, -1, -1)]
    capacity = 8 * blocks * size
    bits += [0] * min(4, capacity - len(bits))  # the terminator
    bits += [0] * (-len(bits) % 8)
    words = [int("".join(map(str, bits[i : i + 8])), 2) for i in range(0, len(bits), 8)]
    pads = (0xEC, 0x11)
    words += [pads[i % 2] for i in range(blocks * size - len(words))]
    data_blocks = [words[b * size : (b + 1) * size] for b in range(blocks)]
    ec_blocks = [_reed_solomon(block, ec_size) for block in data_blocks]
    # Interleaved: the first codeword of every block, then the second...
    return [block[i] for i in range(size) for block in data_blocks] + [
        block[i] for i in range(ec_size) for block in ec_blocks
    ]


def _gf_multiply(a: int, b: int) -> int:
    """Multiplication in GF(256) modulo x^8 + x^4 + x^3 + x^2 + 1."""
    product = 0
    for i in range(7, -1, -1):
        product = (product << 1) ^ (0x11D if product & 0x80 else 0)
        if (b >> i) & 1:
            product ^= a
    return product


def _reed_solomon(data: Sequence[int], degree: int) -> list[int]:
    """The ``degree`` error correction codewords of ``data``."""
    divisor = [0] * (degree - 1) + [1]  # the generator polynomial, highest term implied
    root = 1
    for _ in range(degree):
        for j in range(degree):
            divisor[j] = _gf_multiply(divisor[j], root)
            if j + 1 < degree:
                divisor[j] ^= divisor[j + 1]
        root = _gf_multiply(root, 2)
    remainder = [0] * degree
    for byte in data:
        factor = byte ^ remainder.pop(0)
        remainder.append(0)
        for j, coefficient in enumerate(divisor):
            remainder[j] ^= _gf_multiply(coefficient, factor)
    return remainder


# -- the grid -----------------------------------------------------------------------------------


@dataclass
class _Grid:
    version: int

    def __post_init__(self) -> None:
        self.size = 4 * self.version + 17
        self.modules = [[False] * self.size for _ in range(self.size)]
        self.function = [[False] * self.size for _ in range(self.size)]

    def set(self, row: int, col: int, dark: bool) -> None:
        self.modules[row][col] = dark
        self.function[row][col] = True

    def draw(self, codewords: Sequence[int], mask: int) -> _Grid:
        for corner_row, corner_col in ((3, 3), (3, self.size - 4), (self.size - 4, 3)):
            self._finder(corner_row, corner_col)
        for i in range(8, self.size - 8):
            self.set(6, i, i % 2 == 0)
            self.set(i, 6, i % 2 == 0)
        if self.version > 1:
            centre = 4 * self.version + 10
            self._alignment(centre, centre)
        self._format(mask)  # reserves the format areas; drawn again below
        self._place(codewords)
        test = _MASKS[mask]
        for r in range(self.size):
            for c in range(self.size):
                if not self.function[r][c] and test(r, c):
                    self.modules[r][c] = not self.modules[r][c]
        self._format(mask)
        return self

    def _finder(self, row: int, col: int) -> None:
        for dr in range(-4, 5):
            for dc in range(-4, 5):
                r, c = row + dr, col + dc
                if 0 <= r < self.size and 0 <= c < self.size:
                    ring = max(abs(dr), abs(dc))
                    self.set(r, c, ring not in (2, 4))

    def _alignment(self, row: int, col: int) -> None:
        for dr in range(-2, 3):
            for dc in range(-2, 3):
                self.set(row + dr, col + dc, max(abs(dr), abs(dc)) != 1)

    def _format(self, mask: int) -> None:
        data = _FORMAT_L << 3 | mask
        remainder = data
        for _ in range(10):
            remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537)
        bits = (data << 10 | remainder) ^ 0x5412
        bit = [bool((bits >> i) & 1) for i in range(15)]
        for i in range(6):
            self.set(i, 8, bit[i])
        self.set(7, 8, bit[6])
        self.set(8, 8, bit[7])
        self.set(8, 7, bit[8])
        for i in range(9, 15):
            self.set(8, 14 - i, bit[i])
        for i in range(8):
            self.set(8, self.size - 1 - i, bit[i])
        for i in range(8, 15):
            self.set(self.size - 15 + i, 8, bit[i])
        self.set(self.size - 8, 8, True)  # the dark module

    def _place(self, codewords: Sequence[int]) -> None:
        """The data bits in two-column strips, upwards and downwards in turn, from the
        bottom right, around the function patterns."""
        bits = [(word >> (7 - i)) & 1 for word in codewords for i in range(8)]
        index = 0
        right = self.size - 1
        while right >= 1:
            if right == 6:
                right = 5  # the vertical timing pattern's column
            for vertical in range(self.size):
                for col in (right, right - 1):
                    upward = ((right + 1) & 2) == 0
                    row = self.size - 1 - vertical if upward else vertical
                    if not self.function[row][col] and index < len(bits):
                        self.modules[row][col] = bits[index] == 1
                        index += 1
            right -= 2


def _penalty(modules: Sequence[Sequence[bool]]) -> int:
    """The standard's penalty of a masked code: runs, blocks, finder look-alikes, balance."""
    size = len(modules)
    columns = [[modules[r][c] for r in range(size)] for c in range(size)]
    score = 0
    for line in [*modules, *columns]:
        score += _runs(line) + 40 * _finder_like(line)
    for r in range(size - 1):
        for c in range(size - 1):
            colour = modules[r][c]
            if colour == modules[r][c + 1] == modules[r + 1][c] == modules[r + 1][c + 1]:
                score += 3
    dark = sum(map(sum, modules))
    score += 10 * (abs(dark * 20 - size * size * 10) // (size * size))
    return score


def _runs(line: Sequence[bool]) -> int:
    score, length = 0, 1
    for a, b in pairwise(line):
        if a == b:
            length += 1
            continue
        score += length - 2 if length >= 5 else 0
        length = 1
    return score + (length - 2 if length >= 5 else 0)


def _finder_like(line: Sequence[bool]) -> int:
    """Dark-light-dark-dark-dark-light-dark with four light modules on either side."""
    pattern = (True, False, True, True, True, False, True)
    padded = [False] * 4 + list(line) + [False] * 4
    count = 0
    for i in range(len(padded) - 6):
        if tuple(padded[i : i + 7]) == pattern:
            before = padded[max(0, i - 4) : i]
            after = padded[i + 7 : i + 11]
            if (len(before) == 4 and not any(before)) or (len(after) == 4 and not any(after)):
                count += 1
    return count
