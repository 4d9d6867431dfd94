from __future__ import annotations

import pytest

from bgpi.base.words import BLACK, WHITE
from bgpi.hal import ButtonEvent, SensorFrame
from bgpi.hal.api import check_frame
from bgpi.hal.errors import PixelFrameError


def test_a_frame_knows_its_closed_switches() -> None:
    frame = SensorFrame.from_closed([0, 5, 151], 152, 1.5)
    assert frame.closed(5) and not frame.closed(6)
    assert frame.closed_bits() == (0, 5, 151)
    assert frame.changed(SensorFrame.from_closed([5, 7], 152, 2.0)) == (0, 7, 151)
    assert frame == SensorFrame(1 | 1 << 5 | 1 << 151, 152, 1.5)


def test_a_frame_refuses_bits_that_do_not_fit() -> None:
    with pytest.raises(ValueError, match="do not fit"):
        SensorFrame(1 << 8, 8, 0.0)
    with pytest.raises(ValueError, match="bit 8 is outside"):
        SensorFrame.from_closed([8], 8, 0.0)
    with pytest.raises(IndexError):
        SensorFrame(0, 8, 0.0).closed(8)


def test_button_events_check_player_and_button() -> None:
    assert ButtonEvent(BLACK, "cube", True, 1.0).player == BLACK
    with pytest.raises(ValueError, match="player 2"):
        ButtonEvent(2, "roll", True, 0.0)
    with pytest.raises(ValueError, match="button 'double'"):
        ButtonEvent(WHITE, "double", True, 0.0)  # type: ignore[arg-type]


def test_check_frame_names_the_bad_pixel() -> None:
    assert check_frame([(1, 2, 3)], 1) == ((1, 2, 3),)
    with pytest.raises(PixelFrameError, match="pixel 0 is"):
        check_frame([(1, 2)], 1)  # type: ignore[list-item]
    with pytest.raises(PixelFrameError, match="pixel 1 is"):
        check_frame([(1, 2, 3), (1.0, 2, 3)], 2)  # type: ignore[list-item]
    with pytest.raises(PixelFrameError, match="pixel 0 is"):
        check_frame([(-1, 0, 0)], 1)
