"""Search metrics (docs/search.md, "Metrics"): unbiased pass@k, Pass@1(MCTS), Pass@N, per-agent and per-tree
statistics over finished trees.

A node's hidden-test verdict is `node.payload.passed`; a node without one counts as not passed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from mars2.treesearch.tree import ROOT, Node, TreeState


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k from n samples of which c pass: 1 - C(n-c, k) / C(n, k)."""
    if not 0 <= c <= n or not 1 <= k <= n:
        raise ValueError(f"pass_at_k needs 0 <= c <= n and 1 <= k <= n, got n={n} c={c} k={k}")
    if n - c < k:
        return 1.0
    miss = 1.0
    for i in range(n - c + 1, n + 1):  # C(n-c, k)/C(n, k) as a stable product
        miss *= 1.0 - k / i
    return 1.0 - miss


def passed(node: Node) -> bool:
    return node.payload is not None and bool(node.payload.passed)


def best_node(state: TreeState) -> Node | None:
    """The node with the best public score; ties go to the later node (creation order)."""
    best: Node | None = None
    for node in state.nodes.values():
        if node.score is None:
            continue
        if best is None or best.score is None or node.score >= best.score:
            best = node
    return best


@dataclass
class AgentStats:
    """One agent in one tree or summed over trees. `wins`: trees whose best node it wrote."""

    nodes: int = 0
    share: float = 0.0
    mean_score: float | None = None
    wins: int = 0
    passed: int = 0


@dataclass
class TreeStats:
    """Shape of one tree. `branching`: mean number of children of nodes that have any (root
    included); `root_children`: fresh attempts."""

    nodes: int
    max_depth: int
    mean_depth: float
    branching: float
    root_children: int
    agents: list[AgentStats] = field(default_factory=list)


def tree_stats(state: TreeState) -> TreeStats:
    """Depth, branching and per-agent share / mean score / wins of one tree."""
    nodes = list(state.nodes.values())
    fanouts = [len(state.children.get(i, [])) for i in [ROOT, *state.nodes]]
    inner = [f for f in fanouts if f > 0]
    best = best_node(state)
    agents = []
    for agent in range(state.n_agents):
        mine = [n for n in nodes if n.agent_id == agent]
        scores = [n.score for n in mine if n.score is not None]
        agents.append(
            AgentStats(
                nodes=len(mine),
                share=len(mine) / len(nodes) if nodes else 0.0,
                mean_score=sum(scores) / len(scores) if scores else None,
                wins=int(best is not None and best.agent_id == agent),
                passed=sum(passed(n) for n in mine),
            )
        )
    return TreeStats(
        nodes=len(nodes),
        max_depth=max((n.depth for n in nodes), default=0),
        mean_depth=sum(n.depth for n in nodes) / len(nodes) if nodes else 0.0,
        branching=sum(inner) / len(inner) if inner else 0.0,
        root_children=len(state.children[ROOT]),
        agents=agents,
    )


@dataclass
class SearchSummary:
    """Aggregates over trees (one per problem). `pass_at_1`: the fraction of each tree's fresh
    attempts (children of the root, samples of the generate prompt) that pass, i.e. the unbiased
    pass@1 estimate c/n, averaged over trees; `pass_at_1_mcts`: the best-public-score node passes; `pass_at_n`: any
    node passes."""

    trees: int
    pass_at_1: float
    pass_at_1_mcts: float
    pass_at_n: float
    mean_nodes: float
    mean_max_depth: float
    mean_branching: float
    agents: list[AgentStats]

    def to_json(self) -> dict[str, Any]:
        """The `metrics.json` keys (docs/search.md)."""
        return {
            "pass@1": self.pass_at_1,
            "pass@1_mcts": self.pass_at_1_mcts,
            "pass@n": self.pass_at_n,
            "trees": self.trees,
            "mean_nodes": self.mean_nodes,
            "mean_max_depth": self.mean_max_depth,
            "mean_branching": self.mean_branching,
            "agents": [asdict(a) for a in self.agents],
        }


def summarize(states: Sequence[TreeState]) -> SearchSummary:
    """Pass@1, Pass@1(MCTS), Pass@N and per-agent totals over trees (empty trees count as
    failures)."""
    if not states:
        raise ValueError("summarize needs at least one tree")
    n_agents = max(s.n_agents for s in states)
    totals = [AgentStats() for _ in range(n_agents)]
    score_sums = [0.0] * n_agents
    p1 = mcts = any_pass = 0.0
    stats = [tree_stats(s) for s in states]
    for state, tree in zip(states, stats, strict=True):
        nodes = list(state.nodes.values())
        n_pass = sum(passed(n) for n in nodes)
        fresh = [n for n in nodes if n.parent_id is None]
        p1 += sum(passed(n) for n in fresh) / len(fresh) if fresh else 0.0
        best = best_node(state)
        mcts += best is not None and passed(best)
        any_pass += n_pass > 0
        for agent, one in enumerate(tree.agents):
            totals[agent].nodes += one.nodes
            totals[agent].wins += one.wins
            totals[agent].passed += one.passed
            score_sums[agent] += sum(
                n.score for n in nodes if n.agent_id == agent and n.score is not None
            )
    all_nodes = sum(t.nodes for t in totals)
    for agent, total in enumerate(totals):
        total.share = total.nodes / all_nodes if all_nodes else 0.0
        total.mean_score = score_sums[agent] / total.nodes if total.nodes else None
    k = len(states)
    return SearchSummary(
        trees=k,
        pass_at_1=p1 / k,
        pass_at_1_mcts=mcts / k,
        pass_at_n=any_pass / k,
        mean_nodes=sum(t.nodes for t in stats) / k,
        mean_max_depth=sum(t.max_depth for t in stats) / k,
        mean_branching=sum(t.branching for t in stats) / k,
        agents=totals,
    )
