"""``bgpi calibrate``: opens the board the config names (or a scrambled simulated one), runs
the wizard, and turns Ctrl-C into a clean stop that keeps what was learned."""

from __future__ import annotations

import argparse
import random
import sys
from contextlib import ExitStack
from pathlib import Path

from bgpi.base.geometry import Geometry
from bgpi.builder.calibrate.files import partial_path
from bgpi.builder.calibrate.wizard import (
    Board,
    Builder,
    ChainBoard,
    SimBuilder,
    SimChain,
    Terminal,
    Wizard,
)
from bgpi.hal import open_pixels
from bgpi.hal.api import Pixels
from bgpi.hal.errors import BackendUnavailableError
from bgpi.hal.registry import Kind, backend
from bgpi.hal.sim import SimBoard, SimPixels, WiringFaults, scrambled_geometry
from bgpi.service.app import backend_settings
from bgpi.service.config import Config

USAGE = 2
FAULTS = ("dead", "stuck", "crossed")

HELP = """\
Learn which chain input each reed switch is on, at the board, and write the map into the
config file. Stop the service first (sudo systemctl stop bgpi). For each spot in turn the
LEDs light it and the terminal says where to put one checker; the wizard sees which input
closed, you lift the checker, and it moves on. A stuck input (closed with the board empty), a
dead one (nothing closes), crossed wires (two inputs close at once) and an input already
given to another spot are named with what to check; you may retry after fixing, skip, or
quit. At the end each zone is filled once to check the counts, then the config file is
rewritten, the old one kept beside it (FILE.before-calibrate-DATE). Ctrl-C stops at any
time: the config is left untouched and what was learned waits in FILE.calibrating for the
next run. --sim-wiring-seed N --auto runs it on a simulated board wired in a scrambled
order, placing the checkers itself.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--timeout",
        type=float,
        default=30.0,
        help="seconds to wait for a checker before calling its switch dead (default: 30)",
    )
    parser.add_argument(
        "--bits", type=int, help="inputs on the chain (default: as many as the config's map)"
    )
    parser.add_argument(
        "--restart", action="store_true", help="forget a run that was interrupted; start afresh"
    )
    parser.add_argument(
        "--sim-wiring-seed",
        type=int,
        metavar="N",
        help="calibrate a simulated board wired in the scrambled order of seed N",
    )
    parser.add_argument(
        "--sim-spare",
        type=int,
        default=3,
        metavar="K",
        help="chain inputs wired to nothing on the simulated board (default: 3)",
    )
    parser.add_argument(
        "--sim-fault",
        action="append",
        choices=FAULTS,
        default=[],
        help="give the simulated board a dead, stuck or crossed input (repeatable)",
    )
    parser.add_argument(
        "--auto",
        action="store_true",
        help="play the builder's part (only with --sim-wiring-seed)",
    )


def _say(line: str) -> None:
    print(line, flush=True)


def simulated_faults(wiring: Geometry, kinds: list[str], seed: int) -> WiringFaults:
    """The faults asked for, on inputs of ``wiring`` drawn from ``seed``."""
    used = [bit for bit, _, _ in wiring.entries()]
    chosen = random.Random(seed).sample(used, 2 * len(kinds))
    dead, stuck, crossed = set(), set(), []
    for index, kind in enumerate(kinds):
        first, second = chosen[2 * index], chosen[2 * index + 1]
        if kind == "dead":
            dead.add(first)
        elif kind == "stuck":
            stuck.add(first)
        else:
            crossed.append((first, second))
    return WiringFaults(frozenset(dead), frozenset(stuck), tuple(crossed))


def _refusal(config: Config, template: Geometry, args: argparse.Namespace) -> str | None:
    """What is wrong with how the command was called, if anything."""
    refusals = (
        (not args.config, "give the config file to write the map into: --config FILE"),
        (
            args.auto != (args.sim_wiring_seed is not None),
            "--auto and --sim-wiring-seed go together (no hands reach a simulated board)",
        ),
        (
            bool(args.sim_fault) and args.sim_wiring_seed is None,
            "--sim-fault needs --sim-wiring-seed",
        ),
        (args.sim_spare < 0, f"--sim-spare is {args.sim_spare}, expected 0 or more"),
        (
            args.sim_wiring_seed is None and config.sensors.backend == "sim",
            'the config\'s sensors backend is "sim": calibrate a real board (gpio or serial), '
            "or a simulated one with --sim-wiring-seed N --auto",
        ),
        (
            args.bits is not None and args.bits < template.nbits,
            f"--bits {args.bits} is fewer than the {template.nbits} switches to learn",
        ),
    )
    return next((why for wrong, why in refusals if wrong), None)


def calibrate(config: Config, args: argparse.Namespace) -> int:
    """The ``calibrate`` subcommand."""
    template = Geometry.default(
        point_slots=config.sensors.point_slots,
        bar_slots=config.sensors.bar_slots,
        tray_slots=config.sensors.tray_slots,
    )
    refusal = _refusal(config, template, args)
    if refusal is not None:
        print(f"bgpi calibrate: {refusal}", file=sys.stderr)
        return USAGE
    path = Path(args.config)
    with ExitStack() as stack:
        if args.sim_wiring_seed is not None:
            board, builder, pixels = _simulated(config, template, args)
        else:
            board, builder, pixels = _hardware(config, args.bits or config.geometry.nbits, stack)
        if pixels is not None:
            stack.callback(pixels.close)
        wizard = Wizard(
            path, template, board, builder, _say, pixels, config.ledmap, timeout=args.timeout
        )
        try:
            return wizard.run(restart=args.restart)
        except KeyboardInterrupt:
            print(
                f"\ninterrupted: {path} is unchanged; what was learned is kept in "
                f"{partial_path(path)} (run bgpi calibrate again to go on)",
                file=sys.stderr,
            )
            return 1


def _simulated(
    config: Config, template: Geometry, args: argparse.Namespace
) -> tuple[Board, Builder, Pixels | None]:
    seed = args.sim_wiring_seed
    wiring = scrambled_geometry(
        seed,
        spare=args.sim_spare,
        point_slots=template.point_slots,
        bar_slots=template.bar_slots,
        tray_slots=template.tray_slots,
    )
    board = SimBoard(wiring)
    board.faults = simulated_faults(wiring, args.sim_fault, seed)
    return SimChain(board), SimBuilder(board, wiring, _say), SimPixels(config.ledmap.length)


def _hardware(config: Config, nbits: int, stack: ExitStack) -> tuple[Board, Builder, Pixels | None]:
    settings = backend_settings(config)
    chosen = backend(Kind.SENSORS, config.sensors.backend)
    sensors = chosen.load()(nbits, **chosen.options(settings))
    stack.callback(sensors.close)
    pixels_backend = backend(Kind.PIXELS, config.leds.backend)
    try:
        pixels: Pixels | None = open_pixels(
            config.leds.backend, config.ledmap.length, **pixels_backend.options(settings)
        )
    except BackendUnavailableError as exc:
        # The LEDs only point at the spot; the terminal says it too, so go on without them.
        _say(f"the LEDs cannot be used ({exc}): going on with the terminal's words alone")
        pixels = None
    return ChainBoard(sensors), Terminal(_say), pixels
