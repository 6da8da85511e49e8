"""Importing a file of scripts/ as a module in a test (scripts/ is not a package on sys.path)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"


def script_module(name: str) -> Iterator[ModuleType]:
    """Yield scripts/NAME.py imported, with scripts/ on sys.path only meanwhile (a fixture body:
    `yield from script_module("power")`)."""
    sys.path.insert(0, str(SCRIPTS))
    try:
        yield importlib.import_module(name)
    finally:
        sys.path.remove(str(SCRIPTS))
