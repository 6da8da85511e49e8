"""The package version, in the bottom layer so that any module may read it."""

from __future__ import annotations

__version__ = "0.1.0"
