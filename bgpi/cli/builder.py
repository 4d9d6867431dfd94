"""Commands at the board itself: ``bgpi diagnose``, ``bgpi calibrate`` and
``bgpi flash-scanner``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bgpi.base.i18n import _
from bgpi.cli.arguments import Commands, add_command
from bgpi.cli.errors import FAILED, OK, USAGE
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
