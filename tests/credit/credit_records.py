"""Builders of node records for credit tests."""

from __future__ import annotations

from mars2.types import NodeRecord


def node(
    node_id: int,
    parent_id: int | None,
    score: float,
    *,
    tree: str = "t",
    agent: int = 0,
    length: int = 0,
    passed: bool | None = None,
) -> NodeRecord:
    """A node whose `fraction` reward is `score` and whose `binary` reward is score == 1 unless
    `passed` says otherwise."""
    return NodeRecord(
        tree_id=tree,
        problem_id=f"p-{tree}",
        node_id=node_id,
        parent_id=parent_id,
        depth=0,
        agent_id=agent,
        score=score,
        reward=score,
        passed=score == 1.0 if passed is None else passed,
        response_len=length,
        pass_fraction=score,
    )
