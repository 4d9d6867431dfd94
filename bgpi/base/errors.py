"""The root of bgpi's errors.

Every error bgpi raises on purpose is a :class:`BgpiError`, and also the built-in it refines
(as gpiozero's ``BadPinFactory(GPIOZeroError, ImportError)``): a caller catches the whole
family with ``except BgpiError``, or the kind of failure with the built-in
(``except ValueError`` for bad input, ``OSError`` for a link, ``TimeoutError`` for silence).
Each package keeps its own errors beside its code (``rules/errors.py``, ``hal/errors.py``...),
all under this one root.
"""

from __future__ import annotations


class BgpiError(Exception):
    """Something bgpi refused or could not do; its message says what, and where."""
