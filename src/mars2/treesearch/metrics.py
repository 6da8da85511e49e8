"""Statistics of finished trees, each rule written once: the Pass@1(MCTS) pick, the fresh
attempts behind pass@1 and the unbiased pass@k, Pass@N, tree shape and per-agent figures, and
how the nodes were spent (fresh attempts, refinements of failed programs, copies of the parent,
nodes below a parent that already passes its public tests).

Everything works on plain node records (`NodeRecord`, the lines of trees/*.jsonl), so a tree
just searched (`TreeResult.records`) and a tree read back from a file give the same numbers.
Search (`mars2 search`), evaluation, training summaries, calibration and the report all count
through this module. A node's verdict is `passed`: it passes every test, public and hidden; its
`score` is the public fraction that steers the search and the pick.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import fmean
from typing import Any

from mars2.registry import ALGORITHMS
from mars2.types import NodeRecord


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k from n samples of which c pass: 1 - C(n-c, k) / C(n, k) (c/n for k=1, up
    to rounding)."""
    if not 0 <= c <= n or not 1 <= k <= n:
        raise ValueError(f"pass_at_k needs 0 <= c <= n and 1 <= k <= n, got n={n} c={c} k={k}")
    if n - c < k:
        return 1.0
    miss = 1.0
    for i in range(n - c + 1, n + 1):  # C(n-c, k)/C(n, k) as a stable product
        miss *= 1.0 - k / i
    return 1.0 - miss


def best(nodes: Iterable[NodeRecord]) -> NodeRecord | None:
    """The Pass@1(MCTS) pick: the node with the best public score, ties to the later node (the
    higher node id, i.e. creation order). A skipped copy (`copy_of`) is no candidate of its own.
    None for a tree without nodes."""
    candidates = (n for n in nodes if n.copy_of is None)
    return max(candidates, key=lambda n: (n.score, n.node_id), default=None)


def independent_attempts(algo: str) -> bool:
    """Whether every fresh attempt of a tree grown by the algorithm `algo` is an unbiased sample
    (its `Algorithm.independent_attempts`; among the built-in ones only `sampling`)."""
    return bool(getattr(ALGORITHMS.get(algo), "independent_attempts", False))


def attempts(nodes: Iterable[NodeRecord], independent: bool = False) -> list[NodeRecord]:
    """The fresh attempts that pass@1 and pass@k count: unbiased samples of the agents at the
    generate prompt.

    The first node of every tree is one (the search has nothing to refine yet). Later children
    of the root count only when the search asks for them whatever the scores (`independent`,
    see `independent_attempts`: with `sampling` every node is one). Whether an adaptive search
    (AB-MCTS, best-first) asks for another fresh attempt depends on the earlier scores, so its
    later root children are not a fair sample and counting them would bias pass@1."""
    ordered = sorted(nodes, key=lambda n: n.node_id)
    return [n for n in ordered if n.parent_id is None] if independent else ordered[:1]


def by_tree(records: Iterable[NodeRecord]) -> list[list[NodeRecord]]:
    """The trees of a flat list of records (grouped by `tree_id`), in order of first appearance."""
    trees: dict[str, list[NodeRecord]] = {}
    for r in records:
        trees.setdefault(r.tree_id, []).append(r)
    return list(trees.values())


@dataclass(frozen=True)
class TreeStats:
    """What one finished tree is and achieved. Shape: `nodes`, `max_depth` (1 for a child of the
    root), `branching` (mean children of the nodes that have any, the root included). Outcome:
    `attempts` / `attempts_passed` (the fresh attempts of `attempts()` and how many pass),
    `pick` (the Pass@1(MCTS) node of `best()`), `any_passed` (Pass@N), `refined` (a node at
    depth >= 2), `first_failed` (the first node fails), `public_only_pass` (nodes that pass
    every public test but fail a hidden one: what gaming the public tests looks like)."""

    nodes: int
    max_depth: int
    branching: float
    attempts: int
    attempts_passed: int
    pick: NodeRecord | None
    any_passed: bool
    refined: bool
    first_failed: bool
    public_only_pass: int

    @property
    def mcts_passed(self) -> bool:
        """Pass@1(MCTS) of this tree: its pick passes."""
        return self.pick is not None and self.pick.passed

    @property
    def pass_at_1(self) -> float:
        """The tree's pass@1: the fraction of its fresh attempts that pass (0.0 without nodes)."""
        return self.attempts_passed / self.attempts if self.attempts else 0.0


def tree_stats(nodes: Sequence[NodeRecord], independent: bool = False) -> TreeStats:
    """Shape and outcome of one tree (`independent`: see `attempts`)."""
    fanout: dict[int | None, int] = {}
    for n in nodes:
        fanout[n.parent_id] = fanout.get(n.parent_id, 0) + 1
    fresh = attempts(nodes, independent)
    first = min(nodes, key=lambda n: n.node_id, default=None)
    return TreeStats(
        nodes=len(nodes),
        max_depth=max((n.depth for n in nodes), default=0),
        branching=fmean(fanout.values()) if fanout else 0.0,
        attempts=len(fresh),
        attempts_passed=sum(n.passed for n in fresh),
        pick=best(nodes),
        any_passed=any(n.passed for n in nodes),
        refined=any(n.depth >= 2 for n in nodes),
        first_failed=first is not None and not first.passed,
        public_only_pass=sum(n.public_only_pass for n in nodes),
    )


@dataclass(frozen=True)
class AgentStats:
    """What one agent wrote across trees. `share`: of all nodes; `passed`: its nodes that pass;
    `wins`: trees whose Pass@1(MCTS) pick it wrote; `solved`: trees where it wrote a passing
    node; `refinements`: its nodes that refine another node, `refine_gain` their mean score gain
    over the parent. Means are None when there is nothing to average."""

    agent_id: int
    nodes: int
    share: float
    mean_score: float | None
    passed: int
    wins: int
    solved: int
    refinements: int
    refine_gain: float | None
    mean_response_len: float | None

    @property
    def pass_rate(self) -> float | None:
        """The fraction of its nodes that pass."""
        return self.passed / self.nodes if self.nodes else None

    def to_json(self) -> dict[str, Any]:
        """The per-agent entry of metrics.json."""
        return {name: getattr(self, name) for name in AGENT_JSON}


# the fields of a per-agent entry of metrics.json, in order
AGENT_JSON = ("nodes", "share", "mean_score", "wins", "passed")


def agent_stats(
    trees: Sequence[Sequence[NodeRecord]], agent_ids: Iterable[int]
) -> list[AgentStats]:
    """One entry per agent id in `agent_ids` (an agent with no nodes gets zeros and no means)."""
    total = sum(len(t) for t in trees)
    winners = [pick.agent_id for t in trees if (pick := best(t)) is not None]
    out = []
    for agent_id in agent_ids:
        mine = [n for t in trees for n in t if n.agent_id == agent_id]
        gains = []
        for tree in trees:
            score = {n.node_id: n.score for n in tree}
            gains += [
                n.score - score[n.parent_id]
                for n in tree
                if n.agent_id == agent_id and n.parent_id is not None
            ]
        out.append(
            AgentStats(
                agent_id=agent_id,
                nodes=len(mine),
                share=len(mine) / total if total else 0.0,
                mean_score=_mean([n.score for n in mine]),
                passed=sum(n.passed for n in mine),
                wins=winners.count(agent_id),
                solved=sum(any(n.passed and n.agent_id == agent_id for n in t) for t in trees),
                refinements=len(gains),
                refine_gain=_mean(gains),
                mean_response_len=_mean([float(n.response_len) for n in mine]),
            )
        )
    return out


@dataclass(frozen=True)
class SearchSummary:
    """Means over trees (0.0 without trees; a tree without nodes counts as failed): `pass_at_1` (the fraction of each
    tree's fresh attempts that pass, `attempts`), `pass_at_1_mcts` (the pick passes), `pass_at_n`
    (some node passes), shape, the picks' public score and per-agent totals."""

    trees: int
    pass_at_1: float
    pass_at_1_mcts: float
    pass_at_n: float
    mean_nodes: float
    mean_max_depth: float
    mean_branching: float
    mean_best_score: float | None
    agents: list[AgentStats]


def summarize(
    trees: Sequence[Sequence[NodeRecord]],
    agent_ids: Iterable[int] | None = None,
    independent: bool = False,
) -> SearchSummary:
    """Pass rates, shape and per-agent statistics of finished trees. `agent_ids`: whose
    statistics (default: every agent that wrote a node); `independent`: see `attempts`."""
    stats = [tree_stats(t, independent) for t in trees]
    if agent_ids is None:
        agent_ids = sorted({n.agent_id for t in trees for n in t})
    picks = [s.pick for s in stats if s.pick is not None]
    return SearchSummary(
        trees=len(stats),
        pass_at_1=_mean_or_0([s.pass_at_1 for s in stats]),
        pass_at_1_mcts=_mean_or_0([float(s.mcts_passed) for s in stats]),
        pass_at_n=_mean_or_0([float(s.any_passed) for s in stats]),
        mean_nodes=_mean_or_0([float(s.nodes) for s in stats]),
        mean_max_depth=_mean_or_0([float(s.max_depth) for s in stats]),
        mean_branching=_mean_or_0([s.branching for s in stats]),
        mean_best_score=_mean([p.score for p in picks]),
        agents=agent_stats(trees, agent_ids),
    )


def program_key(code: str) -> str:
    """A program up to layout, the one rule for "the same program": every line stripped, blank
    lines dropped (so two samples that differ only in indentation width or spacing between
    blocks count as one program)."""
    return "\n".join(line.strip() for line in code.splitlines() if line.strip())


def first_nodes(nodes: Iterable[NodeRecord], n: int) -> list[NodeRecord]:
    """The first `n` nodes in creation order (node id): the tree as it stood after `n` nodes
    (every parent comes before its children), or the first `n` of independent attempts."""
    if n < 1:
        raise ValueError(f"first_nodes needs n >= 1, got {n}")
    return sorted(nodes, key=lambda r: r.node_id)[:n]


@dataclass(frozen=True)
class NodeCounts:
    """How the nodes of finished trees were spent; counts add up over trees and problems.
    `fresh`: children of the root (`fresh_passed` of them pass); `refinements`: the other
    nodes, `copies` of them a program equal to their parent's (`program_key`); `after_fail`:
    refinements whose parent fails some test (public or hidden), `after_fail_passed` of them
    pass; `below_solved`: nodes whose parent passes every public test (score 1.0)."""

    nodes: int = 0
    fresh: int = 0
    fresh_passed: int = 0
    refinements: int = 0
    copies: int = 0
    after_fail: int = 0
    after_fail_passed: int = 0
    below_solved: int = 0

    def __add__(self, other: NodeCounts) -> NodeCounts:
        return NodeCounts(*(getattr(self, f) + getattr(other, f) for f in NODE_COUNT_FIELDS))

    def to_json(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in NODE_COUNT_FIELDS}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> NodeCounts:
        return cls(**{name: int(data[name]) for name in NODE_COUNT_FIELDS})


NODE_COUNT_FIELDS = tuple(NodeCounts.__dataclass_fields__)

# the node rates: name -> (numerator, denominator) among the NodeCounts fields
NODE_RATES = {
    "refine_pass_after_fail": ("after_fail_passed", "after_fail"),
    "fresh_pass": ("fresh_passed", "fresh"),
    "copy_rate": ("copies", "refinements"),
    "below_solved_share": ("below_solved", "nodes"),
}


def node_rate(counts: NodeCounts, name: str) -> float | None:
    """The rate `name` of NODE_RATES (numerator / denominator), None when nothing is counted:
    `refine_pass_after_fail` P(a refinement passes | its parent failed), `fresh_pass`
    P(a fresh attempt passes), `copy_rate` (refinements that copy their parent),
    `below_solved_share` (nodes spent below a parent that passes every public test)."""
    top, bottom = NODE_RATES[name]
    den = getattr(counts, bottom)
    return getattr(counts, top) / den if den else None


def node_counts(tree: Sequence[NodeRecord], agent_id: int | None = None) -> NodeCounts:
    """The NodeCounts of one tree (node ids are per tree), of the nodes that `agent_id` wrote
    when given (a refinement counts for its writer, whoever wrote the parent)."""
    by_id = {n.node_id: n for n in tree}
    counts = NodeCounts()
    for node in tree:
        if agent_id is not None and node.agent_id != agent_id:
            continue
        if node.parent_id is None:
            one = NodeCounts(nodes=1, fresh=1, fresh_passed=int(node.passed))
        else:
            parent = by_id.get(node.parent_id)
            if parent is None:
                raise ValueError(
                    f"tree {node.tree_id!r}: node {node.node_id} refines node "
                    f"{node.parent_id}, which is not in the tree"
                )
            failed = not parent.passed
            one = NodeCounts(
                nodes=1,
                refinements=1,
                copies=int(program_key(node.code) == program_key(parent.code)),
                after_fail=int(failed),
                after_fail_passed=int(failed and node.passed),
                below_solved=int(parent.score >= 1.0),
            )
        counts += one
    return counts


def node_counts_by_agent(tree: Sequence[NodeRecord]) -> dict[int, NodeCounts]:
    """`node_counts` of each agent that wrote a node of the tree, by agent id."""
    return {a: node_counts(tree, a) for a in sorted({n.agent_id for n in tree})}


def _mean(values: Sequence[float]) -> float | None:
    return fmean(values) if values else None


def _mean_or_0(values: Sequence[float]) -> float:
    return fmean(values) if values else 0.0
