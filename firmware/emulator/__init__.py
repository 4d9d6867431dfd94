"""The scanner firmware on a PC: fakes of MicroPython's modules, a sandbox that loads the
firmware against them, and a scanner emulated on a pseudo-terminal for the host to open.

Run ``PYTHONPATH=firmware python -m emulator /tmp/bgpi-scanner`` for an emulated scanner to
point bgpi's serial backend at (``[sensors] backend = "serial"``, ``port = "/tmp/bgpi-scanner"``).
"""

from emulator.device import Emulator, Packet
from emulator.fakes import Board, Chain165, ManualTime, PowerOff, RealTime, Reset, make_machine
from emulator.sandbox import SOURCES, Sandbox

__all__ = [
    "SOURCES",
    "Board",
    "Chain165",
    "Emulator",
    "ManualTime",
    "Packet",
    "PowerOff",
    "RealTime",
    "Reset",
    "Sandbox",
    "make_machine",
]
