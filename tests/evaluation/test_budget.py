"""The equal-budget comparison as data (mars2.evaluation.budget): the cluster bootstrap of a
ratio, per-problem outcomes, the independent arm's prefixes that nest, the paired differences
against independent sampling, the node rates and the budget.json round trip — on hand-made
records with hand-computed values."""

from __future__ import annotations

import numpy as np
import pytest

from mars2.evaluation import budget
from mars2.evaluation.stats import bootstrap_ratio, bootstrap_ratio_difference, paired_difference
from mars2.treesearch.metrics import NodeCounts
from mars2.types import NodeRecord


def node(node_id: int, parent: int | None, score: float, ok: bool, pid: str = "p") -> NodeRecord:
    return NodeRecord(
        f"t-{pid}", pid, node_id, parent, 1, node_id % 2, score, 0.0, ok, 5, str(node_id)
    )


def test_ratio_is_the_ratio_of_sums_with_a_cluster_bootstrap_interval() -> None:
    tops, bottoms = [1, 0, 3, 0], [2, 1, 4, 3]
    estimate = bootstrap_ratio(tops, bottoms, resamples=500, seed=3)
    assert estimate.value == pytest.approx(4 / 10)  # not the mean of per-problem ratios (0.3125)
    assert estimate.n == 4
    # the same resampling of problems, done by hand
    index = np.random.default_rng(3).integers(0, 4, size=(500, 4))
    ratios = np.asarray(tops)[index].sum(1) / np.asarray(bottoms)[index].sum(1)
    assert (estimate.lo, estimate.hi) == pytest.approx(tuple(np.quantile(ratios, [0.025, 0.975])))
    assert estimate.lo <= estimate.value <= estimate.hi


def test_ratio_without_a_denominator_is_nan_and_zero_denominators_are_skipped() -> None:
    assert np.isnan(bootstrap_ratio([0, 0], [0, 0]).value)
    one = bootstrap_ratio([1, 0], [2, 0], resamples=200)  # the second problem counts nothing
    assert one.value == 0.5 and one.lo == one.hi == 0.5
    with pytest.raises(ValueError):
        bootstrap_ratio([1], [1, 2])


def test_difference_of_two_ratios_resamples_both_on_the_same_problems() -> None:
    fresh = ([2, 1, 0], [4, 2, 2])  # 3/8
    refine = ([0, 1, 0], [3, 1, 4])  # 1/8
    estimate = bootstrap_ratio_difference(*fresh, *refine, resamples=400, seed=1)
    assert estimate.value == pytest.approx(1 / 8 - 3 / 8)
    index = np.random.default_rng(1).integers(0, 3, size=(400, 3))
    a = np.asarray(fresh[0])[index].sum(1) / np.asarray(fresh[1])[index].sum(1)
    b = np.asarray(refine[0])[index].sum(1) / np.asarray(refine[1])[index].sum(1)
    lo, hi = np.quantile(b - a, [0.025, 0.975])
    assert (estimate.lo, estimate.hi) == pytest.approx((min(lo, -0.25), max(hi, -0.25)))
    assert np.isnan(bootstrap_ratio_difference([1], [1], [0], [0]).value)


def test_outcome_of_a_tree_uses_the_pick_rule_and_any_pass() -> None:
    # the pick is the best public score, ties to the later node: node 2 (score 1.0, fails)
    tree = [node(0, None, 1.0, True), node(1, 0, 0.5, False), node(2, 0, 1.0, False)]
    one = budget.outcome(tree)
    assert (one.trees, one.picked, one.solved) == (1, 0, 1)
    assert one.counts.nodes == 3 and one.counts.below_solved == 2
    assert sum(one.agents.values(), NodeCounts()) == one.counts


def test_independent_prefixes_nest() -> None:
    # attempts in creation order: fail (0.5), pass (1.0), fail with a full public score (1.0)
    attempts = [node(0, None, 0.5, False), node(1, None, 1.0, True), node(2, None, 1.0, False)]
    by_budget = budget.prefix_outcomes(list(reversed(attempts)), [1, 2, 3])
    assert [by_budget[b].counts.nodes for b in (1, 2, 3)] == [1, 2, 3]
    assert [by_budget[b].solved for b in (1, 2, 3)] == [0, 1, 1]  # pass@B never decreases
    # pick@B: best of the first B by public score, ties to the later attempt
    assert [by_budget[b].picked for b in (1, 2, 3)] == [0, 1, 0]


def arms(
    pid: str, independent: list[tuple[int, int]], algo: list[tuple[int, int]]
) -> budget.ProblemArms:
    """A problem's arms at budgets 1 and 2 from (picked, solved) per budget."""

    def outcome(picked: int, solved: int) -> budget.Outcome:
        return budget.Outcome(1, picked, solved, NodeCounts(nodes=1, fresh=1, fresh_passed=solved))

    return budget.ProblemArms(
        pid,
        {
            budget.INDEPENDENT: {b: outcome(*v) for b, v in zip((1, 2), independent, strict=True)},
            "abmcts": {b: outcome(*v) for b, v in zip((1, 2), algo, strict=True)},
        },
    )


PROBLEMS = [
    arms("a", [(0, 0), (1, 1)], [(0, 0), (0, 1)]),
    arms("b", [(1, 1), (1, 1)], [(1, 1), (1, 1)]),
    arms("c", [(0, 0), (0, 1)], [(0, 0), (0, 0)]),
]


def test_summary_means_and_paired_differences_against_independent() -> None:
    head = budget.summarize(PROBLEMS, [1, 2], ["coder"], resamples=300)
    assert head["problems"] == 3 and head["budgets"] == [1, 2]
    at2 = head["arms"]["abmcts"]["2"]
    assert at2["pick"]["value"] == pytest.approx(1 / 3)
    assert at2["pass"]["value"] == pytest.approx(2 / 3)
    expected = paired_difference([1, 1, 0], [0, 1, 0], resamples=300).to_json()
    assert at2["pick_vs_independent"] == expected
    assert at2["pick_vs_independent"]["diff"] == pytest.approx(-1 / 3)
    assert "pick_vs_independent" not in head["arms"][budget.INDEPENDENT]["2"]
    fresh = head["arms"][budget.INDEPENDENT]["2"]["nodes"]["fresh_pass"]
    assert (fresh["value"], fresh["count"], fresh["of"]) == (pytest.approx(1.0), 3, 3)
    assert head["arms"]["abmcts"]["2"]["nodes"]["copy_rate"]["value"] is None  # no refinements
    assert head["arms"]["abmcts"]["2"]["nodes"]["refine_minus_fresh"]["value"] is None


def test_record_round_trips_its_per_problem_outcomes() -> None:
    record = budget.build(
        protocol={"problems": "x"},
        seed=1,
        problems_checksum="sha256:0",
        team=[],
        problems=PROBLEMS,
        budgets=[1, 2],
        agent_names=["coder"],
        resamples=200,
    )
    again = budget.problems_of(record)
    assert again == PROBLEMS
    assert budget.summarize(again, [1, 2], ["coder"], 200) == record["headline"]


def test_tree_files_sum_a_problems_trees() -> None:
    records = [
        node(0, None, 1.0, True, "p"),
        node(0, None, 0.0, False, "q"),
        node(1, 0, 0.0, False, "q"),
    ]
    records += [r.__class__(**{**r.to_json(), "tree_id": "t-p-2"}) for r in records[:1]]
    problems, size = budget.tree_file_arms(records)
    assert size == 2
    p = next(x for x in problems if x.problem_id == "p").arms["trees"][2]
    assert (p.trees, p.picked, p.solved, p.counts.nodes) == (2, 2, 2, 2)
