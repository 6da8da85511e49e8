"""Scale-out on Ray: per-agent learner and rollout-engine actors, sandbox actors (docs/distributed.md).

`RayPlacement(config)` is what the Trainer uses when `dist.backend=ray`. Importing this package
does not import Ray; building a placement does (and raises UserError when Ray is missing).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mars2.cluster.placement import RayPlacement

_EXPORTS = {"RayPlacement": "mars2.cluster.placement"}
__all__ = ["RayPlacement"]


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'mars2.cluster' has no attribute {name!r}")
