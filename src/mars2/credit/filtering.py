"""Dynamic filtering: drop groups whose raw rewards are all equal. The training loop refills
(`Trainer.train_step`: more rollout rounds until every agent's batch holds
`train.min_samples_per_agent` samples)."""

from __future__ import annotations

from collections.abc import Sequence

from mars2.config import CreditConfig
from mars2.credit.advantage import GroupKey, NodeCredit, group_key


def filter_groups(credits: Sequence[NodeCredit], config: CreditConfig) -> list[NodeCredit]:
    """The credits whose advantage group (config.group: tree or (tree, agent)) has at least two
    distinct raw rewards, in input order; all of them when `config.dynamic_filter` is off.

    A group whose raw rewards are all equal carries no learning signal in GRPO (every advantage
    is 0 when shaping only compares raw rewards), so DAPO drops it and samples more instead."""
    if not config.dynamic_filter:
        return list(credits)
    rewards: dict[GroupKey, set[float]] = {}
    for c in credits:
        rewards.setdefault(group_key(c.tree_id, c.agent_id, config.group), set()).add(c.reward)
    return [c for c in credits if len(rewards[group_key(c.tree_id, c.agent_id, config.group)]) > 1]
