"""Tree-consistent shaped rewards and bottom-up path values over one finished tree (docs/algorithms.md, steps 1-3).

Nodes are identified by `node_id`; `parent` maps each node to its parent id, or None for a child of
the root. The root itself is not a node here: it is the problem and has no reward.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from mars2.errors import UserError


@dataclass(frozen=True)
class TreeShape:
    """Parent and children links of one tree, checked: unique ids, known parents, no cycles.

    `order` lists the nodes breadth-first from the root (parents before their children), sorted
    by id within a level so that the order does not depend on how the input was ordered."""

    parent: Mapping[int, int | None]
    children: Mapping[int | None, tuple[int, ...]]
    order: tuple[int, ...]

    @classmethod
    def build(cls, tree_id: str, links: Sequence[tuple[int, int | None]]) -> TreeShape:
        """From (node_id, parent_id) pairs of one tree; raises UserError naming the tree and node."""
        parent: dict[int, int | None] = {}
        for node_id, parent_id in links:
            if node_id in parent:
                raise UserError(f"tree {tree_id!r}: node {node_id} appears more than once")
            parent[node_id] = parent_id
        kids: dict[int | None, list[int]] = {}
        for node_id, parent_id in parent.items():
            if parent_id is not None and parent_id not in parent:
                raise UserError(
                    f"tree {tree_id!r}: node {node_id} has parent {parent_id}, which is not a node "
                    "of this tree (children of the root have parent_id null)"
                )
            kids.setdefault(parent_id, []).append(node_id)
        children = {p: tuple(sorted(c)) for p, c in kids.items()}
        order: list[int] = []
        level: list[int] = list(children.get(None, ()))
        while level:
            order.extend(level)
            level = sorted(c for n in level for c in children.get(n, ()))
        if len(order) != len(parent):
            stuck = sorted(set(parent) - set(order))
            raise UserError(
                f"tree {tree_id!r}: nodes {stuck} are not connected to the root (a cycle)"
            )
        return cls(parent=parent, children=children, order=tuple(order))

    def siblings(self, node_id: int) -> tuple[int, ...]:
        """The other children of this node's parent (for a child of the root: the other children
        of the root)."""
        return tuple(s for s in self.children[self.parent[node_id]] if s != node_id)


def baseline(shape: TreeShape, rewards: Mapping[int, float], node_id: int, lam: float) -> float:
    """b_i = (1-λ)·r_p(i) + λ·mean_{s∈S(i)} r_s when both exist, r_p(i) or the sibling mean when
    only one exists, r_i when neither. Only raw rewards enter, so visiting order cannot matter."""
    parent_id = shape.parent[node_id]
    siblings = shape.siblings(node_id)
    sibling_mean = math.fsum(rewards[s] for s in siblings) / len(siblings) if siblings else None
    if parent_id is not None and sibling_mean is not None:
        return (1 - lam) * rewards[parent_id] + lam * sibling_mean
    if parent_id is not None:
        return rewards[parent_id]
    if sibling_mean is not None:
        return sibling_mean
    return rewards[node_id]


def shaped_rewards(
    shape: TreeShape, rewards: Mapping[int, float], gamma: float, lam: float
) -> dict[int, float]:
    """r̃_i = r_i + γ·(r_i - b_i) for every node (γ = 0 gives r̃ = r)."""
    return {
        i: rewards[i] + gamma * (rewards[i] - baseline(shape, rewards, i, lam)) for i in shape.order
    }


def path_values(shape: TreeShape, shaped: Mapping[int, float], eta: float) -> dict[int, float]:
    """v_i = r̃_i for a leaf, else (1-η)·r̃_i + η·max over children c of v_c, computed bottom-up."""
    values: dict[int, float] = {}
    for i in reversed(shape.order):  # children come after their parent in `order`
        kids = shape.children.get(i, ())
        if kids:
            values[i] = (1 - eta) * shaped[i] + eta * max(values[c] for c in kids)
        else:
            values[i] = shaped[i]
    return values
