"""Commands at the board itself: ``bgpi diagnose``, ``bgpi calibrate``,
``bgpi flash-scanner`` and ``bgpi dice pair``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bgpi.base.i18n import _
from bgpi.cli.arguments import Commands, add_command
from bgpi.cli.errors import FAILED, OK, USAGE, CommandError, UsageError
from bgpi.hal.errors import INSTALL
from bgpi.service.config import Config


def add_commands(commands: Commands, common: argparse.ArgumentParser) -> None:
    check = add_command(
        commands,
        common,
        "diagnose",
        _diagnose,
        "test the LEDs, reed switches and buttons at the board",
    )
    _diagnose_options(check)
    from bgpi.builder.calibrate.command import HELP, add_arguments  # noqa: PLC0415

    calibrate = add_command(
        commands,
        common,
        "calibrate",
        _calibrate,
        "learn the wiring of the reed switches at the board",
    )
    calibrate.description = HELP
    calibrate.formatter_class = argparse.RawDescriptionHelpFormatter
    add_arguments(calibrate)
    flasher = add_command(
        commands,
        common,
        "flash-scanner",
        _flash_scanner,
        "put the scanner firmware on the connected Pico (mpremote), stopping bgpi.service "
        "while it holds the port",
    )
    flasher.add_argument("--port", help="the Pico's device (default: the config's sensors.port)")
    flasher.add_argument(
        "--firmware", type=Path, metavar="DIR", help="the firmware folder (default: firmware/)"
    )
    _dice_commands(commands, common)


def _dice_commands(commands: Commands, common: argparse.ArgumentParser) -> None:
    """``bgpi dice pair``: the two GoDice paired to the board, written to the config."""
    dice = commands.add_parser("dice", help="the board's GoDice (Bluetooth smart dice)")
    actions = dice.add_subparsers(dest="action", required=True, metavar="ACTION")
    text = (
        "scan for GoDice, choose die 1 and die 2 (by colour or address) and write them to "
        "the config (--config FILE)"
    )
    pair = actions.add_parser("pair", parents=[common], help=text, description=text)
    for which in ("first", "second"):
        pair.add_argument(
            f"--{which}",
            metavar="COLOUR|ADDRESS",
            help=f"die {1 if which == 'first' else 2}: its colour (red) or address",
        )
    pair.add_argument(
        "--seconds", type=float, default=10.0, help="how long to listen (default: 10)"
    )
    pair.set_defaults(run=_dice_pair)


def _dice_pair(config: Config, args: argparse.Namespace) -> int:
    from bgpi.builder.dicepair import BleakRadio, PairingError, pair  # noqa: PLC0415

    if not args.config:
        raise UsageError(_("give the config file to write the pair into: --config FILE"))
    try:
        pair(
            BleakRadio(),
            Path(args.config),
            first=args.first,
            second=args.second,
            seconds=args.seconds,
            say=lambda line: print(line, flush=True),
        )
    except PairingError as exc:
        raise CommandError(str(exc)) from None
    except ImportError as exc:
        why = _("pairing GoDice needs {name}: {install}")
        raise CommandError(why.format(name=exc.name, install=INSTALL)) from None
    return OK


def _diagnose(config: Config, args: argparse.Namespace) -> int:
    from bgpi.builder.diagnose import diagnose  # noqa: PLC0415 (each command loads what it needs)

    return diagnose(config, args.only, seconds=args.seconds, step=args.step)


def _diagnose_options(check: argparse.ArgumentParser) -> None:
    only = check.add_mutually_exclusive_group()
    for step in ("leds", "switches", "buttons"):
        only.add_argument(
            f"--{step}-only", dest="only", action="store_const", const=step, help=f"only the {step}"
        )
    check.add_argument(
        "--seconds",
        type=float,
        default=60.0,
        help="how long to watch the switches, and to wait for each button (default: 60)",
    )
    check.add_argument(
        "--step", type=float, default=0.2, help="how long each pixel stays lit (default: 0.2)"
    )


def _calibrate(config: Config, args: argparse.Namespace) -> int:
    from bgpi.builder.calibrate.command import calibrate  # noqa: PLC0415

    return calibrate(config, args)


def _flash_scanner(config: Config, args: argparse.Namespace) -> int:
    from bgpi.builder.flash import FlashError, FlashUsageError, flash  # noqa: PLC0415

    port = args.port or config.sensors.port
    if port.startswith("usb:"):
        print(
            "bgpi flash-scanner: "
            + _("give the Pico's device with --port, not {port}").format(port=port),
            file=sys.stderr,
        )
        return USAGE
    try:
        flash(port, folder=args.firmware, say=lambda line: print(line, flush=True))
    except FlashUsageError as exc:
        print(f"bgpi flash-scanner: {exc}", file=sys.stderr)
        return USAGE
    except FlashError as exc:
        print(f"bgpi flash-scanner: {exc}", file=sys.stderr)
        return FAILED
    print(_("done"))
    return OK
