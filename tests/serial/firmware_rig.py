"""The firmware's modules in a sandbox on a manual clock, with fake pins and a fake USB port:
single steps of the scanner, no threads, no pty."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from emulator import Board, Chain165, ManualTime, Sandbox, make_machine
from emulator.device import LATCH, MISO, SCK
from emulator.fakes import Stream, make_binascii, make_micropython, make_sys


class FakePort:
    """Bytes in (``inbox``), packets out (``outbox``); ``full`` refuses writes."""

    def __init__(self) -> None:
        self.inbox = bytearray()
        self.outbox: list[bytes] = []
        self.full = False
        self.reads = 0
        self.on_read: Callable[[int], None] | None = None

    def read(self, limit: int) -> bytes:
        self.reads += 1
        if self.on_read is not None:
            self.on_read(self.reads)
        data = bytes(self.inbox[:limit])
        del self.inbox[:limit]
        return data

    def write(self, data: bytes) -> bool:
        if self.full:
            return False
        self.outbox.append(bytes(data))
        return True


class Rig:
    """A scanner built by ``pico.build()`` on fake pins, its link on a :class:`FakePort`."""

    def __init__(self, nbits: int = 152) -> None:
        self.chain = Chain165(nbits)
        self.board = Board(self.chain, LATCH, SCK, MISO)
        self.clock = ManualTime()
        rx, tx = os.pipe()
        self._fds = (rx, tx)
        # The USB port's input: bytes written here reach a scanner that main() builds.
        self.stdin_fd = tx
        self.sandbox = Sandbox(
            {
                "machine": make_machine(self.board),
                "micropython": make_micropython(self.board),
                "time": self.clock,
                "sys": make_sys(
                    Stream(rx, open(rx, "rb", buffering=0, closefd=False)),  # noqa: SIM115
                    Stream(tx, open(tx, "wb", buffering=0, closefd=False)),  # noqa: SIM115
                    self.board,
                ),
                "binascii": make_binascii(),
            }
        )
        self.sandbox.load("board").NBITS = nbits
        self.proto: Any = self.sandbox.load("scanproto")
        self.pico: Any = self.sandbox.load("pico")
        self.port = FakePort()
        self.scanner: Any = self.pico.build()
        self.scanner.link = self.sandbox.load("link").Link(self.port, self.clock)
        self._decoder = self.proto.Decoder()

    def close(self) -> None:
        for fd in self._fds:
            os.close(fd)

    def request(self, type_: int, payload: bytes = b"", seq: int = 0) -> None:
        self.port.inbox += self.proto.encode(type_, seq, payload)

    def step(self, ms: float = 2.0, count: int = 1) -> None:
        for _ in range(count):
            self.clock.advance_ms(ms)
            self.scanner.step()

    def packets(self) -> list[tuple[int, int, bytes]]:
        """The packets sent since the last call."""
        sent = b"".join(self.port.outbox)
        self.port.outbox.clear()
        found: list[tuple[int, int, bytes]] = self._decoder.feed(sent)
        return found

    def frames(self, nbits: int | None = None) -> list[Any]:
        nbits = nbits or self.chain.nbits
        return [
            self.proto.unpack_frame(payload, nbits)
            for type_, _, payload in self.packets()
            if type_ == self.proto.FRAME
        ]


def closed_bits(bits: bytes) -> list[int]:
    return [index for index in range(8 * len(bits)) if bits[index // 8] >> index % 8 & 1]
