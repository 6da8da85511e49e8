"""Search metrics over finished trees (design.md §8): Pass@1, Pass@1(MCTS), Pass@N, per agent."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mars2.rollout.orchestrator import TreeResult
from mars2.search.metrics import best_node, pass_at_k


def summarize(results: Sequence[TreeResult], agent_names: Sequence[str]) -> dict[str, Any]:
    """`pass@1` (the unbiased estimate c/n over each tree's n fresh attempts, design.md §8),
    `pass@1_mcts` (the node with the best public
    score, ties to the later node, judged on hidden tests), `pass@n` (any node passes), and per
    agent: share of nodes, mean public score, hidden-test passes and wins (trees whose MCTS pick
    the agent wrote)."""
    n = len(results)
    agents = {
        name: {"nodes": 0, "share": 0.0, "mean_score": 0.0, "passes": 0, "wins": 0}
        for name in agent_names
    }
    pass1 = 0.0
    mcts = any_pass = 0
    total_nodes = 0
    depths: list[int] = []
    for result in results:
        nodes = list(result.state.nodes.values())
        if not nodes:
            continue
        c, n_roots = result.root_passes
        pass1 += pass_at_k(n_roots, c, 1) if n_roots else 0.0
        best = best_node(result.state)
        if best is not None and best.payload is not None and best.payload.passed:
            mcts += 1
        if best is not None:
            agents[agent_names[best.agent_id]]["wins"] += 1
        any_pass += any(node.payload is not None and node.payload.passed for node in nodes)
        depths.append(max(node.depth for node in nodes))
        for node in nodes:
            stats = agents[agent_names[node.agent_id]]
            stats["nodes"] += 1
            stats["mean_score"] += node.score or 0.0
            stats["passes"] += bool(node.payload and node.payload.passed)
            total_nodes += 1
    for stats in agents.values():
        if stats["nodes"]:
            stats["mean_score"] /= stats["nodes"]
            stats["share"] = stats["nodes"] / total_nodes
    return {
        "n_problems": n,
        "pass@1": pass1 / n if n else 0.0,
        "pass@1_mcts": mcts / n if n else 0.0,
        "pass@n": any_pass / n if n else 0.0,
        "nodes": total_nodes,
        "mean_depth": sum(depths) / len(depths) if depths else 0.0,
        "agents": agents,
    }
