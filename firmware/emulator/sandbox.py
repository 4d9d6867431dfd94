"""Loads the firmware's modules on CPython as the Pico would: each boot gets fresh modules, and
``import machine`` (``time``, ``sys``, ...) inside them finds the fakes given, not CPython's.

Nothing is put in ``sys.modules``, so two emulated scanners in one process share nothing, and
the firmware's module names (``board``, ``link``, ...) never shadow anything else.
"""

from __future__ import annotations

import builtins
import types
from pathlib import Path
from typing import Any

FIRMWARE = Path(__file__).resolve().parents[1]
ROOT = FIRMWARE.parent
# The files copied onto the Pico (firmware/README.md), by the name they have there.
SOURCES: dict[str, Path] = {
    "board": FIRMWARE / "board.py",
    "chain": FIRMWARE / "chain.py",
    "debounce": FIRMWARE / "debounce.py",
    "link": FIRMWARE / "link.py",
    "scanner": FIRMWARE / "scanner.py",
    "pico": FIRMWARE / "pico.py",
    "main": FIRMWARE / "main.py",
    "scanproto": ROOT / "bgpi" / "hal" / "scanproto.py",
}


class Sandbox:
    """Firmware modules from ``sources`` seeing ``fakes`` (module name -> object) as their
    imports; any other import is CPython's own (``struct``, ``select``)."""

    def __init__(self, fakes: dict[str, Any], sources: dict[str, Path] | None = None) -> None:
        self.modules: dict[str, Any] = dict(fakes)
        self.sources = SOURCES if sources is None else sources
        self._builtins = dict(vars(builtins))
        self._builtins["__import__"] = self._import

    def load(self, name: str) -> Any:
        """The firmware module ``name``, run on first use (``main`` runs the scanner)."""
        if name in self.modules:
            return self.modules[name]
        path = self.sources[name]
        module = types.ModuleType(name)
        module.__file__ = str(path)
        module.__dict__["__builtins__"] = self._builtins
        self.modules[name] = module
        code = compile(path.read_text(), str(path), "exec")
        try:
            exec(code, module.__dict__)
        except BaseException:
            del self.modules[name]
            raise
        return module

    def _import(
        self,
        name: str,
        globals: Any = None,
        locals: Any = None,
        fromlist: Any = (),
        level: int = 0,
    ) -> Any:
        if level == 0 and (name in self.modules or name in self.sources):
            return self.load(name)
        return builtins.__import__(name, globals, locals, fromlist, level)
