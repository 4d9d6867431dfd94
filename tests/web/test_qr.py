"""The QR codes the page shows scan back to their text: a real decoder (zxing-cpp) reads the
SVG drawn, square by square."""

from __future__ import annotations

import re

import pytest
import zxingcpp

from bgpi.web.qr import QrError, qr_matrix, qr_svg


def scan(svg: str) -> list[str]:
    """Paint the SVG's squares on a white bitmap and decode it."""
    size = int(re.search(r'viewBox="0 0 (\d+) \d+"', svg).group(1))  # type: ignore[union-attr]
    pixels = bytearray([255]) * (size * size)
    for x, y, side in re.findall(r"M(\d+),(\d+)h(\d+)v", svg):
        x0, y0, n = int(x), int(y), int(side)
        for row in range(y0, y0 + n):
            pixels[row * size + x0 : row * size + x0 + n] = bytes(n)
    image = memoryview(bytes(pixels)).cast("B", (size, size))
    return [code.text for code in zxingcpp.read_barcodes(image)]


@pytest.mark.parametrize(
    "text",
    [
        "http://192.168.1.20:8421/?token=abc",
        "http://raspberrypi.local:8421/?token=" + "Zq8-_" * 5,
        "K7QDM-2PXWA",
        "bgpi:match?broker=mqtts%3A%2F%2Fbroker.example.org%3A8883&code=K7QDM-2PXWA",
    ],
)
def test_a_code_scans_back_to_its_text(text: str) -> None:
    assert scan(qr_svg(text)) == [text]


def test_the_svg_draws_each_dark_module_inside_a_quiet_zone() -> None:
    text = "http://192.168.1.20:8421/?token=abc"
    svg = qr_svg(text, module=4, quiet=4)
    matrix = qr_matrix(text)
    size = (len(matrix) + 8) * 4
    assert svg.startswith(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}"')
    squares = re.findall(r"M(\d+),(\d+)h4v4h-4z", svg)
    dark = {(r, c) for r, row in enumerate(matrix) for c, on in enumerate(row) if on}
    assert {(int(y) // 4 - 4, int(x) // 4 - 4) for x, y in squares} == dark


def test_a_longer_text_takes_a_larger_code() -> None:
    assert len(qr_matrix("x")) == 21  # version 1
    assert len(qr_matrix("x" * 200)) > len(qr_matrix("x" * 60)) > 21


def test_a_text_too_long_for_a_phone_is_refused_in_one_line() -> None:
    with pytest.raises(QrError, match=r"^500 bytes do not fit a QR code of version 10$"):
        qr_matrix("x" * 500)
