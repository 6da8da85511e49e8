"""Hindsight repair cases: a failed node of a finished tree and a passing program of the same tree.

A failed node (it fails some test, public or hidden) whose tree (or GRPO group) also holds a
passing node (every test passes) becomes a repair case: the refinement its children would be
asked for (its program and its real public-test feedback) and, as the answer, the passing
program closest to it (`difflib.SequenceMatcher.ratio`, the earliest node on a tie). The
supervision is the model's own: no reference solution is involved. Pure Python, no torch;
rendering the refinement prompt per agent role is `mars2.training.hindsight`'s.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from mars2.types import NodeRecord


@dataclass(frozen=True)
class RepairCase:
    """Failed node `node_id` of tree `tree_id` (its `code`, its public-test `feedback`, whether it
    passes every public test: `passes_public`) and the passing node `target_node_id` of the same
    tree whose program `target` it should have become; `similarity` is their difflib ratio."""

    tree_id: str
    problem_id: str
    node_id: int
    code: str
    feedback: str
    passes_public: bool
    target_node_id: int
    target: str
    similarity: float


def similarity(a: str, b: str) -> float:
    """How alike two programs are: difflib's ratio of their characters, in [0, 1]."""
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def closest_passing(failed: NodeRecord, passing: Sequence[NodeRecord]) -> tuple[NodeRecord, float]:
    """The passing node whose program is closest to `failed`'s (highest `similarity`; on a tie
    the earliest node id), with that similarity."""
    assert passing, "closest_passing needs a passing node"
    scored = [(similarity(failed.code, p.code), -p.node_id, p) for p in passing]
    best, _, node = max(scored, key=lambda row: (row[0], row[1]))
    return node, best


def tree_cases(tree: Sequence[NodeRecord]) -> list[RepairCase]:
    """The repair cases of one finished tree (or group), in node order: none when no node passes."""
    passing = [n for n in tree if n.passed]
    if not passing:
        return []
    cases = []
    for node in sorted(tree, key=lambda n: n.node_id):
        if node.passed:
            continue
        target, ratio = closest_passing(node, passing)
        cases.append(
            RepairCase(
                tree_id=node.tree_id,
                problem_id=node.problem_id,
                node_id=node.node_id,
                code=node.code,
                feedback=node.feedback,
                passes_public=node.score >= 1.0,
                target_node_id=target.node_id,
                target=target.code,
                similarity=ratio,
            )
        )
    return cases


def repair_cases(records: Iterable[NodeRecord]) -> list[RepairCase]:
    """Every tree's repair cases (`tree_cases`), trees in order of first appearance. Records of
    one `tree_id` are one tree: give trees of different files distinct ids before calling."""
    trees: dict[str, list[NodeRecord]] = {}
    for record in records:
        trees.setdefault(record.tree_id, []).append(record)
    return [case for tree in trees.values() for case in tree_cases(tree)]
