"""The search tree state: trials, told nodes, pending expansions, and the seeded RNGs.

`TreeState` is plain data owned by the caller and picklable at any point (checkpoint/resume);
the `Algorithm` objects that grow it hold only hyper-parameters.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from mars2.treesearch.posterior import Arms
from mars2.types import Completion

if TYPE_CHECKING:
    from mars2.treesearch.pool import PoolPrior

ROOT = -1
"""Internal id of the root (the problem itself: no code, no score)."""


@dataclass(frozen=True)
class Trial:
    """One expansion to run: agent `agent_id` writes node `node_id` as a child of `parent_id`.
    `parent_id` None means a fresh attempt from the root; otherwise a refinement of that node."""

    node_id: int
    parent_id: int | None
    agent_id: int


@dataclass
class NodePayload:
    """What the caller attaches to a node; opaque to the search (never read by it).
    `passed`: the candidate passes every test, public and hidden; `pass_fraction`: the share of
    all tests it passes (the node's score, by contrast, counts public tests only)."""

    code: str = ""
    feedback: str = ""
    completion: Completion | None = None
    passed: bool | None = None
    pass_fraction: float | None = None


@dataclass
class Node:
    """A told node. `depth` is 1 for children of the root; `score` is the public-test score;
    `copy_of`: the parent whose program this refinement reproduces (told as a copy, never run)."""

    id: int
    parent_id: int | None
    depth: int
    agent_id: int
    score: float | None
    payload: NodePayload | None = None
    copy_of: int | None = None


@dataclass
class TreeState:
    """One tree being searched: told nodes in creation (tell) order, pending trials, per-node
    bookkeeping shared by every algorithm, and the algorithm's own statistics in `extra`.
    `agent_counts` counts told and pending nodes per agent; `agent_arms` are the agents' score
    posteriors in this tree and `node_agent_arms` the per-node ones (agent selection);
    `prior` the pooled prior the tree started from (None: the per-tree prior) and `best_score`
    the best told score."""

    algo: str
    budget: int
    n_agents: int
    seed: int
    rng: random.Random
    np_rng: np.random.Generator
    nodes: dict[int, Node] = field(default_factory=dict)
    pending: dict[int, Trial] = field(default_factory=dict)
    children: dict[int, list[int]] = field(default_factory=lambda: {ROOT: []})
    n_children: dict[int, int] = field(default_factory=lambda: {ROOT: 0})
    agent_counts: list[int] = field(default_factory=list)
    agent_arms: Arms | None = None
    node_agent_arms: dict[int, Arms] = field(default_factory=dict)
    next_id: int = 0
    extra: object = None
    prior: PoolPrior | None = None
    best_score: float = 0.0

    @property
    def n_asked(self) -> int:
        """Told plus pending: the nodes the budget has been spent on."""
        return len(self.nodes) + len(self.pending)

    @property
    def done(self) -> bool:
        """The budget is reached and nothing is pending."""
        return not self.pending and len(self.nodes) >= self.budget

    def depth_of(self, node_id: int) -> int:
        return 0 if node_id == ROOT else self.nodes[node_id].depth

    def parent_of(self, node_id: int) -> int:
        parent = self.nodes[node_id].parent_id
        return ROOT if parent is None else parent


def new_state(algo: str, budget: int, n_agents: int, seed: int) -> TreeState:
    """An empty tree (root only) with RNGs derived from `seed`."""
    return TreeState(
        algo=algo,
        budget=budget,
        n_agents=n_agents,
        seed=seed,
        rng=random.Random(seed),
        np_rng=np.random.default_rng(seed),
        agent_counts=[0] * n_agents,
    )
