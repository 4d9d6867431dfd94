"""The board's buzzer on gpiozero's real TonalBuzzer and Buzzer, with only the pin mocked:
each cue drives the pin through its notes' pitches and back to silence."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from bgpi.hal import open_buzzer
from bgpi.hal.buzzer import MID_HZ, OCTAVES, BuzzerKind, GpioBuzzer
from bgpi.hal.errors import BackendClosedError, BackendUnavailableError
from bgpi.hal.sim import SimBuzzer
from bgpi.present.cues import HIGHEST_HZ, LOWEST_HZ, TUNES, Cue, pairs

PIN = 27


class RecordingPin(MockPWMPin):
    """A mock PWM pin that keeps every frequency and duty cycle it is given, in order."""

    def __init__(self, factory: Any, info: Any) -> None:
        super().__init__(factory, info)
        self.changes: list[tuple[str, float | None]] = []

    def _set_frequency(self, value: float | None) -> None:
        self.changes.append(("frequency", value))
        super()._set_frequency(value)

    def _set_state(self, value: float) -> None:
        self.changes.append(("value", float(value)))
        super()._set_state(value)


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    made = MockFactory(pin_class=RecordingPin)
    yield made
    made.reset()


class Held:
    """The buzzer's sleep: counts the time each note is held, and waits for nothing."""

    def __init__(self) -> None:
        self.seconds: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.seconds.append(seconds)


def expected_passive(cue: Cue) -> list[tuple[str, float | None]]:
    """What TonalBuzzer does to the pin for ``cue``'s notes: a pitch at half duty for a
    note, silence (no frequency) for a rest, and silence at the end."""
    changes: list[tuple[str, float | None]] = []
    for hz, _ in pairs(cue):
        if hz:
            changes += [("frequency", pytest.approx(hz)), ("value", 0.5)]
        else:
            changes += [("frequency", None)]
    return [*changes, ("frequency", None)]


@pytest.mark.parametrize("cue", list(Cue))
def test_a_passive_buzzer_plays_each_cue_at_its_pitches(factory: MockFactory, cue: Cue) -> None:
    held = Held()
    with GpioBuzzer(PIN, kind="passive", sleep=held, pin_factory=factory) as buzzer:
        pin = factory.pin(PIN)
        pin.changes.clear()  # opening: silent
        buzzer.play(pairs(cue))
        assert buzzer.wait(5.0)
        played = [c for c in pin.changes if c != ("value", 0.0)]  # silence says it twice
        assert played == expected_passive(cue)
        assert held.seconds == [seconds for _, seconds in pairs(cue)]
        assert pin.state == 0
    assert pin.frequency is None


def test_an_active_buzzer_is_switched_on_for_notes_and_off_for_rests(
    factory: MockFactory,
) -> None:
    held = Held()
    with GpioBuzzer(PIN, kind=BuzzerKind.ACTIVE, sleep=held, pin_factory=factory) as buzzer:
        pin = factory.pin(PIN)
        pin.changes.clear()
        buzzer.play(pairs(Cue.DICE))
        assert buzzer.wait(5.0)
        values = [value for what, value in pin.changes if what == "value"]
        # An active buzzer has one pitch: only on and off, never a frequency.
        assert all(what == "value" for what, _ in pin.changes)
        assert values == [1.0 if hz else 0.0 for hz, _ in pairs(Cue.DICE)] + [0.0]


def test_tunes_queue_in_order_and_play_returns_at_once(factory: MockFactory) -> None:
    release = threading.Event()
    starts: list[float] = []

    def slow(seconds: float) -> None:
        starts.append(seconds)
        release.wait(5.0)

    with GpioBuzzer(PIN, sleep=slow, pin_factory=factory) as buzzer:
        buzzer.play(pairs(Cue.TURN))
        buzzer.play(pairs(Cue.HIT))  # returned although the first tune is still sounding
        release.set()
        assert buzzer.wait(5.0)
        assert starts == [s for _, s in pairs(Cue.TURN)] + [s for _, s in pairs(Cue.HIT)]


def test_a_closed_buzzer_refuses_and_closing_twice_is_harmless(factory: MockFactory) -> None:
    buzzer = GpioBuzzer(PIN, sleep=Held(), pin_factory=factory)
    buzzer.close()
    buzzer.close()
    with pytest.raises(BackendClosedError):
        buzzer.play(pairs(Cue.TURN))


def test_a_pin_in_use_is_one_line(factory: MockFactory) -> None:
    with (
        GpioBuzzer(PIN, sleep=Held(), pin_factory=factory),
        pytest.raises(BackendUnavailableError, match=f"cannot open the buzzer on GPIO{PIN}"),
    ):
        GpioBuzzer(PIN, sleep=Held(), pin_factory=factory)


def test_the_tunes_keep_to_the_passive_buzzers_range() -> None:
    assert (LOWEST_HZ, HIGHEST_HZ) == (MID_HZ / 2**OCTAVES, MID_HZ * 2**OCTAVES)
    for tune in TUNES.values():
        assert all(note.hz == 0 or LOWEST_HZ <= note.hz <= HIGHEST_HZ for note in tune)


def test_the_simulator_sounds_nothing_and_keeps_what_it_was_asked() -> None:
    buzzer = open_buzzer("sim")
    assert isinstance(buzzer, SimBuzzer)
    buzzer.play(pairs(Cue.HIT))
    assert buzzer.played == [pairs(Cue.HIT)]
    buzzer.close()
    with pytest.raises(BackendClosedError):
        buzzer.play(pairs(Cue.HIT))
