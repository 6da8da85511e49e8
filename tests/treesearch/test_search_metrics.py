"""Search metrics: pass@k against hand values and brute force, best node ties, tree stats and
the aggregate Pass@1 / Pass@1(MCTS) / Pass@N."""

from __future__ import annotations

import itertools
import math

import pytest

from mars2.treesearch import NodePayload, SearchConfig, TreeState, make_algorithm
from mars2.treesearch.metrics import best_node, pass_at_k, summarize, tree_stats


def test_pass_at_k_hand_values() -> None:
    assert pass_at_k(10, 0, 1) == 0.0
    assert pass_at_k(10, 3, 1) == pytest.approx(0.3)
    assert pass_at_k(5, 2, 2) == pytest.approx(1 - math.comb(3, 2) / math.comb(5, 2))  # 0.7
    assert pass_at_k(4, 3, 2) == 1.0  # fewer failures than k: some draw always passes


@pytest.mark.parametrize(("n", "c", "k"), [(6, 2, 3), (7, 1, 2), (5, 5, 5), (8, 3, 1)])
def test_pass_at_k_equals_brute_force_over_subsets(n: int, c: int, k: int) -> None:
    outcomes = [True] * c + [False] * (n - c)
    subsets = list(itertools.combinations(outcomes, k))
    assert pass_at_k(n, c, k) == pytest.approx(sum(map(any, subsets)) / len(subsets))


def test_pass_at_k_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError):
        pass_at_k(3, 4, 1)
    with pytest.raises(ValueError):
        pass_at_k(3, 1, 0)


def tree(scored: list[tuple[int | None, int, float, bool]], n_agents: int = 2) -> TreeState:
    """A tree built from (parent, agent, score, passed) in order."""
    algo = make_algorithm(SearchConfig(budget=len(scored) or 1), n_agents)
    state = algo.init_tree(0)
    for parent, agent, score, ok in scored:
        trial = algo.add_trial(state, parent, agent)
        algo.tell(state, trial, score, NodePayload(passed=ok))
    return state


def test_best_node_ties_go_to_the_later_node() -> None:
    state = tree(
        [(None, 0, 0.5, False), (None, 1, 1.0, False), (0, 0, 1.0, True), (2, 1, 0.2, True)]
    )
    best = best_node(state)
    assert best is not None and best.id == 2
    assert best_node(tree([])) is None


def test_tree_stats() -> None:
    # root -> 0, 1 ; 0 -> 2, 3 ; 3 -> 4
    state = tree(
        [
            (None, 0, 0.2, False),
            (None, 1, 0.4, False),
            (0, 0, 0.6, False),
            (0, 1, 0.8, False),
            (3, 1, 1.0, True),
        ]
    )
    stats = tree_stats(state)
    assert (stats.nodes, stats.max_depth, stats.root_children) == (5, 3, 2)
    assert stats.mean_depth == pytest.approx((1 + 1 + 2 + 2 + 3) / 5)
    assert stats.branching == pytest.approx((2 + 2 + 1) / 3)  # root, node 0, node 3
    a0, a1 = stats.agents
    assert (a0.nodes, a1.nodes) == (2, 3)
    assert a0.mean_score == pytest.approx(0.4)
    assert a1.mean_score == pytest.approx((0.4 + 0.8 + 1.0) / 3)
    assert (a0.wins, a1.wins, a1.passed) == (0, 1, 1)


def test_summary_pass_metrics() -> None:
    solved_by_best = tree([(None, 0, 0.5, False), (None, 1, 1.0, True)])
    solved_not_best = tree([(None, 0, 1.0, False), (None, 1, 0.5, True), (None, 0, 0.0, False)])
    unsolved = tree([(None, 0, 0.3, False)])
    summary = summarize([solved_by_best, solved_not_best, unsolved])
    assert summary.pass_at_1 == pytest.approx((1 / 2 + 1 / 3 + 0) / 3)
    assert summary.pass_at_1_mcts == pytest.approx(1 / 3)
    assert summary.pass_at_n == pytest.approx(2 / 3)
    a0, a1 = summary.agents
    assert (a0.nodes, a1.nodes, a0.wins, a1.wins) == (4, 2, 2, 1)  # a0 wins trees 2, 3
    assert a0.share == pytest.approx(4 / 6)
    assert a1.mean_score == pytest.approx(0.75)
    record = summary.to_json()
    assert {"pass@1", "pass@1_mcts", "pass@n", "agents"} <= set(record)


def test_pass_at_1_counts_fresh_attempts_only() -> None:
    # a failed fresh attempt fixed by its refinement: Pass@N yes, Pass@1 (a fresh sample) no
    fixed = tree([(None, 0, 0.5, False), (0, 0, 1.0, True)])
    summary = summarize([fixed])
    assert (summary.pass_at_1, summary.pass_at_1_mcts, summary.pass_at_n) == (0.0, 1.0, 1.0)


def test_records_round_trip() -> None:
    from mars2.treesearch import from_records, to_records

    state = tree([(None, 0, 0.5, False), (0, 1, 1.0, True), (None, 1, 0.0, False)])
    records = to_records(state, "t0", "sum-evens", reward="binary")
    assert [(r.node_id, r.parent_id, r.depth, r.reward) for r in records] == [
        (0, None, 1, 0.0),
        (1, 0, 2, 1.0),
        (2, None, 1, 0.0),
    ]
    algo = make_algorithm(SearchConfig(budget=5, parallel_expansions=1), 2)
    again = from_records(algo, records, seed=0)
    assert to_records(again, "t0", "sum-evens", reward="binary") == records
    assert len(algo.ask(again, k=5)) == 1  # resumes: 2 nodes of budget left, 1 in flight
