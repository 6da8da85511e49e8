"""Signs of a collapsing policy in finished trees: its sampling entropy, its response length and
how many distinct programs a tree holds (the pass rates and the rest live in
`mars2.treesearch.metrics`)."""

from __future__ import annotations

from collections.abc import Sequence

from mars2.rollout.orchestrator import TreeResult
from mars2.treesearch.metrics import by_tree, program_key
from mars2.types import NodeRecord

__all__ = ["distinct_programs", "policy_figures", "program_key"]


def distinct_programs(records: Sequence[NodeRecord]) -> float:
    """Mean over trees of two or more nodes of the number of distinct programs among a tree's
    nodes (an empty or missing code block is a program too); 0.0 when there is no such tree. A
    policy collapsing onto one stub drives it to 1. Trees of one node (an evaluation's fresh
    attempts) are left out: their one program says nothing of diversity, and counting them
    would make the figure depend on how many fresh attempts the protocol asks for."""
    counts = [
        len({program_key(r.code or "") for r in tree}) for tree in by_tree(records) if len(tree) > 1
    ]
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
