"""Atomic checkpoints: every agent's weights (or adapters), optimizer, scheduler, RNG states,
data cursor and step, in one file written to a temp name, fsynced and renamed.

A run killed at any moment leaves either the previous checkpoint or the new one, never half a file.
`checkpoints/latest` names the newest complete checkpoint; older ones beyond `keep` are removed.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import numpy as np
import torch

from mars2.errors import UserError


def _atomic_write(path: Path, write: Any) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "wb") as handle:
        write(handle)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def rng_state() -> dict[str, Any]:
    return {
        "python": random.getstate(),
        "numpy": np.random.get_state(),
        "torch": torch.get_rng_state(),
    }


def set_rng_state(state: dict[str, Any]) -> None:
    random.setstate(state["python"])
    np.random.set_state(state["numpy"])
    torch.set_rng_state(state["torch"])


def save(run_dir: Path, step: int, state: dict[str, Any], keep: int = 2) -> Path:
    """Write checkpoint `step` atomically and point `latest` at it; keep the newest `keep`."""
    folder = run_dir / "checkpoints"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"step_{step:06d}.pt"
    _atomic_write(path, lambda handle: torch.save(state, handle))
    _atomic_write(folder / "latest", lambda handle: handle.write(path.name.encode()))
    for old in sorted(folder.glob("step_*.pt"))[:-keep]:
        old.unlink()
    return path


def latest(run_dir: Path) -> Path | None:
    pointer = run_dir / "checkpoints" / "latest"
    if not pointer.is_file():
        return None
    path = pointer.parent / pointer.read_text().strip()
    return path if path.is_file() else None


def load(path: Path) -> dict[str, Any]:
    try:
        state: dict[str, Any] = torch.load(path, map_location="cpu", weights_only=False)
    except (OSError, RuntimeError, EOFError) as err:
        raise UserError(f"cannot read checkpoint {path}: {err}") from None
    return state
