"""Hindsight repair cases: failed nodes of a tree with a passing node, the closest target."""

from __future__ import annotations

import difflib

import pytest

from mars2.credit.hindsight import closest_passing, repair_cases, similarity, tree_cases
from mars2.types import NodeRecord


def rec(
    node_id: int,
    code: str,
    passed: bool,
    *,
    tree: str = "t",
    score: float = 0.0,
    feedback: str = "fb",
    parent: int | None = None,
) -> NodeRecord:
    return NodeRecord(
        tree_id=tree,
        problem_id=f"p-{tree}",
        node_id=node_id,
        parent_id=parent,
        depth=1 if parent is None else 2,
        agent_id=0,
        score=score,
        reward=float(passed),
        passed=passed,
        code=code,
        feedback=feedback,
    )


def test_similarity_is_difflibs_ratio() -> None:
    # "abcd" vs "abxd": 3 matching characters of 8 -> 2*3/8
    assert similarity("abcd", "abxd") == pytest.approx(0.75)
    assert similarity("x", "x") == 1.0
    assert similarity("ab", "cd") == 0.0
    a, b = "def f(x):\n    return x+1\n", "def f(x):\n    return x + 1\n"
    assert similarity(a, b) == pytest.approx(difflib.SequenceMatcher(None, a, b).ratio())


def test_the_closest_passing_program_is_the_target() -> None:
    failed = rec(1, "def f(x):\n    return x - 1\n", False)
    far = rec(2, "import math\n\ndef f(value):\n    return math.floor(value) + 1\n", True)
    near = rec(3, "def f(x):\n    return x + 1\n", True)
    node, ratio = closest_passing(failed, [far, near])
    assert node is near
    assert ratio == pytest.approx(similarity(failed.code, near.code))
    assert ratio > similarity(failed.code, far.code)


def test_a_tie_goes_to_the_earliest_passing_node() -> None:
    failed = rec(1, "ab", False)
    later, earlier = rec(5, "ax", True), rec(2, "xb", True)  # both ratio 0.5
    assert closest_passing(failed, [later, earlier])[0] is earlier


def test_every_failed_node_of_a_tree_with_a_pass_is_a_case() -> None:
    tree = [
        rec(0, "def f(x): return 0", False, score=0.5, feedback="f(1): expected 2, got 0"),
        rec(1, "def f(x): return x + 1", True, score=1.0, parent=0),
        rec(2, "def f(x): return x", False, score=1.0, feedback="", parent=0),  # public-only
        rec(3, "import sys\n\ndef f(value):\n    return value + 1\n", True, score=1.0),
    ]
    cases = tree_cases(tree)
    assert [(c.node_id, c.target_node_id) for c in cases] == [(0, 1), (2, 1)]
    first, second = cases
    assert (first.code, first.feedback, first.passes_public) == (
        "def f(x): return 0",
        "f(1): expected 2, got 0",
        False,
    )
    assert second.passes_public  # its children get the "passes the public tests" prompt
    assert first.target == "def f(x): return x + 1"
    assert first.problem_id == "p-t" and first.tree_id == "t"


def test_no_case_without_a_passing_node_and_none_for_passing_nodes() -> None:
    assert tree_cases([rec(0, "a", False), rec(1, "b", False, parent=0)]) == []
    assert tree_cases([rec(0, "a", True), rec(1, "b", True)]) == []


def test_trees_never_lend_each_other_targets() -> None:
    records = [
        rec(0, "bad", False, tree="a"),
        rec(0, "good", True, tree="b"),
        rec(1, "bad too", False, tree="b"),
    ]
    cases = repair_cases(records)
    assert [(c.tree_id, c.node_id) for c in cases] == [("b", 1)]
