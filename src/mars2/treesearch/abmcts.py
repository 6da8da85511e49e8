"""AB-MCTS-A: adaptive-branching MCTS with node aggregation and Thompson sampling (docs/search.md).

At every node there are two aggregated arms, GEN (a new child of this node) and CONT (go down
to an existing child), and one arm per told child. An expansion walks down from the root: at a
node with told children it draws once from GEN and from CONT; GEN wins (ties too) or a leaf is
reached -> expand this node; CONT wins -> move to the child with the largest draw, repeat.
A told score s updates GEN at the new node's parent and starts the new child's arm with s; at
every ancestor a above the parent, a's CONT arm and the arm of a's child on the path get s.
Agents are picked by the base class (`agent_selection`, `min_share`).

Pending expansions add `virtual_score` to the same arms (taken back when told), so that several
expansions in flight spread over the tree instead of piling onto one node. The per-node work is
O(depth + children on the path), independent of the number of agents and of the tree size.

With `pooling` (docs/search.md, "Pooled priors") the arms observe a node's gain over the tree's
best score instead of its score, and start from the tree's pooled prior: a node's GEN arm from
the gains of its kind of expansion (fresh at the root, repair or polish below), every CONT arm
from the gains of refinements, and the agent arms (one set per kind) from each agent's gains
of that kind. Closed nodes (copies; solved ones when `refine_solved` is off) are never expanded.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from mars2.treesearch.base import Algorithm
from mars2.treesearch.pool import KINDS, Kind, Moments, expansion_kind
from mars2.treesearch.posterior import Arms
from mars2.treesearch.tree import ROOT, Node, TreeState, Trial

GEN, CONT = 0, 1
FIRST_CHILD = 2


@dataclass
class ABMCTSStats:
    """Per node id: its arms [GEN, CONT, child 0, child 1, ...]; per told node: its arm index
    in its parent's arms; with pooling, the agent arms of each kind of expansion."""

    arms: dict[int, Arms] = field(default_factory=dict)
    slot: dict[int, int] = field(default_factory=dict)
    kind_agents: dict[str, Arms] = field(default_factory=dict)


class ABMCTS(Algorithm):
    """Multi-agent AB-MCTS-A (Inoue et al. 2025, node aggregation; MARS² agent arms)."""

    name = "abmcts"
    uses_prior = True

    @property
    def pooled(self) -> bool:
        return self.config.pooling != "none"

    def _init_extra(self, state: TreeState) -> None:
        state.extra = ABMCTSStats(arms={ROOT: self._node_arms(state, None)})
        if self.pooled:
            stats = self._stats(state)
            for kind in KINDS:
                arms = stats.kind_agents[kind] = Arms.empty(self.config.prior, self.n_agents)
                if state.prior is not None:
                    for agent in range(self.n_agents):
                        _seed(arms, agent, state.prior.agent(agent, kind))

    def _node_arms(self, state: TreeState, score: float | None) -> Arms:
        """GEN and CONT of a new node (the root: score None), from the pooled prior if any."""
        arms = Arms.empty(self.config.prior, 2)
        if state.prior is not None:
            _seed(arms, GEN, state.prior.by_kind[expansion_kind(score)])
            _seed(arms, CONT, state.prior.refine)
        return arms

    def _kind(self, state: TreeState, parent: int) -> Kind:
        return expansion_kind(None if parent == ROOT else state.nodes[parent].score)

    def _agent_arms(self, state: TreeState, parent: int) -> list[Arms]:
        if not self.pooled:
            return super()._agent_arms(state, parent)
        return [self._stats(state).kind_agents[self._kind(state, parent)]]

    def _value(self, state: TreeState, score: float) -> float:
        if not self.pooled:
            return score
        return max(0.0, score - state.best_score)

    def _stats(self, state: TreeState) -> ABMCTSStats:
        return cast(ABMCTSStats, state.extra)

    def _select_parent(self, state: TreeState) -> int:
        stats = self._stats(state)
        node = ROOT
        while True:
            arms = stats.arms[node]
            closed = self._closed_slots(state, node)
            if len(arms) - FIRST_CHILD == len(closed):  # no open told child: only GEN
                return node
            if arms.sample(GEN, state.rng) >= arms.sample(CONT, state.rng):
                return node
            slot = arms.argmax(state.rng, state.np_rng, start=FIRST_CHILD, skip=closed)
            node = state.children[node][slot - FIRST_CHILD]

    def _closed_slots(self, state: TreeState, node: int) -> frozenset[int]:
        """The arm slots of `node`'s told children that may not be expanded (`closed`): going
        down to one would have nothing to expand."""
        stats = self._stats(state)
        return frozenset(
            stats.slot[child]
            for child in state.children[node]
            if child in stats.slot and self.closed(state.nodes[child])
        )

    def _on_pending(self, state: TreeState, trial: Trial, weight: int) -> None:
        super()._on_pending(state, trial, weight)
        parent = ROOT if trial.parent_id is None else trial.parent_id
        value = self.config.virtual_score
        stats = self._stats(state)
        stats.arms[parent].observe(GEN, value, weight)
        self._backup(state, parent, value, weight)

    def _on_told(self, state: TreeState, node: Node, score: float) -> None:
        stats = self._stats(state)
        parent = ROOT if node.parent_id is None else node.parent_id
        arms = stats.arms[parent]
        arms.observe(GEN, score)
        slot = arms.add()
        arms.observe(slot, score)
        stats.slot[node.id] = slot
        stats.arms[node.id] = self._node_arms(state, node.score)
        self._backup(state, parent, score, 1)

    def _backup(self, state: TreeState, node: int, value: float, weight: int) -> None:
        """Add `value` to CONT and to the on-path child arm of every ancestor above `node`."""
        stats = self._stats(state)
        while node != ROOT:
            parent = state.parent_of(node)
            arms = stats.arms[parent]
            arms.observe(stats.slot[node], value, weight)
            arms.observe(CONT, value, weight)
            node = parent


def _seed(arms: Arms, arm: int, moments: Moments) -> None:
    arms.add_moments(arm, moments.n, moments.s, moments.ss)
