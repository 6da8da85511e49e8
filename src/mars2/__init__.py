"""mars2: multi-agent tree search and reinforcement learning for code generation (MARS²).

The public Python API (docs/api.md): `load_config`, `search`, `train`, `evaluate`, `budget`, and the
`register_*` functions of the extension registries. Importing mars2 is cheap: the API module
(and torch behind it) loads on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from mars2.version import __version__

if TYPE_CHECKING:
    from mars2.api import (
        agents_for,
        budget,
        evaluate,
        load_config,
        register_aggregation,
        register_algorithm,
        register_backend,
        register_kl_estimator,
        register_loss,
        register_problem_set,
        register_reward,
        search,
        train,
    )

__all__ = [
    "__version__",
    "agents_for",
    "budget",
    "evaluate",
    "load_config",
    "register_aggregation",
    "register_algorithm",
    "register_backend",
    "register_kl_estimator",
    "register_loss",
    "register_problem_set",
    "register_reward",
    "search",
    "train",
]


def __getattr__(name: str) -> Any:
    if name in __all__ and name != "__version__":
        return getattr(importlib.import_module("mars2.api"), name)
    raise AttributeError(f"module 'mars2' has no attribute {name!r}")
