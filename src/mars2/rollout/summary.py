"""Search metrics of finished trees in the `metrics.json` layout (design.md §8, §10)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mars2.rollout.orchestrator import TreeResult
from mars2.treesearch.metrics import summarize as summarize_states


def summarize(results: Sequence[TreeResult], agent_names: Sequence[str]) -> dict[str, Any]:
    """`pass@1`, `pass@1_mcts`, `pass@n`, tree shape, and per-agent stats keyed by agent name."""
    if not results:
        return {"n_problems": 0, "pass@1": 0.0, "pass@1_mcts": 0.0, "pass@n": 0.0, "agents": {}}
    summary = summarize_states([r.state for r in results]).to_json()
    summary["n_problems"] = summary.pop("trees")
    summary["nodes"] = sum(len(r.records) for r in results)
    summary["agents"] = {agent_names[i]: a for i, a in enumerate(summary["agents"])}
    return summary
