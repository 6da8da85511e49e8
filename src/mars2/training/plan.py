"""What `train.mode` means, in one place: the training rollout's search and how its nodes are credited."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from mars2.config import Config, SearchConfig


@dataclass(frozen=True)
class RolloutPlan:
    """How one training step samples a problem. `search`: the rollout's search (evaluations use
    `evaluation.protocol.eval_search`, the same for both modes); `independent`: the nodes of a
    group are independent samples, so credit assignment skips the tree terms (shaping, path
    values); `nodes_per_problem`: nodes generated per problem in a rollout round."""

    search: SearchConfig
    independent: bool

    @property
    def nodes_per_problem(self) -> int:
        return self.search.budget


def plan_for(config: Config) -> RolloutPlan:
    """The rollout plan of `train.mode`: `mcts` grows trees with `search`; `grpo` draws
    `train.samples_per_problem` independent samples per problem, all at once (`sampling` with every
    expansion in flight), so the engine prefills their shared prompt once."""
    if config.train.mode == "grpo":
        n = config.train.samples_per_problem
        search = dataclasses.replace(
            config.search, algo="sampling", budget=n, parallel_expansions=n
        )
        return RolloutPlan(search=search, independent=True)
    return RolloutPlan(search=config.search, independent=False)
