"""The whole path over a pseudo-terminal: switch -> firmware (its own code, fake pins) ->
bytes -> pyserial -> SerialSensors -> SensorEvent. Each fault the issue names is injected and
survived, with one warning, and no frame that was never on the board is emitted."""

from __future__ import annotations

import dataclasses
import logging
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from emulator import Emulator, Sandbox

from bgpi.hal import Geometry, open_sensors
from bgpi.hal import scanproto as sp
from bgpi.hal.errors import BackendClosedError, BackendUnavailableError
from bgpi.hal.serial import LinkSettings, SerialSensors
from tests.serial.conftest import Events, wait_for

# Heartbeats ten times a second keep the tests short; the silence limit stays generous so
# that a busy machine does not look like a hung scanner.
FAST = LinkSettings(heartbeat_ms=100, heartbeat_timeout=1.0, reply_timeout=0.4, retry_interval=0.1)


@pytest.fixture
def link(emulator: Emulator) -> Iterator[tuple[SerialSensors, Events]]:
    events = Events(emulator)
    sensors = SerialSensors(152, port=str(emulator.link), settings=FAST)
    sensors.start(events)
    yield sensors, events
    sensors.close()
    events.assert_truthful()


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The link's warnings. The scanner's own reports are left out: the emulator, a CPython
    thread, now and then misses a scan (an overrun) when the host's thread holds the GIL."""
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "bgpi.hal.serial"
        and r.levelno >= logging.WARNING
        and " reports: " not in r.getMessage()
    ]


def test_start_emits_the_current_frame_first(emulator: Emulator) -> None:
    events = Events(emulator)
    events.set(1 << 0 | 1 << 7 | 1 << 151)
    time.sleep(0.05)
    with SerialSensors(152, port=str(emulator.link), settings=FAST) as sensors:
        sensors.start(events)
        assert events.events[0].frame.closed_bits() == (0, 7, 151)
        assert sensors.hello == sp.Hello(2, (2, 0, 0), 152, 500, 3, 1000)
        assert sensors.connected
    # The heartbeat asked for was set on the scanner.
    assert any(p.type == sp.SET_CONFIG for p in emulator.received)


def test_a_switch_change_arrives_as_a_frame(link: tuple[SerialSensors, Events]) -> None:
    _, events = link
    for switch in (0, 42, 151, 42):
        changed = events.toggle(switch)
        events.wait_last(events.emulator.closed)
        # Three scans of debounce at 500 Hz, the USB hop and the decode: milliseconds.
        assert events.events[-1].frame.timestamp - changed < 0.25
    assert events.last == 1 << 0 | 1 << 151


def test_heartbeats_arrive_when_nothing_changes(link: tuple[SerialSensors, Events]) -> None:
    sensors, events = link
    before = sensors.stats()["frames"]
    time.sleep(0.55)
    assert sensors.stats()["frames"] - before >= 3
    heartbeats = [p for p in events.emulator.sent if p.type == sp.FRAME and p.payload[10] == 1]
    assert len(heartbeats) >= 3
    assert len(events.events) == 1  # the same board, so no new event


def test_read_asks_for_a_full_frame(link: tuple[SerialSensors, Events]) -> None:
    sensors, events = link
    events.toggle(9)
    wait_for(lambda: events.last == 1 << 9)
    asked = len([p for p in events.emulator.received if p.type == sp.GET_FRAME])
    assert sensors.read().closed_bits() == (9,)
    assert len([p for p in events.emulator.received if p.type == sp.GET_FRAME]) == asked + 1


def test_read_before_start_connects(emulator: Emulator) -> None:
    emulator.set_closed(1 << 20)
    time.sleep(0.05)
    with SerialSensors(152, port=str(emulator.link), settings=FAST) as sensors:
        assert sensors.read().closed_bits() == (20,)
        events = Events(emulator)
        sensors.start(events)
        assert [e.frame.closed_bits() for e in events.events] == [(20,)]


@pytest.mark.parametrize("fault", ["corrupt_next", "truncate_next"])
def test_a_damaged_frame_is_dropped_and_the_state_recovered(
    link: tuple[SerialSensors, Events], caplog: pytest.LogCaptureFixture, fault: str
) -> None:
    sensors, events = link
    getattr(events.emulator, fault)()
    events.toggle(33)  # its change frame is the damaged one...
    wait_for(lambda: events.last == 1 << 33, what="the change, from the frame asked after")
    stats = sensors.stats()
    assert stats["crc"] + stats["cobs"] + stats["short"] == 1
    assert stats["gap"] == 1
    damaged = [p for p in events.emulator.sent if p.fate != "sent"]
    assert len(damaged) == 1 and damaged[0].type == sp.FRAME
    assert len(warnings(caplog)) == 1


def test_a_dropped_packet_shows_as_a_gap_and_a_full_frame_is_asked_for(
    link: tuple[SerialSensors, Events], caplog: pytest.LogCaptureFixture
) -> None:
    sensors, events = link
    asked = len([p for p in events.emulator.received if p.type == sp.GET_FRAME])
    events.emulator.drop_next()
    events.toggle(64)
    wait_for(lambda: events.last == 1 << 64)
    assert sensors.stats()["gap"] == 1
    wait_for(
        lambda: len([p for p in events.emulator.received if p.type == sp.GET_FRAME]) > asked,
        what="the scanner to be asked for a full frame",
    )
    assert warnings(caplog) == [
        f"trouble on the scanner link {sensors.port}: a gap in the sequence numbers "
        "(asked for a full frame)"
    ]


@pytest.mark.parametrize(
    ("noise", "kinds"),
    [
        (bytes(range(256)) * 4, ("cobs", "crc", "short", "oversized")),
        (b"\x55" * 2000, ("oversized",)),
        (b"Traceback (most recent call last):\r\n  OSError: [Errno 5] EIO\r\n", ("cobs",)),
    ],
)
def test_noise_on_the_line_is_survived(
    link: tuple[SerialSensors, Events],
    caplog: pytest.LogCaptureFixture,
    noise: bytes,
    kinds: tuple[str, ...],
) -> None:
    sensors, events = link
    events.emulator.inject(noise)
    events.toggle(100)
    wait_for(lambda: events.last == 1 << 100)
    stats = sensors.stats()
    assert sum(stats.get(kind, 0) for kind in kinds) >= 1
    assert stats.get("gap", 0) == 0  # noise between packets costs no packet
    assert len(warnings(caplog)) == 1


def test_a_silent_scanner_is_reported_and_the_link_reset(
    link: tuple[SerialSensors, Events], caplog: pytest.LogCaptureFixture
) -> None:
    sensors, events = link
    events.emulator.freeze()
    events.toggle(7)  # while it hangs
    wait_for(lambda: not sensors.connected, timeout=3, what="the silence to be noticed")
    assert sensors.stats()["silence"] == 1
    time.sleep(0.3)  # a few tries to reconnect, unanswered
    events.emulator.thaw()
    wait_for(lambda: sensors.connected and events.last == 1 << 7, timeout=3)
    assert warnings(caplog) == [
        f"scanner link down: no heartbeat from the scanner at {sensors.port} for 1.0 s; "
        "reconnecting"
    ]


def test_an_unplugged_cable_is_reported_and_the_replug_found(
    link: tuple[SerialSensors, Events], caplog: pytest.LogCaptureFixture
) -> None:
    sensors, events = link
    events.emulator.unplug()
    wait_for(lambda: not sensors.connected, what="the lost port to be noticed")
    events.toggle(120)  # a checker moved while the cable was out
    time.sleep(0.3)
    events.emulator.plug()
    wait_for(lambda: sensors.connected and events.last == 1 << 120, timeout=3)
    assert events.emulator.boots == 2
    assert sensors.stats()["connects"] == 2
    (warning,) = warnings(caplog)
    assert warning.startswith(f"scanner link down: reading {sensors.port} failed")
    # The settings are the host's again on the new power-up.
    assert sum(p.type == sp.SET_CONFIG for p in events.emulator.received) == 2
    events.toggle(121)
    events.wait_last(1 << 120 | 1 << 121)


def test_a_restarted_scanner_is_noticed_and_set_up_again(
    link: tuple[SerialSensors, Events], caplog: pytest.LogCaptureFixture
) -> None:
    sensors, events = link
    configs = sum(p.type == sp.SET_CONFIG for p in events.emulator.received)
    events.emulator.reset()
    wait_for(lambda: sensors.stats().get("connects") == 2, timeout=3, what="a new handshake")
    assert sum(p.type == sp.SET_CONFIG for p in events.emulator.received) == configs + 1
    (warning,) = warnings(caplog)
    assert "restarted" in warning
    events.toggle(3)
    events.wait_last(1 << 3)


def test_a_scanner_of_another_length_is_refused(tmp_path: Path) -> None:
    with Emulator(tmp_path / "scanner", nbits=160) as device:
        sensors = SerialSensors(152, port=str(device.link), settings=FAST)
        with pytest.raises(BackendUnavailableError, match=r"reads 160 switches .* has 152"):
            sensors.start(lambda event: None)
        sensors.close()
        with SerialSensors(160, port=str(device.link), settings=FAST) as matching:
            assert matching.read().nbits == 160


def test_a_scanner_of_a_newer_protocol_is_refused(tmp_path: Path) -> None:
    def version_3(sandbox: Sandbox) -> None:
        sandbox.load("scanproto").VERSION = 3

    with Emulator(tmp_path / "scanner", on_boot=version_3) as device:
        sensors = SerialSensors(152, port=str(device.link), settings=FAST)
        with pytest.raises(BackendUnavailableError, match="speaks protocol 3, this bgpi speaks 2"):
            sensors.read()
        sensors.close()


def test_a_scanner_of_protocol_1_is_named_with_the_fix(tmp_path: Path) -> None:
    def protocol_1(sandbox: Sandbox) -> None:
        # An old firmware: every packet it sends in protocol 1's framing (CRC-16, no version).
        proto = sandbox.load("scanproto")
        proto.encode = proto.encode_legacy

    with Emulator(tmp_path / "scanner", on_boot=protocol_1) as device:
        sensors = SerialSensors(152, port=str(device.link), settings=FAST)
        with pytest.raises(BackendUnavailableError) as caught:
            sensors.read()
        sensors.close()
    message = str(caught.value)
    assert "speaks protocol 1, this bgpi speaks 2" in message and "bgpi flash-scanner" in message


def test_a_host_of_protocol_1_is_told_the_scanners_protocol(emulator: Emulator) -> None:
    import serial  # noqa: PLC0415

    with serial.Serial(str(emulator.link), timeout=0.05) as old_host:
        old_host.write(sp.encode_legacy(sp.HELLO, 9, b""))
        replies: list[tuple[int, int, bytes]] = []
        deadline = time.monotonic() + 3
        while not any(t == sp.HELLO_REPLY for t, _, _ in replies) and time.monotonic() < deadline:
            for segment in old_host.read(256).split(b"\x00"):
                packet = sp.cobs_decode(segment) if segment else b""
                # Protocol 1's own check: type, seq, payload, CRC-16.
                if len(packet) >= 4 and sp.crc16(packet[:-2]) == packet[-2] | packet[-1] << 8:
                    replies.append((packet[0], packet[1], packet[2:-2]))
    (payload,) = [p for t, _, p in replies if t == sp.HELLO_REPLY]
    # What protocol 1's host reads first in a HELLO_REPLY: the version, so it names it.
    assert payload[0] == sp.VERSION == 2


def test_refused_settings_are_named(emulator: Emulator) -> None:
    settings = dataclasses.replace(FAST)
    object.__setattr__(settings, "scan_hz", 5)  # past the host's own check
    sensors = SerialSensors(152, port=str(emulator.link), settings=settings)
    with pytest.raises(BackendUnavailableError, match=r"refused .* \(5, 0, 100\)"):
        sensors.read()
    sensors.close()


def test_a_device_that_does_not_answer_is_named(emulator: Emulator) -> None:
    # mpremote's Ctrl-C: the firmware steps aside for the REPL and answers no more.
    import serial  # noqa: PLC0415

    with serial.Serial(str(emulator.link)) as mpremote:
        mpremote.write(b"\r\x03\x03")
    wait_for(lambda: emulator.in_repl, what="the firmware to stop")
    assert emulator.board is not None and emulator.board.kbd_intr == [-1, 3]
    sensors = SerialSensors(152, port=str(emulator.link), settings=FAST)
    with pytest.raises(BackendUnavailableError, match="does not answer hello"):
        sensors.read()
    sensors.close()


def test_no_scanner_at_the_port_says_so(tmp_path: Path) -> None:
    sensors = SerialSensors(152, port=str(tmp_path / "bgpi-scanner"))
    with pytest.raises(BackendUnavailableError, match=r"^no scanner at .*bgpi-scanner: is the"):
        sensors.start(lambda event: None)
    sensors.close()


def test_without_pyserial_the_error_says_how_to_get_it(
    emulator: Emulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "serial", None)
    sensors = SerialSensors(152, port=str(emulator.link))
    with pytest.raises(
        BackendUnavailableError,
        match=r"^the serial backend needs pyserial: sudo apt install gcc python3-dev, then pip "
        r"install 'bgpi\[pi\]'",
    ):
        sensors.read()


def test_a_port_by_usb_id(emulator: Emulator, monkeypatch: pytest.MonkeyPatch) -> None:
    import serial.tools.list_ports  # noqa: PLC0415

    class Port:
        vid, pid, serial_number = 0x2E8A, 0x0005, "E66138935F4B2E2A"
        device = str(emulator.link)

    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: [Port()])
    with SerialSensors(152, port="usb:2e8a:0005", settings=FAST) as sensors:
        assert sensors.read().nbits == 152
    with SerialSensors(152, port="usb:2e8a:0005:e66138935f4b2e2a", settings=FAST) as sensors:
        assert sensors.read().nbits == 152
    with pytest.raises(BackendUnavailableError, match="no USB device 2e8a:000a"):
        SerialSensors(152, port="usb:2e8a:000a", settings=FAST).read()


def test_close_is_idempotent_and_final(link: tuple[SerialSensors, Events]) -> None:
    sensors, _ = link
    sensors.close()
    sensors.close()
    assert not sensors.connected
    with pytest.raises(BackendClosedError):
        sensors.read()
    with pytest.raises(BackendClosedError):
        sensors.start(lambda event: None)


def test_open_sensors_makes_a_serial_backend(emulator: Emulator) -> None:
    small = Geometry.default(point_slots=2, bar_slots=1)
    sensors = open_sensors("serial", small, port="/nowhere", settings=FAST)
    assert isinstance(sensors, SerialSensors) and sensors.nbits == 50
    sensors.close()


def test_settings_are_checked_on_the_host() -> None:
    with pytest.raises(ValueError, match="scan_hz 5000 is not 50-2000"):
        LinkSettings(scan_hz=5000)
    with pytest.raises(ValueError, match="reply_timeout must be positive"):
        LinkSettings(reply_timeout=0)
    assert LinkSettings().silence_limit == 3.0
    assert LinkSettings(heartbeat_ms=200).silence_limit == pytest.approx(0.6)


def test_importing_bgpi_hal_loads_neither_pyserial_nor_the_backend() -> None:
    code = (
        "import sys, bgpi.hal\n"
        "print([m for m in ('serial', 'bgpi.hal.serial') if m in sys.modules])\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert result.stdout.strip() == "[]", result.stderr


def test_a_hung_scanner_is_restarted_by_its_watchdog(tmp_path: Path) -> None:
    with Emulator(tmp_path / "scanner", watchdog=True) as device:
        sensors = SerialSensors(152, port=str(device.link), settings=FAST)
        sensors.read()
        device.freeze()  # the scan loop hangs: nothing feeds the watchdog any more
        wait_for(lambda: device.boots == 2, timeout=3, what="the watchdog's reset")
        device.close_switches([9])
        wait_for(lambda: sensors.read().bits == 1 << 9, timeout=5, what="the restarted scanner")
        sensors.close()
        assert device.board is not None and device.board.watchdog.feeds > 0
