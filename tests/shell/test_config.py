"""The configuration file: defaults, and every kind of bad value refused by file, key, why."""

from pathlib import Path

import pytest

from bgpi.journal.records import DiceSource
from bgpi.service.config import Config, ConfigError, load, parse, show


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "bgpi.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_an_empty_file_runs_the_simulator(tmp_path: Path) -> None:
    config = load(write(tmp_path, ""))
    assert config.sensors.backend == "sim" and config.leds.backend == "sim"
    assert config.rules.length == 5
    assert config.geometry.nbits == 152
    assert config.ledmap.length == 264


def test_values_are_read(tmp_path: Path) -> None:
    config = load(
        write(
            tmp_path,
            """
            [sensors]
            point_slots = 5
            settle_ms = 60
            [leds]
            brightness = 0.25
            [leds.palette]
            destination = [0, 0, 255]
            [rules]
            length = 0
            jacoby = true
            [players]
            white = "Anna"
            """,
        )
    )
    assert config.geometry.nbits == 24 * 5 + 8
    assert config.sensors.settle_ms == 60 and config.style.brightness == 0.25
    assert config.style.colour("destination") == (0, 0, 255)
    assert config.match_record().names == ("Anna", "Black")
    assert config.match_record().jacoby


@pytest.mark.parametrize(
    ("text", "key", "why"),
    [
        ("[sensorz]\n", "sensorz", "unknown section"),
        ("[sensors]\nslots = 6\n", "sensors.slots", "unknown key"),
        ("[sensors]\npoint_slots = 'six'\n", "sensors.point_slots", "expected int"),
        ("[sensors]\npoint_slots = 40\n", "sensors.point_slots", "expected 1 to 15"),
        ("[sensors]\nbackend = 'usb'\n", "sensors.backend", "expected one of"),
        ("[leds]\nbrightness = 2.0\n", "leds.brightness", "expected 0.0 to 1.0"),
        ("[rules]\nlength = -1\n", "rules.length", "expected 0 to 99"),
        ("[rules]\njacoby = true\n", "rules", "money"),
        ("[pins]\nwhite_roll = 6\n", "pins", "GPIO6 is given to both"),
        ("[pins]\nwhite_roll = 40\n", "pins", "not a header GPIO"),
        ("[leds.palette]\ndestination = [0, 0, 300]\n", "leds", "destination"),
        ("[leds.map]\nlength = 10\n", "leds.map", ""),
        ("[leds]\nmax_current_ma = 200\n", "leds.max_current_ma", "mA"),
        ("[remote]\npatience = 2\n", "remote.patience", "expected 5 to 86400"),
        ("[sensors\n", "(syntax)", ""),
        ("[leds]\npixel_order = 'GRBX'\n", "leds.pixel_order", "not an order of R, G, B"),
        ("[leds]\npixel_order = 'GGB'\n", "leds.pixel_order", "such as GRB or GRBW"),
        ("[pins]\nled_data = 12\n", "pins.led_data", "GPIO12 is no SPI MOSI"),
        ("[leds]\nwiring = 'pwm'\n", "pins.led_data", "GPIO20 has no PWM"),
        ("[leds]\nwiring = 'pwm'\n[pins]\nled_data = 4\n", "pins.led_data", "GPIO4 has no PWM"),
    ],
)
def test_bad_values_are_refused_with_file_key_and_why(
    tmp_path: Path, text: str, key: str, why: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load(path)
    assert caught.value.source == str(path)
    assert caught.value.key == key
    assert why in caught.value.why
    assert str(path) in str(caught.value)


def test_an_led_map_past_the_strip_names_the_pixel() -> None:
    zones = {str(zone): {"first": (zone - 1) * 6, "count": 6} for zone in range(1, 25)}
    zones.update({str(zone): [] for zone in range(25, 29)})
    zones["24"] = {"first": 140, "count": 6}  # runs past a 144-pixel strip
    with pytest.raises(ConfigError, match=r"leds\.map.*(145|pixel)"):
        parse({"leds": {"map": {"length": 144, "zones": zones}}}, "test.toml")


def test_an_overlapping_led_map_is_refused() -> None:
    zones = {str(zone): {"first": (zone - 1) * 6, "count": 6} for zone in range(1, 25)}
    zones.update({str(zone): [] for zone in range(25, 29)})
    zones["2"] = {"first": 3, "count": 6}  # overlaps point 1
    with pytest.raises(ConfigError, match=r"leds\.map"):
        parse({"leds": {"map": {"length": 144, "zones": zones}}}, "test.toml")


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such file"):
        load(tmp_path / "nothing.toml")


def test_show_prints_every_section() -> None:
    text = show(Config())
    for section in ("[sensors]", "[buttons]", "[leds]", "[pins]", "[rules]", "[players]"):
        assert section in text
    assert 'backend = "sim"' in text


def test_state_dir_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "systemd"))
    assert Config().state_dir() == tmp_path / "systemd"
    assert Config().state_dir(tmp_path / "cli") == tmp_path / "cli"
    monkeypatch.delenv("STATE_DIRECTORY")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    assert Config().state_dir() == tmp_path / "xdg" / "bgpi"


def test_the_dice_source_is_read_as_its_enum_and_a_wrong_one_is_refused(tmp_path: Path) -> None:
    config = load(write(tmp_path, '[dice]\nsource = "entered"\n'))
    assert config.dice.source is DiceSource.ENTERED
    assert config.match_record().dice is DiceSource.ENTERED
    assert 'source = "entered"' in show(config)
    with pytest.raises(ConfigError, match="expected one of"):
        load(write(tmp_path, '[dice]\nsource = "loaded"\n'))


def test_godice_are_read_from_the_pair_bgpi_dice_pair_wrote(tmp_path: Path) -> None:
    text = '[dice]\nsource = "godice"\nfirst = "C0:11:22:33:44:01"\nsecond = "c0:11:22:33:44:02"\n'
    config = load(write(tmp_path, text))
    assert config.dice.source is DiceSource.GODICE
    assert config.dice.paired == ("C0:11:22:33:44:01", "c0:11:22:33:44:02")
    assert config.match_record().dice is DiceSource.GODICE
    with pytest.raises(ConfigError, match=r"dice\.source: godice needs the two dice paired to the"):
        load(write(tmp_path, '[dice]\nsource = "godice"\n'))


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ('first = "C0:11:22"', "dice.first: 'C0:11:22' is not a Bluetooth address"),
        ('second = "red die"', "dice.second: 'red die' is not a Bluetooth address"),
        ('first = "C0:11:22:33:44:01"\nsecond = "C0:11:22:33:44:01"', "dice.second: is the same"),
        ("first = 7", r"dice.first: is 7 \(int\), expected str"),
    ],
)
def test_a_godice_address_that_is_none_is_refused_naming_the_key(
    tmp_path: Path, line: str, said: str
) -> None:
    with pytest.raises(ConfigError, match=said):
        load(write(tmp_path, f"[dice]\n{line}\n"))


@pytest.mark.parametrize("source", ["entered", "godice"])
def test_dice_thrown_by_hand_are_refused_where_nobody_sits_at_the_board(
    tmp_path: Path, source: str
) -> None:
    paired = 'first = "C0:11:22:33:44:01"\nsecond = "C0:11:22:33:44:02"\n'
    seats = '[seats]\nwhite = "demo"\nblack = "demo"\n'
    with pytest.raises(ConfigError, match=f"dice.source: {source} dice are thrown by hand, but"):
        load(write(tmp_path, f'{seats}[dice]\nsource = "{source}"\n{paired}'))
    one = '[seats]\nwhite = "demo"\n'  # a person plays Black: he throws the dice for both
    assert load(write(tmp_path, f'{one}[dice]\nsource = "{source}"\n{paired}')).dice.source
