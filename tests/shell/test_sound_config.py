"""``[sound]``: off by default, an optional buzzer pin checked against the board's other
pins, and the buzzer opened only where the config and the hardware ask for one."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from bgpi.cli import main
from bgpi.hal.buzzer import BuzzerKind, GpioBuzzer
from bgpi.hal.sim import SimBuzzer
from bgpi.present.cues import Cue, pairs
from bgpi.service.app import App, Hardware, open_board_buzzer
from bgpi.service.config import Config, ConfigError, parse, show
from bgpi.sim.selfplay import Hands


def test_sound_is_off_by_default_and_no_buzzer_is_opened() -> None:
    config = parse({})
    assert not config.sound.enabled and config.sound.buzzer_pin is None
    assert open_board_buzzer(config) is None
    assert open_board_buzzer(parse({"sound": {"buzzer_pin": 27}})) is None  # not enabled
    assert "# buzzer_pin: not given" in show(config)


@pytest.mark.parametrize(
    ("sound", "why"),
    [
        ({"buzzer_pin": "27"}, "sound.buzzer_pin: is '27' (str), expected int"),
        ({"buzzer_pin": 13}, "sound.buzzer_pin: GPIO13 is already black_roll ([pins])"),
        ({"buzzer_pin": 20}, "sound.buzzer_pin: GPIO20 is already led_data ([pins])"),
        ({"buzzer_pin": 19}, "sound.buzzer_pin: GPIO19 is held by an SPI bus"),
        ({"buzzer_pin": 40}, "sound.buzzer_pin: 40 is not a header GPIO"),
        ({"buzzer": "loud"}, "sound.buzzer: is 'loud', expected one of ('passive', 'active')"),
        ({"enabled": "yes"}, "sound.enabled: is 'yes' (str), expected bool"),
        ({"volume": 3}, "sound.volume: unknown key"),
    ],
)
def test_a_bad_sound_section_names_the_key_and_why(sound: dict[str, object], why: str) -> None:
    with pytest.raises(ConfigError) as error:
        parse({"sound": sound}, "board.toml")
    assert str(error.value).startswith(f"board.toml: {why}")


def test_config_check_refuses_a_clashing_buzzer_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "board.toml"
    path.write_text("[sound]\nenabled = true\nbuzzer_pin = 5\n", encoding="utf-8")
    assert main(["config", "check", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == f"bgpi: {path}: sound.buzzer_pin: GPIO5 is already white_roll ([pins])\n"


def test_the_simulated_buttons_get_the_silent_buzzer() -> None:
    buzzer = open_board_buzzer(parse({"sound": {"enabled": True, "buzzer_pin": 27}}))
    assert isinstance(buzzer, SimBuzzer)


@pytest.fixture
def pwm_pins() -> Iterator[MockFactory]:
    saved = Device.pin_factory
    Device.pin_factory = factory = MockFactory(pin_class=MockPWMPin)
    yield factory
    factory.reset()
    Device.pin_factory = saved


def test_the_gpio_buttons_get_the_configured_buzzer_on_its_pin(pwm_pins: MockFactory) -> None:
    config = parse(
        {
            "buttons": {"backend": "gpio"},
            "sound": {"enabled": True, "buzzer_pin": 27, "buzzer": "active"},
        }
    )
    buzzer = open_board_buzzer(config)
    assert isinstance(buzzer, GpioBuzzer) and buzzer.kind is BuzzerKind.ACTIVE
    try:
        assert pwm_pins.pin(27).function == "output"
    finally:
        buzzer.close()


def test_bgpi_run_plays_the_tables_cues_on_the_buzzer(tmp_path: Path) -> None:
    """Self-play on the simulator with sound on: the cues of the table's steps reach the
    (silent) buzzer of the board, as their own notes."""
    config = parse({"sound": {"enabled": True, "buzzer_pin": 27}})
    app = App(config, tmp_path)
    hands = Hands(5, say=lambda _: None)
    opened: list[Hardware] = []

    def hardware(config: Config, stack: ExitStack) -> Hardware:
        opened.append(hands.hardware(config, stack))
        return opened[-1]

    app.hands, app.hardware = hands, hardware
    ready = threading.Event()
    app.on_ready = ready.set
    thread = threading.Thread(target=app.run)
    thread.start()
    try:
        assert ready.wait(30)
        driver = app.driver
        assert driver is not None
        for _ in range(600):  # until a play has passed the turn, for a minute at most
            if any(cue is Cue.TURN for _, cue in driver.heard):
                break
            app.stop.wait(0.1)
    finally:
        app.stop.set()
        thread.join(30)
    (made,) = opened
    assert isinstance(made.buzzer, SimBuzzer)
    heard = [pairs(cue) for _, cue in driver.heard]
    assert any(cue is Cue.TURN for _, cue in driver.heard)
    assert made.buzzer.played[-len(heard) :] == heard
    assert pairs(Cue.DICE) in made.buzzer.played
