"""The ask/tell protocol shared by every search algorithm: budget, pending trials, agent choice.

Subclasses decide only which node to expand (`_select_parent`) and what to learn from a told
node (`_on_told`) or a pending one (`_on_pending`, virtual observations).
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from typing import ClassVar

from mars2.config import SearchConfig
from mars2.errors import ConfigError
from mars2.treesearch.pool import PoolPrior
from mars2.treesearch.posterior import Arms
from mars2.treesearch.tree import ROOT, Node, NodePayload, TreeState, Trial, new_state


class Algorithm(ABC):
    """Grows a `TreeState` one trial at a time. Holds only hyper-parameters: the same object can
    serve any number of trees, and the trees can be pickled between any two calls."""

    name: ClassVar[str] = ""
    # True when the algorithm asks for fresh attempts whatever the scores, so each one is an
    # unbiased sample for pass@1 (`treesearch.metrics.attempts`); an adaptive search is False.
    independent_attempts: ClassVar[bool] = False
    # True when the algorithm's arms start from a pooled prior (`init_tree(prior=...)`,
    # `search.pooling`); the others ignore it, so no tree has to wait for one.
    uses_prior: ClassVar[bool] = False

    def __init__(self, config: SearchConfig, n_agents: int) -> None:
        if n_agents < 1:
            raise ConfigError("agents", n_agents, "needs at least one agent")
        if config.min_share * n_agents > 1 + 1e-9:
            raise ConfigError("search.min_share", config.min_share, "times #agents must be <= 1")
        self.config = config
        self.n_agents = n_agents
        self.quota = _quota(config.min_share, config.budget, n_agents)

    # ------------------------------------------------------------------ public protocol

    def init_tree(self, seed: int, prior: PoolPrior | None = None) -> TreeState:
        """An empty tree (root only) whose random choices all derive from `seed`; `prior`: the
        pooled prior its arms start from (`search.pooling`; algorithms without arms ignore it)."""
        state = new_state(self.name, self.config.budget, self.n_agents, seed)
        state.prior = prior
        state.agent_arms = Arms.empty(self.config.prior, self.n_agents)
        self._init_extra(state)
        return state

    def ask(self, state: TreeState, k: int = 1) -> list[Trial]:
        """Up to `k` new trials; fewer (maybe none) once told + pending reaches the budget or
        `parallel_expansions` trials are pending. Each trial is pending until told."""
        self._check_state(state)
        trials: list[Trial] = []
        while (
            len(trials) < k
            and state.n_asked < state.budget
            and len(state.pending) < self.config.parallel_expansions
        ):
            parent = self._select_parent(state)
            trials.append(self._register(state, parent, self._pick_agent(state, parent)))
        return trials

    def add_trial(self, state: TreeState, parent_id: int | None, agent_id: int) -> Trial:
        """Register a trial chosen elsewhere (replaying a recorded tree, warm starts): agent
        `agent_id` expands `parent_id` (None: the root). Ignores `parallel_expansions`."""
        self._check_state(state)
        parent = ROOT if parent_id is None else parent_id
        if parent != ROOT and parent not in state.nodes:
            raise ValueError(f"add_trial: node {parent_id} is not a told node of this tree")
        if not 0 <= agent_id < self.n_agents:
            raise ValueError(f"add_trial: agent_id {agent_id} not in [0, {self.n_agents})")
        if state.n_asked >= state.budget:
            raise ValueError(f"add_trial: the budget of {state.budget} nodes is spent")
        return self._register(state, parent, agent_id)

    def tell(
        self,
        state: TreeState,
        trial: Trial,
        score: float,
        payload: NodePayload | None = None,
        *,
        copy: bool = False,
    ) -> None:
        """Record the scored node of a pending trial. Telling a trial again is a no-op. `copy`:
        the refinement reproduces its parent's program (`score` is the parent's); it is never
        expanded."""
        self._check_state(state)
        told = state.nodes.get(trial.node_id)
        if told is not None:
            if (told.parent_id, told.agent_id) != (trial.parent_id, trial.agent_id):
                raise ValueError(f"tell: node {trial.node_id} was told for a different trial")
            return
        if state.pending.get(trial.node_id) != trial:
            raise ValueError(f"tell: {trial} is not a pending trial of this tree")
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"tell: score must be in [0, 1], got {score!r}")
        if copy and trial.parent_id is None:
            raise ValueError(f"tell: node {trial.node_id} is a fresh attempt, not a copy")
        del state.pending[trial.node_id]
        parent = ROOT if trial.parent_id is None else trial.parent_id
        self._on_pending(state, trial, -1)
        node = Node(
            id=trial.node_id,
            parent_id=trial.parent_id,
            depth=state.depth_of(parent) + 1,
            agent_id=trial.agent_id,
            score=score,
            payload=payload,
            copy_of=trial.parent_id if copy else None,
        )
        value = self._value(state, score)
        state.best_score = max(state.best_score, score)
        state.nodes[node.id] = node
        state.children[parent].append(node.id)
        state.children[node.id] = []
        state.n_children[node.id] = 0
        for arms in self._agent_arms(state, parent):
            arms.observe(node.agent_id, value)
        self._on_told(state, node, value)

    def closed(self, node: Node) -> bool:
        """Whether `node` may not be expanded: a copy of its parent, or (`refine_solved` off) a
        node passing every public test."""
        solved = node.score is not None and node.score >= 1.0
        return node.copy_of is not None or (solved and not self.config.refine_solved)

    # ------------------------------------------------------------------ hooks

    def _init_extra(self, state: TreeState) -> None:  # noqa: B027 (an optional hook)
        """Create the algorithm's own statistics in `state.extra`."""

    @abstractmethod
    def _select_parent(self, state: TreeState) -> int:
        """The node to expand next (ROOT for a fresh attempt)."""

    def _on_pending(self, state: TreeState, trial: Trial, weight: int) -> None:
        """A trial became pending (weight 1) or was told (weight -1, before `_on_told`)."""
        parent = ROOT if trial.parent_id is None else trial.parent_id
        for arms in self._agent_arms(state, parent):
            arms.observe(trial.agent_id, self.config.virtual_score, weight)

    def _value(self, state: TreeState, score: float) -> float:
        """What the arms observe for a node told with `score` (before `best_score` counts it):
        the score itself; an algorithm may learn from something else (`abmcts` with pooling:
        the gain over the tree's best)."""
        return score

    def _on_told(self, state: TreeState, node: Node, value: float) -> None:  # noqa: B027 (an optional hook)
        """Learn from a told node (called after it is in `state.nodes`) observed as `value`."""

    # ------------------------------------------------------------------ internals

    def _check_state(self, state: TreeState) -> None:
        if state.algo != self.name or state.n_agents != self.n_agents:
            raise ValueError(
                f"tree made by {state.algo!r} with {state.n_agents} agents, "
                f"not by {self.name!r} with {self.n_agents}"
            )

    def _register(self, state: TreeState, parent: int, agent_id: int) -> Trial:
        trial = Trial(state.next_id, None if parent == ROOT else parent, agent_id)
        state.next_id += 1
        state.pending[trial.node_id] = trial
        state.n_children[parent] += 1
        state.agent_counts[agent_id] += 1
        self._on_pending(state, trial, 1)
        return trial

    def _agent_arms(self, state: TreeState, parent: int) -> list[Arms]:
        """The agent arms an observation at `parent` updates (tree-level and, mode `node`, the
        parent's own)."""
        assert state.agent_arms is not None
        if self.config.agent_selection != "node":
            return [state.agent_arms]
        arms = state.node_agent_arms.get(parent)
        if arms is None:
            arms = state.node_agent_arms[parent] = Arms.empty(self.config.prior, self.n_agents)
        return [state.agent_arms, arms]

    def _pick_agent(self, state: TreeState, parent: int) -> int:
        """The agent that writes the next child of `parent`: `min_share` first, then the mode."""
        if self.n_agents == 1:
            return 0
        forced = self._forced_agent(state)
        if forced is not None:
            return forced
        mode = self.config.agent_selection
        if mode == "round_robin":
            return state.n_asked % self.n_agents
        arms = self._agent_arms(state, parent)[-1]
        return arms.argmax(state.rng, state.np_rng)

    def _forced_agent(self, state: TreeState) -> int | None:
        """The agent `min_share` requires now, if any: when the agents' unmet quotas fill the
        remaining budget, or when an agent is behind its pro-rata share of the nodes so far."""
        if self.quota == 0:
            return None
        counts = state.agent_counts
        asked = state.n_asked
        need = [max(0, self.quota - c) for c in counts]
        if sum(need) >= state.budget - asked:
            return max(range(self.n_agents), key=lambda a: (need[a], -a))
        target = self.quota * (asked + 1) // state.budget
        behind = [target - c for c in counts]
        worst = max(range(self.n_agents), key=lambda a: (behind[a], -a))
        return worst if behind[worst] > 0 else None


def _quota(min_share: float, budget: int, n_agents: int) -> int:
    """Nodes each agent is guaranteed per tree: ceil(min_share·budget), capped so that every
    agent's quota fits in the budget."""
    if min_share <= 0:
        return 0
    return min(math.ceil(min_share * budget - 1e-9), budget // n_agents)
