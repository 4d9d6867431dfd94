"""The machines a real board runs on, by the name ``uname -m`` (Python's
``platform.machine()``, pip's ``platform_machine``) gives them. The ``pi`` extra's markers in
pyproject.toml name exactly the supported ones; ``scripts/check_pi_extra.py`` checks that.
"""

from __future__ import annotations

from typing import Final

SUPPORTED: Final = {
    "aarch64": "64-bit Raspberry Pi OS on a Pi Zero 2 W, 3, 4 or 5",
    "armv7l": "32-bit Raspberry Pi OS on a Pi Zero 2 W, 3, 4 or 5",
}

# Raspberry Pi OS still runs on ARMv6, but bgpi does not: one 1 GHz core for the 200 Hz scan,
# the page and gnubg; no wheels of lgpio, rpi-lgpio or gpiod for it on PyPI; no boot settings
# that hold its core clock (the SPI timing, hardware/pins.md); and no way to check it in CI
# (Debian's armhf, which scripts/pi_emulated.sh runs, needs ARMv7).
UNSUPPORTED: Final = {
    "armv6l": "a Raspberry Pi Zero W or Pi 1 (ARMv6)",
}

NEEDED: Final = "a Raspberry Pi Zero 2 W, 3, 4 or 5"
