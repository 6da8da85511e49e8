"""The pooled priors of one search call's trees, handed out so that the search does not depend on
timing (docs/search.md, "Pooled priors").

Tree i of a call starts from the pool of the trees before the call (`base`) plus trees
0..i-lag of the call, and waits until those are finished: which trees a prior counts is fixed
by the indices, never by which tree happened to finish first. Trees 0..lag-1 start from `base`.
"""

from __future__ import annotations

import asyncio

from mars2.treesearch import TreeState
from mars2.treesearch.pool import ExpansionPool, PoolPrior


class PoolGate:
    """Priors for the trees 0..n-1 of one call, in a fixed order of counting."""

    def __init__(self, base: ExpansionPool, n: int, lag: int, strength: float) -> None:
        self.lag = lag
        self.strength = strength
        self.done = [asyncio.Event() for _ in range(n)]
        self.trees: list[ExpansionPool | None] = [None] * n
        # prefix[m]: base plus the first m trees of the call
        self.prefix: list[ExpansionPool] = [base + ExpansionPool()]

    async def prior(self, index: int) -> PoolPrior:
        """Tree `index`'s prior (waits for trees 0..index-lag to finish)."""
        seen = max(0, index - self.lag + 1)
        for j in range(seen):
            await self.done[j].wait()
        while len(self.prefix) <= seen:
            tree = self.trees[len(self.prefix) - 1]
            assert tree is not None
            self.prefix.append(self.prefix[-1] + tree)
        return self.prefix[seen].prior(self.strength)

    def finish(self, index: int, state: TreeState) -> None:
        """Tree `index` is finished: its gains count for the trees after it."""
        pool = ExpansionPool()
        pool.add_tree(state.nodes)
        self.trees[index] = pool
        self.done[index].set()

    def call_pool(self) -> ExpansionPool:
        """The gains of every tree of the call (all finished), summed in index order."""
        total = ExpansionPool()
        for tree in self.trees:
            assert tree is not None
            total = total + tree
        return total
