"""The ``bgpi`` command line: one module per group of commands, each adding its own.

Exit status: 0 done, 1 failed, 2 a usage or configuration error. Log lines go to stderr,
quiet unless ``-v``.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Sequence

from bgpi import __version__
from bgpi.base.i18n import AUTO, CHOICES, _, use
from bgpi.cli import builder, configuration, engine, journal, rules, service, simulated
from bgpi.cli.errors import FAILED, USAGE, CommandError, UsageError
from bgpi.hal.errors import one_line
from bgpi.journal.file import JournalError
from bgpi.service.config import ConfigError, load

__all__ = ["build_parser", "main"]

log = logging.getLogger("bgpi")

# In the order `bgpi --help` lists them: playing, the board itself, the journal, the rest.
_GROUPS = (service, simulated, builder, engine, journal, configuration, rules)


def _common(*, defaults: bool) -> argparse.ArgumentParser:
    """The options every command takes, before the command (``bgpi --language fi status``)
    or after it. After it they carry no defaults, so they set only what was given and never
    undo the same option given before the command."""
    common = argparse.ArgumentParser(add_help=False)
    none: object = None if defaults else argparse.SUPPRESS
    common.add_argument("--config", metavar="FILE", default=none, help="the TOML config file")
    common.add_argument("--state-dir", metavar="DIR", default=none, help="where the journal lives")
    common.add_argument(
        "--language",
        choices=CHOICES,
        default=none,
        help="the players' language (default: the config's [display] language, else the locale)",
    )
    common.add_argument(
        "-v", "--verbose", action="count", default=0 if defaults else argparse.SUPPRESS,
        help="more log lines",
    )  # fmt: skip
    return common


def build_parser() -> argparse.ArgumentParser:
    common = _common(defaults=False)
    parser = argparse.ArgumentParser(
        prog="bgpi",
        description="A wooden backgammon board that enforces the rules.",
        parents=[_common(defaults=True)],
    )
    parser.add_argument("--version", action="version", version=f"bgpi {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for group in _GROUPS:
        group.add_commands(commands, common)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    # The arguments' own errors (a port out of range) are told in the locale's language;
    # argparse's messages stay English.
    use(AUTO)
    args = build_parser().parse_args(argv)
    level = (logging.WARNING, logging.INFO, logging.DEBUG)[min(args.verbose, 2)]
    logging.basicConfig(level=level, format="bgpi: %(levelname)s: %(message)s")
    # A config error is told in the language the command line or the locale asks for; then
    # the config's own choice (or the command line's, over it) holds for the rest.
    if args.language:
        use(args.language)
    try:
        config = load(getattr(args, "file", None) or args.config)
    except ConfigError as exc:
        print(f"bgpi: {exc}", file=sys.stderr)
        return USAGE
    use(args.language or config.display.language)
    try:
        code: int = args.run(config, args)
    except BrokenPipeError:
        return _reader_gone()
    except UsageError as exc:
        print(f"bgpi {args.command}: {exc}", file=sys.stderr)
        return USAGE
    except (CommandError, JournalError, ValueError, LookupError, RuntimeError, OSError) as exc:
        print(f"bgpi {args.command}: {exc}", file=sys.stderr)
        return FAILED
    except Exception as exc:
        # Whatever escapes the commands' own errors is a bug; the user still gets one line,
        # and -vv logs the traceback for the report.
        log.debug("traceback", exc_info=True)
        error = _("internal error: {error}").format(error=one_line(exc))
        print(f"bgpi {args.command}: {error}", file=sys.stderr)
        return FAILED
    return code


def _reader_gone() -> int:
    """The reader of our output went away (``bgpi plays 31 | head``): not an error worth a
    message. stdout is pointed at /dev/null so the interpreter's own flush at exit is quiet."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return FAILED
