"""scripts/catalogues.py, imported by the tests that check the catalogues against the code."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[2]


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("catalogues", REPO / "scripts" / "catalogues.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["catalogues"] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module
