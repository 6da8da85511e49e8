"""Where mars2 keeps files it derives once per machine (converted models)."""

from __future__ import annotations

from pathlib import Path


def cache_dir() -> Path:
    """`~/.cache/mars2`: converted model folders live under `models/`."""
    return Path.home() / ".cache" / "mars2"
