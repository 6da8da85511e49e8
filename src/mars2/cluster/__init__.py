"""Scale-out on Ray: per-agent learner and rollout-engine actors, sandbox actors (docs/distributed.md).

`make_placement(config)` builds what `config.cluster.backend` asks for: the one-process
`LocalPlacement` or a `RayPlacement` (learners, engines and sandbox workers in Ray actors).
Importing this package imports neither Ray nor the trainer; building a placement does (and
raises UserError when Ray is missing).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from mars2.errors import UserError

if TYPE_CHECKING:
    from mars2.cluster.placement import RayPlacement
    from mars2.config import Config
    from mars2.training.placement import Placement

_EXPORTS = {"RayPlacement": "mars2.cluster.placement"}
__all__ = ["RayPlacement", "make_placement"]


def make_placement(config: Config) -> Placement:
    """The placement `config.cluster.backend` asks for (`ray` needs the `ray` extra)."""
    if config.cluster.backend == "local":
        from mars2.training.placement import LocalPlacement

        return LocalPlacement(config)
    if config.cluster.backend == "ray":
        from mars2.cluster.placement import RayPlacement  # UserError when Ray is not installed

        placement: Placement = RayPlacement(config)
        return placement
    raise UserError(f"cluster.backend {config.cluster.backend!r}: use local or ray")


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'mars2.cluster' has no attribute {name!r}")
