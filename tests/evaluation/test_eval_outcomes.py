"""Per-problem outcomes of evaluation trees and the metrics over them."""

from __future__ import annotations

import pytest

from mars2.evaluation.outcomes import (
    merge_outcomes,
    metrics,
    pass_ks,
    tree_outcome,
)
from mars2.types import NodeRecord


def node(
    tree: str, node_id: int, parent: int | None, score: float, passed: bool, problem: str = "p"
) -> NodeRecord:
    depth = 1 if parent is None else 2
    return NodeRecord(tree, problem, node_id, parent, depth, 0, score, float(passed), passed)


def test_first_attempt_pick_and_refinement() -> None:
    # First attempt fails; its refinement (depth 2) passes; a later fresh attempt ties on score.
    records = [
        node("t", 0, None, 0.5, False),
        node("t", 1, 0, 1.0, True),
        node("t", 2, None, 1.0, False),
    ]
    one = tree_outcome(records, independent=False)
    assert (one.attempts, one.attempts_passed) == (1, 0)  # only the first node is unbiased
    assert one.mcts_passed == 0  # the tie goes to the later node (2), which fails
    assert one.any_passed == 1
    assert (one.refined_trees, one.first_failed, one.refined_after_fail) == (1, 1, 1)
    sampled = tree_outcome(records, independent=True)
    assert (sampled.attempts, sampled.attempts_passed) == (2, 0)


def test_samples_are_summed_per_problem_and_give_pass_at_k() -> None:
    trees = [
        [node("a#0", 0, None, 1.0, True, "a")],
        [node("a#1", 0, None, 0.0, False, "a")],
        [node("b#0", 0, None, 0.0, False, "b")],
        [node("b#1", 0, None, 0.0, False, "b")],
    ]
    outcomes = merge_outcomes([tree_outcome(records, independent=False) for records in trees])
    assert [o.problem_id for o in outcomes] == ["a", "b"]
    assert (outcomes[0].trees, outcomes[0].attempts, outcomes[0].attempts_passed) == (2, 2, 1)
    assert pass_ks(outcomes) == [1, 2]
    values = outcomes[0].values([1, 2])
    # n=2, c=1: pass@1 = 1/2, pass@2 = 1 - C(1,2)/C(2,2) = 1.
    assert values["pass@1"] == 0.5 and values["pass@2"] == 1.0
    assert values["pass@1_mcts"] == 0.5 and values["pass@n"] == 0.5
    result = metrics(outcomes, resamples=200)
    assert result["pass@1"].value == pytest.approx(0.25)
    assert result["pass@2"].value == pytest.approx(0.5)
    assert result["pass@n"].n == 2
    assert result["pass@1"].lo <= 0.25 <= result["pass@1"].hi


def test_first_node_trees_count_as_attempts_only() -> None:
    # one searched tree (its first attempt fails, a refinement passes) and two trees stopped
    # at their first node (one passes): pass@1 over 3 attempts, Pass@1(MCTS) and Pass@N over
    # the one searched tree
    searched = [
        tree_outcome(
            [node("a", 0, None, 0.5, False), node("a", 1, 0, 1.0, True)], independent=False
        )
    ]
    single = [
        tree_outcome(records, independent=False, searched=False)
        for records in ([node("a#1", 0, None, 1.0, True)], [node("a#2", 0, None, 0.0, False)])
    ]
    (one,) = merge_outcomes(searched + single)
    assert (one.trees, one.attempts, one.attempts_passed) == (1, 3, 1)
    assert (one.nodes, one.mcts_passed, one.any_passed, one.first_failed) == (2, 1, 1, 1)
    values = one.values([1, 2])
    assert values["pass@1"] == pytest.approx(1 / 3)
    assert values["pass@2"] == pytest.approx(1 - 1 / 3)  # 1 - C(2,2)/C(3,2)
    assert (values["pass@1_mcts"], values["pass@n"]) == (1.0, 1.0)
