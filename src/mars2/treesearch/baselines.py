"""Baselines behind the same ask/tell interface: independent sampling, refinement chains and
best-first search (docs/search.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from mars2.treesearch.base import Algorithm
from mars2.treesearch.tree import ROOT, Node, TreeState, Trial


class Sampling(Algorithm):
    """`sampling`: every node is a fresh attempt from the root (vanilla best-of-N)."""

    name = "sampling"
    independent_attempts = True

    def _select_parent(self, state: TreeState) -> int:
        return ROOT


@dataclass
class Chains:
    """`refine` bookkeeping: per chain its last told node (ROOT before the first) and whether it
    has a trial in flight; per pending or told node its chain."""

    tail: list[int]
    busy: list[bool]
    chain_of: dict[int, int] = field(default_factory=dict)


class Refine(Algorithm):
    """`refine`: sequential refinement chains; each node refines the previous node of its chain.
    There are `parallel_expansions` chains (one by default), each with one trial in flight."""

    name = "refine"

    def _init_extra(self, state: TreeState) -> None:
        n = self.config.parallel_expansions
        state.extra = Chains(tail=[ROOT] * n, busy=[False] * n)

    def _chains(self, state: TreeState) -> Chains:
        return cast(Chains, state.extra)

    def _select_parent(self, state: TreeState) -> int:
        chains = self._chains(state)
        free = chains.busy.index(False) if False in chains.busy else 0
        return chains.tail[free]

    def _on_pending(self, state: TreeState, trial: Trial, weight: int) -> None:
        super()._on_pending(state, trial, weight)
        chains = self._chains(state)
        if weight < 0:
            return
        if trial.parent_id is not None:
            chain = chains.chain_of[trial.parent_id]
        else:
            chain = chains.busy.index(False) if False in chains.busy else 0
        chains.chain_of[trial.node_id] = chain
        chains.busy[chain] = True

    def _on_told(self, state: TreeState, node: Node, score: float) -> None:
        chains = self._chains(state)
        chain = chains.chain_of[node.id]
        # a closed node ends its chain: the next node of the chain is a fresh attempt
        chains.tail[chain] = ROOT if self.closed(node) else node.id
        chains.busy[chain] = False


class BestFirst(Algorithm):
    """`best_first`: the root gets `width` fresh attempts; after that, expand the highest-scoring
    told node that has fewer than `width` children (told or pending) and is not `closed`; ties
    go to the shallower, then the earlier node. When every told node is full or pending, a fresh
    attempt."""

    name = "best_first"

    def _select_parent(self, state: TreeState) -> int:
        width = self.config.width
        if state.n_children[ROOT] < width:
            return ROOT
        best, best_key = ROOT, (-1.0, 0)
        for node in state.nodes.values():
            if state.n_children[node.id] >= width or self.closed(node):
                continue
            key = (node.score if node.score is not None else 0.0, -node.depth)
            if key > best_key:
                best, best_key = node.id, key
        return best
