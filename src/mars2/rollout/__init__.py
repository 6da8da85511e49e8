"""Rollout: grow many search trees at once with batched generation and sandboxed scoring."""

from mars2.rollout.orchestrator import Orchestrator, RolloutStats, TreeResult

__all__ = ["Orchestrator", "RolloutStats", "TreeResult"]
