"""Where mars2 keeps files it derives once per machine (converted models, cached evaluations)."""

from __future__ import annotations

import os
from pathlib import Path

CACHE_ENV = "MARS2_CACHE"


def cache_dir() -> Path:
    """`$MARS2_CACHE` when set (a shared disk on a cluster, a temporary folder in the tests),
    else `~/.cache/mars2`: converted models live under `models/`, evaluations under `evals/`."""
    override = os.environ.get(CACHE_ENV)
    return Path(override).expanduser() if override else Path.home() / ".cache" / "mars2"
