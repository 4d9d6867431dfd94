"""One error root: every error bgpi raises on purpose is a BgpiError and also the built-in it
refines (as gpiozero's ``BadPinFactory(GPIOZeroError, ImportError)``), so a caller catches
the whole family or the kind of failure."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import bgpi
from bgpi.base.errors import BgpiError

# The built-ins an error may refine: what a caller outside bgpi would catch.
BUILT_INS = (ValueError, LookupError, OSError, RuntimeError, TimeoutError, ImportError)


def _error_classes() -> list[type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for module in pkgutil.walk_packages(bgpi.__path__, "bgpi."):
        if module.name.startswith("bgpi.__main__") or module.name.endswith(".__main__"):
            continue
        loaded = importlib.import_module(module.name)
        for _name, value in inspect.getmembers(loaded, inspect.isclass):
            if issubclass(value, BaseException) and value.__module__ == module.name:
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return list(found.values())


# The scanner codec runs on the Pico too, where it may import nothing of bgpi: its error stays
# a plain ValueError, and the serial backend catches and counts it (it never leaves hal).
STANDS_ALONE = frozenset({"bgpi.hal.scanproto.ProtocolError"})


def test_every_error_of_bgpi_has_the_one_root_and_a_built_in() -> None:
    errors = [e for e in _error_classes() if f"{e.__module__}.{e.__qualname__}" not in STANDS_ALONE]
    assert len(errors) > 40  # the walk saw the real tree
    rootless = [e.__qualname__ for e in errors if not issubclass(e, BgpiError)]
    assert not rootless, f"not a BgpiError: {rootless}"
    raised = _raised_by_name()
    bare = [
        e.__qualname__
        for e in errors
        if not issubclass(e, BUILT_INS)
        # A family's root that is never raised itself (BgpiError, HalError) names no kind.
        and (e.__name__ in raised or not e.__subclasses__())
    ]
    assert not bare, f"refines no built-in: {bare}"


def _raised_by_name() -> set[str]:
    """The names of the classes bgpi's code raises directly (``raise Name(``)."""
    root = Path(bgpi.__file__).parent
    return {
        name
        for path in root.rglob("*.py")
        for name in re.findall(r"raise (\w+)\(", path.read_text())
    }


def test_each_error_says_in_one_line_what_it_is() -> None:
    undocumented = [e.__qualname__ for e in _error_classes() if not (e.__doc__ or "").strip()]
    assert not undocumented, undocumented
