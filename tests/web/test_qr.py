"""The QR code of a network bind's address: module for module what python-qrcode draws for
the same version, level and mask."""

from __future__ import annotations

import random
import re

import pytest
import qrcode
import qrcode.constants
import qrcode.util

from bgpi.web.qr import MAX_BYTES, QrError, qr_matrix, qr_svg


def oracle(data: bytes, version: int, mask: int) -> tuple[tuple[bool, ...], ...]:
    code = qrcode.QRCode(
        version=version,
        error_correction=qrcode.constants.ERROR_CORRECT_L,
        mask_pattern=mask,
        border=0,
    )
    code.add_data(qrcode.util.QRData(data, mode=qrcode.util.MODE_8BIT_BYTE))
    code.make(fit=False)
    return tuple(tuple(bool(module) for module in row) for row in code.get_matrix())


@pytest.mark.parametrize("length", [1, 17, 18, 32, 33, 53, 54, 78, 79, 106, 107, 120, MAX_BYTES])
def test_every_mask_of_every_version_matches_the_oracle(length: int) -> None:
    data = bytes(random.Random(length).randrange(256) for _ in range(length))
    for mask in range(8):
        mine = qr_matrix(data, mask=mask)
        version = (len(mine) - 17) // 4
        assert mine == oracle(data, version, mask), (length, version, mask)


def test_the_smallest_version_is_chosen() -> None:
    assert len(qr_matrix(b"x" * 17)) == 21  # version 1 holds 17 bytes at level L
    assert len(qr_matrix(b"x" * 18)) == 25
    address = "http://raspberrypi.local:8421/?token=" + "A" * 22
    assert len(qr_matrix(address.encode())) == 33  # version 4
    chosen = qr_matrix(address.encode())
    assert chosen in {qr_matrix(address.encode(), mask=mask) for mask in range(8)}


def test_an_address_too_long_is_refused() -> None:
    with pytest.raises(QrError, match="135 bytes do not fit"):
        qr_matrix(b"x" * (MAX_BYTES + 1))


def test_the_svg_draws_each_dark_module_inside_a_quiet_zone() -> None:
    text = "http://192.168.1.20:8421/?token=abc"
    svg = qr_svg(text, module=4, quiet=4)
    matrix = qr_matrix(text.encode())
    size = (len(matrix) + 8) * 4
    assert svg.startswith(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}"')
    squares = re.findall(r"M(\d+),(\d+)h4v4h-4z", svg)
    dark = {(r, c) for r, row in enumerate(matrix) for c, on in enumerate(row) if on}
    assert {(int(y) // 4 - 4, int(x) // 4 - 4) for x, y in squares} == dark
