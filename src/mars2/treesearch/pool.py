"""Pooled priors: how much each agent's fresh attempts and refinements improve a tree, pooled over
trees, as the empirical-Bayes prior of each tree's AB-MCTS arms (docs/search.md, "Pooled priors").

An expansion is of one of three kinds, by its parent: `fresh` (a child of the root), `repair`
(a refinement of a node failing some public test), `polish` (a refinement of a node passing every
public test). Its gain is g = max(0, score - the best score in the tree before it): what it added
to the tree's best public score. A copy of its parent, or anything at or below the best, gains 0.
The first node of a tree is no choice (there is nothing to refine yet) and is not pooled, nor
are the nodes after the tree's best passes every public test (nothing can gain any more; so a
polish, whose parent passes every public test, always gains 0 and is never pooled).

Per (agent, kind) the pool keeps the moments (n, Σg, Σg²). A prior for one arm is the pooled
moments scaled to at most `strength` pseudo-observations: n' = min(n, strength), Σ' = Σ·n'/n;
the arm starts as if it had seen n' gains with the pooled mean and variance.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

Kind = Literal["fresh", "repair", "polish"]
KINDS: tuple[Kind, ...] = ("fresh", "repair", "polish")
REFINE: tuple[Kind, ...] = ("repair", "polish")


def expansion_kind(parent_score: float | None) -> Kind:
    """The kind of an expansion whose parent has public score `parent_score` (None: the root)."""
    if parent_score is None:
        return "fresh"
    return "polish" if parent_score >= 1.0 else "repair"


@dataclass(frozen=True)
class Moments:
    """Sufficient statistics of a set of gains: count, sum, sum of squares."""

    n: float = 0.0
    s: float = 0.0
    ss: float = 0.0

    def __add__(self, other: Moments) -> Moments:
        return Moments(self.n + other.n, self.s + other.s, self.ss + other.ss)

    def scaled(self, factor: float) -> Moments:
        return Moments(self.n * factor, self.s * factor, self.ss * factor)

    def capped(self, strength: float) -> Moments:
        """The same mean and variance with at most `strength` observations."""
        if self.n <= strength:
            return self
        return self.scaled(strength / self.n)

    @property
    def mean(self) -> float | None:
        return self.s / self.n if self.n > 0 else None


class ToldNode(Protocol):
    """What the pool reads of a told node (`mars2.treesearch.tree.Node`)."""

    @property
    def parent_id(self) -> int | None: ...
    @property
    def agent_id(self) -> int: ...
    @property
    def score(self) -> float | None: ...


def tree_gains(nodes: Mapping[int, ToldNode]) -> Iterator[tuple[int, Kind, float]]:
    """(agent, kind, gain) of a tree's told nodes (`TreeState.nodes`: by id, in tell order), but the first and those after a node
    passing every public test: once the best score is 1.0 nothing can gain, so those nodes say
    nothing about which expansion pays (and counting them would charge zeros to whichever agent
    the search favours once a tree is solved)."""
    best = 0.0
    for index, node in enumerate(nodes.values()):
        if best >= 1.0:
            return
        score = node.score if node.score is not None else 0.0
        if index > 0:
            parent = None if node.parent_id is None else nodes[node.parent_id].score
            yield node.agent_id, expansion_kind(parent), max(0.0, score - best)
        best = max(best, score)


@dataclass
class ExpansionPool:
    """Pooled gain moments per (agent, kind). Mutable: a training run carries one across its
    rollout rounds (`carry`) and saves it with the checkpoint (`to_json` / `load_json`)."""

    stats: dict[tuple[int, Kind], Moments] = field(default_factory=dict)

    def add(self, agent: int, kind: Kind, gain: float, weight: float = 1.0) -> None:
        old = self.stats.get((agent, kind), Moments())
        self.stats[(agent, kind)] = old + Moments(weight, weight * gain, weight * gain * gain)

    def add_tree(self, nodes: Mapping[int, ToldNode]) -> None:
        """Pool the gains of one finished tree's told nodes (`TreeState.nodes`)."""
        for agent, kind, gain in tree_gains(nodes):
            self.add(agent, kind, gain)

    def __add__(self, other: ExpansionPool) -> ExpansionPool:
        total = dict(self.stats)
        for key, moments in other.stats.items():
            total[key] = total.get(key, Moments()) + moments
        return ExpansionPool(total)

    def carry(self, new: ExpansionPool, forgetting: float) -> None:
        """pool <- forgetting·(pool + new): the statistics of k rounds back count forgetting^k."""
        total = self + new
        self.stats = {key: m.scaled(forgetting) for key, m in total.stats.items()}

    def moments(self, agents: Iterable[int] | None, kinds: Iterable[Kind]) -> Moments:
        """The pooled moments of the given kinds, summed over `agents` (None: all)."""
        wanted = set(kinds)
        chosen = None if agents is None else set(agents)
        total = Moments()
        for (agent, kind), m in sorted(self.stats.items()):
            if kind in wanted and (chosen is None or agent in chosen):
                total = total + m
        return total

    def prior(self, strength: float) -> PoolPrior:
        """The frozen prior a tree starts from (each arm's moments capped at `strength`)."""
        agents = sorted({agent for agent, _ in self.stats})
        by_agent = {(a, k): self.moments([a], [k]).capped(strength) for a in agents for k in KINDS}
        by_kind = {k: self.moments(None, [k]).capped(strength) for k in KINDS}
        return PoolPrior(by_agent, by_kind, self.moments(None, REFINE).capped(strength))

    def to_json(self) -> list[dict[str, Any]]:
        return [
            {"agent": a, "kind": k, "n": m.n, "sum": m.s, "sum_sq": m.ss}
            for (a, k), m in sorted(self.stats.items())
        ]

    def load_json(self, rows: Iterable[Mapping[str, Any]]) -> None:
        """Replace the statistics with those of `to_json` rows."""
        self.stats = {}
        for row in rows:
            kind = row["kind"]
            if kind not in KINDS:
                raise ValueError(f"pooled statistics: unknown expansion kind {kind!r}")
            key = (int(row["agent"]), kind)
            self.stats[key] = Moments(float(row["n"]), float(row["sum"]), float(row["sum_sq"]))


@dataclass(frozen=True)
class PoolPrior:
    """What one tree's arms start from: per (agent, kind) for the agent arms, per kind (all agents)
    for a node's GEN arm, and all refinements for every CONT arm (going down ends in one)."""

    by_agent: dict[tuple[int, Kind], Moments]
    by_kind: dict[Kind, Moments]
    refine: Moments

    def agent(self, agent: int, kind: Kind) -> Moments:
        return self.by_agent.get((agent, kind), Moments())
