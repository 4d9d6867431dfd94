# Runs under MicroPython itself (not pytest): the shared codec against the vectors and the
# firmware's modules on small fakes, so MicroPython's own semantics are tried, not CPython's.
# test_micropython.py runs it in MicroPython's WebAssembly port when one is at hand.
import json
import sys

sys.path.append("/")

import chain
import debounce
import link
import scanner
import scanproto as sp

with open("/vectors.json") as file:
    V = json.load(file)


def unhex(text):
    return bytes.fromhex(text)


for vector in V["crc16"]:
    assert sp.crc16(unhex(vector["data"])) == int(vector["crc"], 16), vector["name"]
for vector in V["crc32"]:
    # MicroPython's own binascii.crc32 where the build has it, and the table fallback.
    assert sp.crc32(unhex(vector["data"])) == int(vector["crc"], 16), vector["name"]
    assert sp.crc32_table(unhex(vector["data"])) == int(vector["crc"], 16), vector["name"]
for vector in V["cobs"]:
    assert sp.cobs_encode(unhex(vector["data"])) == unhex(vector["encoded"])
    assert sp.cobs_decode(unhex(vector["encoded"])) == unhex(vector["data"])
for vector in V["packets"]:
    wire = unhex(vector["wire"])
    assert sp.encode(vector["type"], vector["seq"], unhex(vector["payload"])) == wire
    assert sp.Decoder().feed(wire) == [(vector["type"], vector["seq"], unhex(vector["payload"]))]
    if "frame" in vector["message"]:
        frame = sp.unpack_frame(unhex(vector["payload"]), vector["message"]["frame"]["nbits"])
        assert frame.counter == vector["message"]["frame"]["counter"]
    if "hello" in vector["message"]:
        assert sp.unpack_hello(unhex(vector["payload"])).nbits == 152
for vector in V["bad_packets"]:
    decoder = sp.Decoder()
    assert decoder.feed(unhex(vector["wire"])) == []
    assert decoder.errors[vector["fault"]] == 1, vector["name"]


class Clock:
    def __init__(self):
        self.us = (1 << 30) - 3000000

    def ticks_us(self):
        return self.us & ((1 << 30) - 1)

    def ticks_ms(self):
        return (self.us // 1000) & ((1 << 30) - 1)

    def ticks_diff(self, end, start):
        return ((end - start + (1 << 29)) & ((1 << 30) - 1)) - (1 << 29)

    def ticks_add(self, ticks, delta):
        return (ticks + delta) & ((1 << 30) - 1)

    def sleep_us(self, us):
        self.us += us


class Chip:
    closed = 0

    def readinto(self, buf, write=0):
        levels = ~self.closed
        for index in range(len(buf)):
            byte = levels >> 8 * index & 0xFF
            buf[index] = byte


class Pin:
    def value(self, level=None):
        return 0

    def toggle(self):
        pass


class Port:
    def __init__(self):
        self.inbox = b""
        self.outbox = []

    def read(self, limit):
        data, self.inbox = self.inbox[:limit], self.inbox[limit:]
        return data

    def write(self, data):
        self.outbox.append(bytes(data))
        return True


clock = Clock()
chip = Chip()
port = Port()
scan = scanner.Scanner(chain.Chain(chip, Pin(), 152), link.Link(port, clock), clock, Pin())
port.inbox = sp.encode(sp.HELLO, 0, b"")
clock.sleep_us(2000)
scan.step()
hello = next(v for v in V["packets"] if v["type"] == sp.HELLO_REPLY)
assert port.outbox == [unhex(hello["wire"])]
chip.closed = 1 << 5 | 1 << 151
for _ in range(3):
    clock.sleep_us(2000)
    scan.step()
frames = sp.Decoder().feed(b"".join(port.outbox[1:]))
assert len(frames) == 1
bits = sp.unpack_frame(frames[0][2], 152).bits
assert bits[0] == 0x20 and bits[18] == 0x80
assert isinstance(debounce.Debouncer(1, 3).stable, bytearray)
# A host of protocol 1 says HELLO: it is told this protocol's version in its own framing.
port.outbox = []
port.inbox = sp.encode_legacy(sp.HELLO, 4, b"")
clock.sleep_us(2000)
scan.step()
(old_reply,) = [w for w in port.outbox if w[2] != sp.VERSION]
packet = sp.cobs_decode(old_reply[1:-1])
assert packet[0] == sp.HELLO_REPLY and packet[2] == sp.VERSION
assert sp.crc16(packet[:-2]) == packet[-2] | packet[-1] << 8
# mpremote's Ctrl-C, then at once its Ctrl-A: the scanner stops and leaves the Ctrl-A.
port.inbox = b"\r\x03\r\x01"
scan.run()
assert port.inbox == b"\r\x01", port.inbox


# pico.py itself, on stand-ins for the Pico's machine module (the rest is MicroPython's own).
class FakeWDT:
    def __init__(self, timeout=0):
        self.timeout = timeout
        self.feeds = 0

    def feed(self):
        self.feeds += 1


class FakeMem32:
    def __init__(self):
        self.written = {}

    def __setitem__(self, address, value):
        self.written[address] = value


class FakeMachine:
    WDT = FakeWDT
    mem32 = FakeMem32()


sys.modules["machine"] = FakeMachine
import pico  # noqa: E402


class OneByteRoom:
    # rp2's USB stdout: "writable" with a single byte free; more would wait for the host.
    def __init__(self):
        self.room = 0
        self.sent = bytearray()

    def poll(self, timeout=0):
        return [(1, 4)] if self.room else []  # 4: select.POLLOUT

    def write(self, data):
        assert len(data) <= self.room, "a write that would block"
        self.room -= len(data)
        self.sent += data
        return len(data)


usb = OneByteRoom()
out = pico.UsbPort()  # on this port's stdin and stdout; its output is then replaced
out._tx, out._out = usb.poll, usb
frame_wire = sp.encode(sp.FRAME, 1, sp.pack_frame(1, 2, 0, sp.CHANGE, bytes(19)))
assert out.write(frame_wire) and out.write(frame_wire)
for _ in range(2 * len(frame_wire)):
    usb.room = 1
    out.pump()
assert bytes(usb.sent) == frame_wire * 2
queued = 0
while out.write(frame_wire):
    queued += 1
assert queued == pico.TX_QUEUE // len(frame_wire)
pico.disarm_watchdog()
assert FakeMachine.mem32.written == {pico.WATCHDOG_CTRL_CLEAR: pico.WATCHDOG_ENABLE}
print("micropython ok", sys.implementation.name, sys.implementation.version)
