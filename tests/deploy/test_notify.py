"""sd_notify: READY, the watchdog and STOPPING reach a fake notify socket, from the notifier
alone, from the event loop, and from `bgpi run` as systemd starts and stops it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bgpi.hal.sim import ManualClock
from bgpi.service.app import App
from bgpi.service.config import Config
from bgpi.service.notify import Notifier, NotifyError, socket_address, watchdog_interval
from tests.deploy.notifysocket import fake_notify_socket


def test_the_address_is_a_path_or_an_abstract_name() -> None:
    assert socket_address("/run/systemd/notify") == "/run/systemd/notify"
    assert socket_address("@bgpi/notify") == b"\0bgpi/notify"
    for bad in ("relative/path", "@"):
        with pytest.raises(NotifyError, match="NOTIFY_SOCKET"):
            socket_address(bad)


def test_the_watchdog_interval_is_for_this_process_only() -> None:
    assert watchdog_interval({}, 42) is None
    assert watchdog_interval({"WATCHDOG_USEC": "10000000"}, 42) == 10.0
    assert watchdog_interval({"WATCHDOG_USEC": "500000", "WATCHDOG_PID": "42"}, 42) == 0.5
    assert watchdog_interval({"WATCHDOG_USEC": "500000", "WATCHDOG_PID": "7"}, 42) is None
    for bad in ("ten", "0", "-5"):
        with pytest.raises(NotifyError, match="WATCHDOG_USEC"):
            watchdog_interval({"WATCHDOG_USEC": bad}, 42)


def test_without_systemd_nothing_is_sent() -> None:
    notifier = Notifier.from_environment({})
    assert not notifier.enabled
    notifier.ready()
    notifier.alive()
    notifier.stopping()
    assert not notifier.send("READY=1")


def test_ready_status_and_stopping_reach_the_socket() -> None:
    with fake_notify_socket() as systemd:
        notifier = Notifier.from_environment({"NOTIFY_SOCKET": systemd.env_value})
        notifier.ready("5-point match,\nopening roll")
        notifier.status("thinking")
        notifier.stopping()
        notifier.close()
        got = [systemd.receive(1.0) for _ in range(3)]
    assert got == [
        "READY=1\nSTATUS=5-point match, opening roll",
        "STATUS=thinking",
        "STOPPING=1",
    ]


def test_an_abstract_socket_is_reached() -> None:
    with fake_notify_socket(abstract=True) as systemd:
        assert systemd.env_value.startswith("@")
        Notifier.from_environment({"NOTIFY_SOCKET": systemd.env_value}).ready()
        assert systemd.receive(1.0) == "READY=1"


def test_the_watchdog_is_fed_at_half_its_interval_however_often_the_loop_turns() -> None:
    clock = ManualClock(100.0)
    with fake_notify_socket() as systemd:
        env = {"NOTIFY_SOCKET": systemd.env_value, "WATCHDOG_USEC": "2000000"}
        notifier = Notifier.from_environment(env, clock=clock)
        assert notifier.watchdog == 2.0
        notifier.ready()
        assert systemd.receive(1.0) == "READY=1"
        fed = []
        for _ in range(80):  # ten seconds of a loop turning every 1/8 s
            clock.advance(0.125)
            notifier.alive()
            message = systemd.receive(0.001)
            if message is not None:
                assert message == "WATCHDOG=1"
                fed.append(clock() - 100.0)
        assert fed == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0]
        clock.advance(30)  # a hung loop calls alive() no more, and nothing is sent
        assert systemd.receive(0.05) is None


def test_a_dead_socket_does_not_stop_the_table(caplog: pytest.LogCaptureFixture) -> None:
    notifier = Notifier("/nonexistent/bgpi/notify", watchdog=1.0)
    assert not notifier.send("READY=1")
    assert not notifier.send("WATCHDOG=1")
    assert len([r for r in caplog.records if "cannot notify systemd" in r.message]) == 1


def test_the_event_loop_notifies_ready_feeds_the_watchdog_and_stops_feeding_when_hung(
    tmp_path: Path,
) -> None:
    hang, hung = threading.Event(), threading.Event()
    release = threading.Event()

    def alive() -> None:
        if hang.is_set():
            hung.set()
            release.wait(10)

    with fake_notify_socket() as systemd:
        notifier = Notifier(systemd.sock.getsockname(), watchdog=0.4)
        app = App(Config(), tmp_path, on_alive=alive, notifier=notifier)
        runner = threading.Thread(target=app.run)
        runner.start()
        try:
            ready = systemd.wait_for("READY=1", timeout=60)
            assert "STATUS=5-point match" in ready[-1]
            assert "White" in ready[-1] and "player 0" not in ready[-1]  # the players' names
            # The loop turns at least every 0.5 s; the watchdog is fed at most every 0.2 s.
            assert systemd.collect(2.0).count("WATCHDOG=1") >= 3
            hang.set()
            assert hung.wait(5)
            systemd.collect(0.1)  # a feed already on its way when the loop hung
            assert systemd.collect(1.5) == []
            hang.clear()
            release.set()
            assert systemd.wait_for("WATCHDOG=1", timeout=2)
        finally:
            release.set()
            app.stop.set()
            runner.join(10)
        assert not runner.is_alive()
        assert systemd.collect(0.5)[-1:] == ["STOPPING=1"]


def test_bgpi_run_under_a_fake_systemd_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    with fake_notify_socket() as systemd:
        env = dict(os.environ)
        env.update(NOTIFY_SOCKET=systemd.env_value, WATCHDOG_USEC="1000000")
        env.pop("WATCHDOG_PID", None)
        config = tmp_path / "bgpi.toml"
        config.write_text("[web]\nport = 0\n", encoding="utf-8")  # any free port
        service = subprocess.Popen(
            [sys.executable, "-m", "bgpi", "run", *("--state-dir", tmp_path, "--config", config)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            systemd.wait_for("READY=1", timeout=60)
            assert systemd.collect(2.0).count("WATCHDOG=1") >= 2
            service.send_signal(signal.SIGTERM)
            assert systemd.wait_for("STOPPING=1", timeout=10)
            assert service.wait(timeout=10) == 0, service.stderr
        finally:
            if service.poll() is None:
                service.kill()
            stdout, stderr = service.communicate()
    assert "Traceback" not in stderr
    assert (tmp_path / "journal.sqlite").exists()
    assert "the companion page is at http://127.0.0.1:" in stdout
