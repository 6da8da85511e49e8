"""Statistics of finished trees: pass@k against hand values and brute force, the pick's ties,
the fresh attempts pass@1 counts, tree stats, per-agent stats and the aggregate Pass@1 /
Pass@1(MCTS) / Pass@N, all on hand-made node records."""

from __future__ import annotations

import itertools
import math

import pytest

from mars2.treesearch import NodePayload, SearchConfig, TreeState, make_algorithm
from mars2.treesearch.metrics import (
    agent_stats,
    attempts,
    best,
    by_tree,
    independent_attempts,
    pass_at_k,
    summarize,
    tree_stats,
)
from mars2.types import NodeRecord


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


def tree(scored: list[tuple[int | None, int, float, bool]], tree_id: str = "t") -> list[NodeRecord]:
    """A tree's records from (parent, agent, score, passed) in creation order (node ids 0, 1, ...)."""
    depth: dict[int, int] = {}
    out = []
    for node_id, (parent, agent, score, ok) in enumerate(scored):
        depth[node_id] = 1 if parent is None else depth[parent] + 1
        out.append(
            NodeRecord(tree_id, "p", node_id, parent, depth[node_id], agent, score, 0.0, ok, 10)
        )
    return out


def test_best_ties_go_to_the_later_node() -> None:
    nodes = tree(
        [(None, 0, 0.5, False), (None, 1, 1.0, False), (0, 0, 1.0, True), (2, 1, 0.2, True)]
    )
    pick = best(nodes)
    assert pick is not None and pick.node_id == 2
    assert best(list(reversed(nodes))) == pick  # node ids decide, not the order given
    assert best([]) is None


def test_attempts_first_node_unless_independent() -> None:
    # an adaptive search retried afresh after a failure: only its first node is unbiased
    nodes = tree([(None, 0, 0.0, False), (0, 0, 0.5, False), (None, 1, 1.0, True)])
    assert [n.node_id for n in attempts(nodes)] == [0]
    assert [n.node_id for n in attempts(reversed(nodes), independent=True)] == [0, 2]
    assert independent_attempts("sampling") and not independent_attempts("abmcts")
    assert not independent_attempts("refine") and not independent_attempts("best_first")


def test_tree_stats() -> None:
    # root -> 0, 1 ; 0 -> 2, 3 ; 3 -> 4
    nodes = tree(
        [
            (None, 0, 0.2, False),
            (None, 1, 0.4, False),
            (0, 0, 0.6, False),
            (0, 1, 1.0, False),
            (3, 1, 1.0, True),
        ]
    )
    stats = tree_stats(nodes)
    assert (stats.nodes, stats.max_depth) == (5, 3)
    assert stats.branching == pytest.approx((2 + 2 + 1) / 3)  # root, node 0, node 3
    assert (stats.attempts, stats.attempts_passed, stats.pass_at_1) == (1, 0, 0.0)
    assert stats.pick is not None and stats.pick.node_id == 4 and stats.mcts_passed
    assert (stats.any_passed, stats.refined, stats.first_failed) == (True, True, True)
    assert stats.public_only_pass == 1  # node 3: every public test, not the hidden ones
    sampled = tree_stats(nodes, independent=True)
    assert (sampled.attempts, sampled.attempts_passed) == (2, 0)
    empty = tree_stats([])
    assert (empty.nodes, empty.branching, empty.pick, empty.pass_at_1) == (0, 0.0, None, 0.0)


def test_agent_stats_by_hand() -> None:
    # tree 1: 0 (a0, .5) -> 1 (a1, 1.0, passes); 2 (a0, .25) refines 0. tree 2: 0 (a0, .2)
    one = tree([(None, 0, 0.5, False), (0, 1, 1.0, True), (0, 0, 0.25, False)])
    two = tree([(None, 0, 0.2, False)], tree_id="u")
    a0, a1, a2 = agent_stats([one, two], [0, 1, 2])
    assert (a0.nodes, a0.passed, a0.wins, a0.solved, a0.refinements) == (3, 0, 1, 0, 1)
    assert a0.share == pytest.approx(3 / 4) and a0.mean_score == pytest.approx(0.95 / 3)
    assert a0.refine_gain == pytest.approx(-0.25) and a0.pass_rate == 0.0
    assert (a1.nodes, a1.passed, a1.wins, a1.solved, a1.refinements) == (1, 1, 1, 1, 1)
    assert a1.refine_gain == pytest.approx(0.5) and a1.mean_response_len == 10.0
    assert (a2.nodes, a2.share, a2.mean_score, a2.refine_gain, a2.pass_rate) == (
        0,
        0.0,
        None,
        None,
        None,
    )
    assert a1.to_json() == {"nodes": 1, "share": 0.25, "mean_score": 1.0, "wins": 1, "passed": 1}


def test_summary_pass_metrics() -> None:
    solved_by_best = tree([(None, 0, 0.5, False), (None, 1, 1.0, True)])
    solved_not_best = tree([(None, 0, 1.0, False), (None, 1, 0.5, True), (None, 0, 0.0, False)])
    unsolved = tree([(None, 0, 0.3, False)])
    trees = [solved_by_best, solved_not_best, unsolved]
    summary = summarize(trees)
    assert summary.pass_at_1 == 0.0  # every tree's first node fails
    assert summary.pass_at_1_mcts == pytest.approx(1 / 3)
    assert summary.pass_at_n == pytest.approx(2 / 3)
    assert summary.mean_nodes == pytest.approx(2.0)
    assert summary.mean_best_score == pytest.approx((1.0 + 1.0 + 0.3) / 3)
    a0, a1 = summary.agents
    assert (a0.nodes, a1.nodes, a0.wins, a1.wins) == (4, 2, 2, 1)  # a0 wins trees 2, 3
    assert a0.share == pytest.approx(4 / 6)
    assert a1.mean_score == pytest.approx(0.75)
    # independent samples (`sampling`): every root child is a fresh attempt
    sampled = summarize(trees, independent=True)
    assert sampled.pass_at_1 == pytest.approx((1 / 2 + 1 / 3 + 0) / 3)
    none = summarize([])
    assert (none.trees, none.pass_at_1, none.mean_best_score, none.agents) == (0, 0.0, None, [])


def test_pass_at_1_counts_fresh_attempts_only() -> None:
    # a failed fresh attempt fixed by its refinement: Pass@N yes, Pass@1 (a fresh sample) no
    summary = summarize([tree([(None, 0, 0.5, False), (0, 0, 1.0, True)])])
    assert (summary.pass_at_1, summary.pass_at_1_mcts, summary.pass_at_n) == (0.0, 1.0, 1.0)


def test_by_tree_keeps_first_appearance_order() -> None:
    one, two = tree([(None, 0, 0.5, False), (0, 0, 1.0, True)]), tree([(None, 1, 0.0, False)], "u")
    assert by_tree([one[0], two[0], one[1]]) == [one, two]


def state(scored: list[tuple[int | None, int, float, bool]], n_agents: int = 2) -> TreeState:
    """A search state built from (parent, agent, score, passed) in order."""
    algo = make_algorithm(SearchConfig(budget=len(scored) or 1), n_agents)
    grown = algo.init_tree(0)
    for parent, agent, score, ok in scored:
        trial = algo.add_trial(grown, parent, agent)
        algo.tell(grown, trial, score, NodePayload(passed=ok))
    return grown


def test_records_round_trip() -> None:
    from mars2.treesearch import from_records, to_records

    records = to_records(
        state([(None, 0, 0.5, False), (0, 1, 1.0, True), (None, 1, 0.0, False)]),
        "t0",
        "sum-evens",
    )
    assert [(r.node_id, r.parent_id, r.depth, r.passed, r.reward) for r in records] == [
        (0, None, 1, False, 0.0),
        (1, 0, 2, True, 0.0),  # rewarded by the caller (credit.rewarded), never here
        (2, None, 1, False, 0.0),
    ]
    algo = make_algorithm(SearchConfig(budget=5, parallel_expansions=1), 2)
    again = from_records(algo, records, seed=0)
    assert to_records(again, "t0", "sum-evens") == records
    assert len(algo.ask(again, k=5)) == 1  # resumes: 2 nodes of budget left, 1 in flight
