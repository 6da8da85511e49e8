"""The equal-budget comparison as data: per-problem outcomes of independent sampling and of tree
searches at the same node budgets, their means with 95% intervals, the paired differences
against sampling, the node rates (how the trees spent their nodes), the budget.json record
and its plot (docs/search.md, "Equal-budget comparison"). No torch; growing the trees lives in
evaluation/budget_run.py.

An *arm* is one way to spend B nodes on a problem: `independent` (B fresh attempts, the first
B of one draw at the largest budget, so every budget is a prefix of the next) or a search
algorithm (one tree of B nodes). Per problem and budget: `pick` = the Pass@1(MCTS) pick
(`treesearch.metrics.best`) of the B nodes passes, `pass` = some node of them passes.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mars2.evaluation.stats import (
    LEVEL,
    RESAMPLES,
    Estimate,
    bootstrap_mean,
    bootstrap_ratio,
    bootstrap_ratio_difference,
    paired_difference,
)
from mars2.treesearch.metrics import (
    NODE_RATES,
    NodeCounts,
    best,
    by_tree,
    first_nodes,
    node_counts,
    node_counts_by_agent,
)
from mars2.types import NodeRecord

INDEPENDENT = "independent"  # the reference arm: fresh attempts, best of B by public score
VERSION = 1
BOOTSTRAP_SEED = 0
FIGURES = ("pick", "pass")


@dataclass(frozen=True)
class Outcome:
    """What one arm achieved on one problem at one budget: of its `trees` trees (one in a
    comparison; a problem's trees in a tree file), `picked` have a Pass@1(MCTS) pick that
    passes and `solved` a node that passes; how their nodes were spent (`counts`) overall and
    per agent id (`agents`)."""

    trees: int
    picked: int
    solved: int
    counts: NodeCounts
    agents: dict[int, NodeCounts] = field(default_factory=dict)

    def __add__(self, other: Outcome) -> Outcome:
        agents = dict(self.agents)
        for agent_id, counts in other.agents.items():
            agents[agent_id] = agents.get(agent_id, NodeCounts()) + counts
        return Outcome(
            self.trees + other.trees,
            self.picked + other.picked,
            self.solved + other.solved,
            self.counts + other.counts,
            dict(sorted(agents.items())),
        )

    def value(self, figure: str) -> float:
        """This problem's `pick` (share of trees whose pick passes) or `pass` (with a pass)."""
        return (self.picked if figure == "pick" else self.solved) / self.trees

    def to_json(self) -> dict[str, Any]:
        return {
            "trees": self.trees,
            "picked": self.picked,
            "solved": self.solved,
            "nodes": self.counts.to_json(),
            "agents": {str(a): c.to_json() for a, c in self.agents.items()},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Outcome:
        return cls(
            int(data["trees"]),
            int(data["picked"]),
            int(data["solved"]),
            NodeCounts.from_json(data["nodes"]),
            {int(a): NodeCounts.from_json(c) for a, c in data["agents"].items()},
        )


def outcome(tree: Sequence[NodeRecord]) -> Outcome:
    """One finished tree (or the first B independent attempts) as an Outcome."""
    if not tree:
        raise ValueError("an outcome needs at least one node")
    pick = best(tree)
    return Outcome(
        trees=1,
        picked=int(pick is not None and pick.passed),
        solved=int(any(n.passed for n in tree)),
        counts=node_counts(tree),
        agents=node_counts_by_agent(tree),
    )


def prefix_outcomes(attempts: Sequence[NodeRecord], budgets: Iterable[int]) -> dict[int, Outcome]:
    """The outcome of the first B nodes of `attempts` for each budget B (the independent arm:
    one draw at the largest budget, every smaller budget a prefix of it)."""
    return {b: outcome(first_nodes(attempts, b)) for b in budgets}


@dataclass(frozen=True)
class ProblemArms:
    """One problem's outcomes: arm -> budget -> Outcome."""

    problem_id: str
    arms: dict[str, dict[int, Outcome]]

    def to_json(self) -> dict[str, Any]:
        return {
            "problem_id": self.problem_id,
            "arms": {
                arm: {str(b): o.to_json() for b, o in by_budget.items()}
                for arm, by_budget in self.arms.items()
            },
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ProblemArms:
        return cls(
            str(data["problem_id"]),
            {
                arm: {int(b): Outcome.from_json(o) for b, o in by_budget.items()}
                for arm, by_budget in data["arms"].items()
            },
        )


def tree_file_arms(
    records: Iterable[NodeRecord], arm: str = "trees"
) -> tuple[list[ProblemArms], int]:
    """Finished trees read from files (trees/*.jsonl) as one arm: per problem the sum of its
    trees' outcomes, keyed by the budget = the most nodes of any tree. Returns (problems, budget)."""
    trees = by_tree(records)
    if not trees:
        raise ValueError("no node records")
    budget = max(len(t) for t in trees)
    per_problem: dict[str, Outcome] = {}
    for tree in trees:
        one = outcome(tree)
        pid = tree[0].problem_id
        per_problem[pid] = per_problem[pid] + one if pid in per_problem else one
    return [ProblemArms(pid, {arm: {budget: o}}) for pid, o in per_problem.items()], budget


def rates(
    outcomes: Sequence[Outcome],
    agent_id: int | None = None,
    resamples: int = RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
) -> dict[str, dict[str, Any]]:
    """Each node rate of NODE_RATES over the problems' outcomes (one per problem), of all nodes
    or of those `agent_id` wrote: the ratio of the summed counts with its cluster-bootstrap
    interval over problems, and the counts (`count` of `of`); and `refine_minus_fresh`, the
    difference of the first two rates with its cluster-bootstrap interval."""
    counts = [
        o.counts if agent_id is None else o.agents.get(agent_id, NodeCounts()) for o in outcomes
    ]
    out: dict[str, dict[str, Any]] = {}
    for name, (top, bottom) in NODE_RATES.items():
        tops = [getattr(c, top) for c in counts]
        bottoms = [getattr(c, bottom) for c in counts]
        estimate = bootstrap_ratio(tops, bottoms, resamples, seed)
        out[name] = {**_estimate(estimate), "count": sum(tops), "of": sum(bottoms)}
    fresh = ([c.fresh_passed for c in counts], [c.fresh for c in counts])
    after_fail = ([c.after_fail_passed for c in counts], [c.after_fail for c in counts])
    out[REFINE_MINUS_FRESH] = _estimate(
        bootstrap_ratio_difference(*fresh, *after_fail, resamples=resamples, seed=seed)
    )
    return out


# P(a refinement passes | its parent failed) - P(a fresh attempt passes), over the same trees
REFINE_MINUS_FRESH = "refine_minus_fresh"


def summarize(
    problems: Sequence[ProblemArms],
    budgets: Sequence[int],
    agent_names: Sequence[str],
    resamples: int = RESAMPLES,
) -> dict[str, Any]:
    """The headline object: per arm and budget, `pick` and `pass` (means over problems with
    percentile-bootstrap 95% intervals), for a search arm their paired differences against the
    independent arm at the same budget (`pick_vs_independent`, `pass_vs_independent`: B - A,
    paired bootstrap interval, sign-flip p), and the node rates overall (`nodes`) and per
    agent (`agents`, by name)."""
    arms = list(problems[0].arms) if problems else []
    out: dict[str, Any] = {"problems": len(problems), "budgets": list(budgets), "arms": {}}
    for arm in arms:
        entries: dict[str, Any] = {}
        for b in budgets:
            if b not in problems[0].arms[arm]:
                continue
            rows = [p.arms[arm][b] for p in problems]
            entry: dict[str, Any] = {}
            for figure in FIGURES:
                values = [o.value(figure) for o in rows]
                entry[figure] = _estimate(bootstrap_mean(values, resamples, BOOTSTRAP_SEED))
                if arm != INDEPENDENT and INDEPENDENT in problems[0].arms:
                    reference = [p.arms[INDEPENDENT][b].value(figure) for p in problems]
                    diff = paired_difference(reference, values, resamples, BOOTSTRAP_SEED)
                    entry[f"{figure}_vs_{INDEPENDENT}"] = _finite(diff.to_json())
            entry["nodes"] = rates(rows, resamples=resamples)
            entry["agents"] = {
                name: rates(rows, agent_id, resamples) for agent_id, name in enumerate(agent_names)
            }
            entries[str(b)] = entry
        out["arms"][arm] = entries
    return out


def build(
    *,
    protocol: dict[str, Any],
    seed: int | None,
    problems_checksum: str | None,
    team: Sequence[dict[str, Any]],
    problems: Sequence[ProblemArms],
    budgets: Sequence[int],
    agent_names: Sequence[str],
    resamples: int = RESAMPLES,
    cached: bool = False,
) -> dict[str, Any]:
    """The budget.json object: the protocol, seed, problems' checksum and team, how the
    intervals were computed, the headline (`summarize`) and the per-problem outcomes."""
    return {
        "version": VERSION,
        "protocol": protocol,
        "seed": seed,
        "problems_checksum": problems_checksum,
        "team": list(team),
        "agent_names": list(agent_names),
        "ci": {
            "level": LEVEL,
            "method": "percentile bootstrap over problems; node rates: cluster bootstrap over "
            "problems (problems resampled, the ratio of summed counts recomputed); differences: "
            "paired bootstrap over problems and sign-flip permutation p",
            "resamples": resamples,
            "seed": BOOTSTRAP_SEED,
        },
        "cached": cached,
        "headline": summarize(problems, budgets, agent_names, resamples),
        "per_problem": [p.to_json() for p in problems],
    }


def problems_of(record: dict[str, Any]) -> list[ProblemArms]:
    """The per-problem outcomes of a budget.json object (to re-derive or pair it)."""
    return [ProblemArms.from_json(p) for p in record["per_problem"]]


def _estimate(estimate: Estimate) -> dict[str, Any]:
    return _finite(dict(estimate.to_json()))


def _finite(data: dict[str, Any]) -> dict[str, Any]:
    """NaN (nothing to average) as null, so budget.json is strict JSON."""
    return {k: None if isinstance(v, float) and math.isnan(v) else v for k, v in data.items()}


def plot(headline: dict[str, Any], path: Path, title: str = "") -> None:
    """budget.png: the pick rate (Pass@1 of the best-by-public-score node) against nodes per
    problem, one line per arm with its 95% interval as a band (matplotlib, Agg backend)."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6, 4), dpi=100)
    axes = figure.add_subplot()
    for arm, entries in headline["arms"].items():
        points = [(int(b), e["pick"]) for b, e in entries.items() if e["pick"]["value"] is not None]
        if not points:
            continue
        xs = [b for b, _ in points]
        axes.plot(xs, [p["value"] for _, p in points], marker="o", label=arm)
        axes.fill_between(xs, [p["lo"] for _, p in points], [p["hi"] for _, p in points], alpha=0.2)
    axes.set_xscale("log", base=2)
    axes.set_xticks(headline["budgets"], [str(b) for b in headline["budgets"]])
    axes.set_xlabel("nodes per problem (budget)")
    axes.set_ylabel("pick rate (best of B by public score passes)")
    axes.set_ylim(-0.02, 1.02)
    if title:
        axes.set_title(title, fontsize=10)
    axes.legend(fontsize=8)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, format="png")
