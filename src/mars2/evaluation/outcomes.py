"""Per-problem outcomes of an evaluation's trees and the metrics over them (no torch).

A problem is evaluated with `samples` trees, `trees` of which grow the full search (the others
stop at their first node). Each tree counts through `mars2.treesearch.metrics`, the one home of
the rules: its fresh attempts (`attempts`: the first node of every tree, every node with
`sampling`), the Pass@1(MCTS) pick and Pass@N. Per problem, with c of its n attempts passing,
pass@1 = c/n and the unbiased pass@k = 1 - C(n-c, k)/C(n, k); Pass@1(MCTS) and Pass@N are
averaged over the problem's searched trees. Each metric is a mean over problems with a
bootstrap 95% interval.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from mars2.evaluation.stats import RESAMPLES, Estimate, bootstrap_mean
from mars2.treesearch.metrics import pass_at_k, tree_stats
from mars2.types import NodeRecord


@dataclass(frozen=True)
class ProblemOutcome:
    """What the trees of one problem achieved. `trees` counts the searched trees (the
    denominators of Pass@1(MCTS) and Pass@N; their nodes are `nodes`), `attempts` the fresh
    attempts of every tree, searched or stopped at its first node; `refined_trees`: trees with a node at depth >= 2,
    `first_failed`: trees whose first attempt fails, `refined_after_fail`: those of them that
    grew a refinement, `public_only_pass`: nodes that pass every public test but fail a hidden
    one (what gaming the public tests looks like)."""

    problem_id: str
    trees: int
    attempts: int
    attempts_passed: int
    mcts_passed: int
    any_passed: int
    nodes: int
    refined_trees: int
    first_failed: int
    refined_after_fail: int
    public_only_pass: int = 0

    def values(self, ks: Sequence[int]) -> dict[str, float]:
        """This problem's value of each metric (pass@k for k in `ks`, Pass@1(MCTS), Pass@N)."""
        out = {f"pass@{k}": pass_at_k(self.attempts, self.attempts_passed, k) for k in ks}
        out["pass@1_mcts"] = self.mcts_passed / self.trees
        out["pass@n"] = self.any_passed / self.trees
        return out

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ProblemOutcome:
        fields = cls.__dataclass_fields__
        return cls(**{name: data[name] for name in fields if name in data or name == "problem_id"})


def tree_outcome(
    records: Sequence[NodeRecord], independent: bool, searched: bool = True
) -> ProblemOutcome:
    """One tree as a ProblemOutcome of one tree (`independent`: every fresh attempt counts, see
    `treesearch.metrics.attempts`; not `searched`: a tree stopped at its first node, which
    counts as an attempt only)."""
    if not records:
        raise ValueError("an evaluation tree has no nodes")
    tree = tree_stats(records, independent)
    problem_id = records[0].problem_id
    if not searched:
        return ProblemOutcome(
            problem_id=problem_id,
            trees=0,
            attempts=tree.attempts,
            attempts_passed=tree.attempts_passed,
            **dict.fromkeys(SEARCH_FIELDS, 0),
        )
    return ProblemOutcome(
        problem_id=problem_id,
        trees=1,
        attempts=tree.attempts,
        attempts_passed=tree.attempts_passed,
        mcts_passed=int(tree.mcts_passed),
        any_passed=int(tree.any_passed),
        nodes=tree.nodes,
        refined_trees=int(tree.refined),
        first_failed=int(tree.first_failed),
        refined_after_fail=int(tree.refined and tree.first_failed),
        public_only_pass=tree.public_only_pass,
    )


# what only a searched tree contributes
SEARCH_FIELDS = (
    "mcts_passed",
    "any_passed",
    "nodes",
    "refined_trees",
    "first_failed",
    "refined_after_fail",
    "public_only_pass",
)


def merge_outcomes(outcomes: Sequence[ProblemOutcome]) -> list[ProblemOutcome]:
    """Sum the outcomes of each problem, problems in order of first appearance."""
    merged: dict[str, ProblemOutcome] = {}
    for one in outcomes:
        old = merged.get(one.problem_id)
        if old is None:
            merged[one.problem_id] = one
            continue
        sums = {
            name: getattr(old, name) + getattr(one, name)
            for name in ProblemOutcome.__dataclass_fields__
            if name != "problem_id"
        }
        merged[one.problem_id] = ProblemOutcome(problem_id=one.problem_id, **sums)
    return list(merged.values())


def pass_ks(outcomes: Sequence[ProblemOutcome]) -> list[int]:
    """k of the pass@k reported: 1 and the powers of two up to the fewest attempts of a problem."""
    fewest = min((o.attempts for o in outcomes), default=1)
    ks, k = [1], 2
    while k <= fewest:
        ks.append(k)
        k *= 2
    return ks


def metric_names(ks: Sequence[int]) -> list[str]:
    return [f"pass@{k}" for k in ks] + ["pass@1_mcts", "pass@n"]


def metrics(
    outcomes: Sequence[ProblemOutcome], resamples: int = RESAMPLES, seed: int = 0
) -> dict[str, Estimate]:
    """Every metric as a mean over problems with its bootstrap 95% interval (one seeded resample
    of the problems per metric, the same `seed` for each)."""
    ks = pass_ks(outcomes)
    per_problem = [o.values(ks) for o in outcomes]
    return {
        name: bootstrap_mean([v[name] for v in per_problem], resamples, seed)
        for name in metric_names(ks)
    }


def tree_figures(outcomes: Sequence[ProblemOutcome]) -> dict[str, float]:
    """How the evaluation trees grew: nodes per tree, share of trees with a refinement, and that
    share among trees whose first attempt failed."""
    trees = sum(o.trees for o in outcomes)
    failed = sum(o.first_failed for o in outcomes)
    return {
        "trees": float(trees),
        "mean_nodes": sum(o.nodes for o in outcomes) / trees if trees else 0.0,
        "refined_share": sum(o.refined_trees for o in outcomes) / trees if trees else 0.0,
        "refined_share_after_fail": (
            sum(o.refined_after_fail for o in outcomes) / failed if failed else 0.0
        ),
        "public_only_pass": float(sum(o.public_only_pass for o in outcomes)),
    }
