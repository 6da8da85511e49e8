"""Search metrics of finished trees in the `metrics.json` layout, and the signs of a collapsing
policy: its sampling entropy, response length and how many distinct programs a tree holds."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mars2.rollout.orchestrator import TreeResult
from mars2.treesearch.metrics import summarize as summarize_states
from mars2.types import NodeRecord


def summarize(results: Sequence[TreeResult], agent_names: Sequence[str]) -> dict[str, Any]:
    """`pass@1`, `pass@1_mcts`, `pass@n`, tree shape, and per-agent stats keyed by agent name."""
    if not results:
        return {"n_problems": 0, "pass@1": 0.0, "pass@1_mcts": 0.0, "pass@n": 0.0, "agents": {}}
    summary = summarize_states([r.state for r in results]).to_json()
    summary["n_problems"] = summary.pop("trees")
    summary["nodes"] = sum(len(r.records) for r in results)
    summary["agents"] = {agent_names[i]: a for i, a in enumerate(summary["agents"])}
    return summary


def program_key(code: str) -> str:
    """A program up to layout: every line stripped, blank lines dropped (so two samples that
    differ only in indentation width or spacing between blocks count as one program)."""
    return "\n".join(line.strip() for line in code.splitlines() if line.strip())


def distinct_programs(records: Sequence[NodeRecord]) -> float:
    """Mean over trees of two or more nodes of the number of distinct programs among a tree's
    nodes (an empty or missing code block is a program too); 0.0 when there is no such tree. A
    policy collapsing onto one stub drives it to 1. Trees of one node (an evaluation's fresh
    attempts) are left out: their one program says nothing of diversity, and counting them
    would make the figure depend on how many fresh attempts the protocol asks for."""
    trees: dict[str, list[str]] = {}
    for r in records:
        trees.setdefault(r.tree_id, []).append(program_key(r.code or ""))
    counts = [len(set(programs)) for programs in trees.values() if len(programs) > 1]
    return sum(counts) / len(counts) if counts else 0.0


def policy_figures(results: Sequence[TreeResult], agent_id: int) -> dict[str, float]:
    """Collapse signs of one agent over finished trees: `entropy`, the mean of -log pi over the
    tokens it sampled (a Monte-Carlo estimate of its per-token entropy at the sampling
    temperature; log-probs come from the engine), and `response_len`, its mean response tokens.
    Empty when the agent wrote nothing (or, for entropy, returned no log-probs)."""
    completions = [
        node.payload.completion
        for result in results
        for node in result.state.nodes.values()
        if node.payload is not None
        and node.payload.completion is not None
        and node.agent_id == agent_id
    ]
    out: dict[str, float] = {}
    if completions:
        out["response_len"] = sum(c.response_len for c in completions) / len(completions)
    logprobs = [lp for c in completions for lp in c.logprobs]
    if logprobs:
        out["entropy"] = -sum(logprobs) / len(logprobs)
    return out
