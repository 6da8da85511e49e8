"""How finished trees spent their nodes (`treesearch.metrics.node_counts` and the node rates):
fresh attempts, refinements of failed parents, copies of the parent, nodes below a parent that
passes every public test, overall and per agent, on hand-made trees with hand-counted values."""

from __future__ import annotations

import pytest

from mars2.treesearch.metrics import (
    NodeCounts,
    first_nodes,
    node_counts,
    node_counts_by_agent,
    node_rate,
    program_key,
)
from mars2.types import NodeRecord

PROGRAM = "def f(x):\n    return x\n"


def tree(nodes: list[tuple[int | None, int, float, bool, str]]) -> list[NodeRecord]:
    """Records from (parent, agent, score, passed, code) in creation order (ids 0, 1, ...)."""
    depth: dict[int, int] = {}
    out = []
    for node_id, (parent, agent, score, ok, code) in enumerate(nodes):
        depth[node_id] = 1 if parent is None else depth[parent] + 1
        out.append(
            NodeRecord("t", "p", node_id, parent, depth[node_id], agent, score, 0.0, ok, 5, code)
        )
    return out


# 0 fresh (agent 0) fails, score 0.5
# 1 refines 0 (agent 1): the same program up to layout -> a copy; fails
# 2 refines 0 (agent 0): passes, a refinement after a fail that passes
# 3 fresh (agent 1): public 1.0 but fails a hidden test
# 4 refines 3 (agent 0): parent failed (hidden) and passes public -> after_fail and below_solved
# 5 refines 2 (agent 1): parent passed (not after a fail), public 1.0 -> below_solved; a copy
HAND = tree(
    [
        (None, 0, 0.5, False, PROGRAM),
        (0, 1, 0.5, False, "def f(x):\n  return x\n\n"),
        (0, 0, 1.0, True, "def f(x):\n    return x + 1\n"),
        (None, 1, 1.0, False, "def f(x):\n    return 2\n"),
        (3, 0, 0.0, False, "def f(x):\n    return 3\n"),
        (2, 1, 1.0, True, "def f(x):\n    return x + 1"),
    ]
)


def test_counts_of_a_hand_tree() -> None:
    assert node_counts(HAND) == NodeCounts(
        nodes=6,
        fresh=2,
        fresh_passed=0,
        refinements=4,
        copies=2,  # node 1 (layout only) and node 5 (trailing newline only)
        after_fail=3,  # nodes 1, 2 (parent 0 fails), 4 (parent 3 fails a hidden test)
        after_fail_passed=1,  # node 2
        below_solved=2,  # node 4 (parent 3 scores 1.0), node 5 (parent 2 scores 1.0)
    )


def test_rates_of_a_hand_tree() -> None:
    counts = node_counts(HAND)
    assert node_rate(counts, "refine_pass_after_fail") == pytest.approx(1 / 3)
    assert node_rate(counts, "fresh_pass") == 0.0
    assert node_rate(counts, "copy_rate") == pytest.approx(2 / 4)
    assert node_rate(counts, "below_solved_share") == pytest.approx(2 / 6)


def test_counts_per_agent_add_up_and_count_the_writer() -> None:
    by_agent = node_counts_by_agent(HAND)
    assert by_agent[0] == NodeCounts(
        nodes=3, fresh=1, refinements=2, after_fail=2, after_fail_passed=1, below_solved=1
    )
    assert by_agent[1] == NodeCounts(
        nodes=3, fresh=1, refinements=2, copies=2, after_fail=1, below_solved=1
    )
    assert by_agent[0] + by_agent[1] == node_counts(HAND)
    assert node_counts(HAND, agent_id=1) == by_agent[1]


def test_a_rate_without_a_denominator_is_none() -> None:
    fresh_only = node_counts(first_nodes(HAND, 1))
    assert node_rate(fresh_only, "refine_pass_after_fail") is None
    assert node_rate(fresh_only, "copy_rate") is None
    assert node_rate(NodeCounts(), "fresh_pass") is None


def test_first_nodes_is_the_tree_after_n_nodes_in_creation_order() -> None:
    shuffled = [HAND[i] for i in (4, 0, 5, 2, 1, 3)]
    assert [n.node_id for n in first_nodes(shuffled, 3)] == [0, 1, 2]
    assert len(first_nodes(HAND, 99)) == 6
    with pytest.raises(ValueError):
        first_nodes(HAND, 0)


def test_a_refinement_whose_parent_is_missing_is_an_error() -> None:
    with pytest.raises(ValueError, match="node 4 refines node 3"):
        node_counts([HAND[0], HAND[4]])


def test_program_key_ignores_layout_only() -> None:
    assert program_key("def f(x):\n    return x\n\n") == program_key("def f(x):\n  return x  ")
    assert program_key(PROGRAM) != program_key("def f(x):\n    return -x")
    assert program_key("") == program_key("\n \n")


def test_counts_round_trip_through_json() -> None:
    counts = node_counts(HAND)
    assert NodeCounts.from_json(counts.to_json()) == counts
