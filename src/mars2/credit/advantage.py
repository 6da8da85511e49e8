"""From node records to per-node credit: rewards, shaping, path values, overlong penalty and
group advantages (docs/algorithms.md), for trees or for groups of independent samples."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from mars2.config import CreditConfig
from mars2.credit.rewards import overlong_penalty, raw_reward
from mars2.credit.tree import TreeShape, path_values, shaped_rewards
from mars2.types import NodeRecord

EPS = 1e-6  # ε in A = (v - mean) / (std + ε)

GroupKey = tuple[str, int | None]


@dataclass(frozen=True)
class NodeCredit:
    """The credit of one node: raw reward r, shaped reward r̃, path value v (after the overlong
    penalty) and group advantage A. `agent_id` is the agent that wrote the node and trains on it."""

    tree_id: str
    node_id: int
    agent_id: int
    reward: float
    shaped: float
    value: float
    advantage: float

    def to_json(self) -> dict[str, object]:
        return {
            "tree_id": self.tree_id,
            "node_id": self.node_id,
            "agent_id": self.agent_id,
            "reward": self.reward,
            "shaped": self.shaped,
            "value": self.value,
            "advantage": self.advantage,
        }


def group_key(tree_id: str, agent_id: int, group: Literal["tree", "tree_agent"]) -> GroupKey:
    """The advantage group of a node: its tree, or its (tree, agent) pair."""
    return (tree_id, agent_id if group == "tree_agent" else None)


def group_advantages(values: Sequence[float], scale: Literal["std", "none"]) -> list[float]:
    """A_i = (v_i - mean v) / (std v + ε) with the sample std (|G|-1), or v_i - mean v for scale
    `none`; a group of one gets 0. Sums use math.fsum, so the order of `values` cannot matter."""
    n = len(values)
    if n < 2:
        return [0.0] * n
    mean = math.fsum(values) / n
    centred = [v - mean for v in values]
    if scale == "none":
        return centred
    std = math.sqrt(math.fsum(c * c for c in centred) / (n - 1))
    return [c / (std + EPS) for c in centred]


def _tree_terms(
    tree_id: str, records: Sequence[NodeRecord], config: CreditConfig, independent: bool
) -> tuple[list[float], list[float], list[float]]:
    """Raw, shaped and path values of the records of one tree, in the records' order."""
    rewards = [raw_reward(r, config.reward) for r in records]
    if independent:  # vanilla GRPO: shaping and path values are the identity
        return rewards, list(rewards), list(rewards)
    shape = TreeShape.build(tree_id, [(r.node_id, r.parent_id) for r in records])
    by_id = {r.node_id: reward for r, reward in zip(records, rewards, strict=True)}
    shaped = shaped_rewards(shape, by_id, config.gamma, config.lam)
    values = path_values(shape, shaped, config.eta)
    return rewards, [shaped[r.node_id] for r in records], [values[r.node_id] for r in records]


def assign_credit(
    records: Sequence[NodeRecord],
    config: CreditConfig,
    *,
    max_len: int | Mapping[int, int] | None = None,
    independent: bool = False,
) -> list[NodeCredit]:
    """Credit for every record, in input order. Records may span many trees (grouped by
    `tree_id`). `independent=True` treats each tree as a group of independent samples (vanilla
    GRPO: r̃ = v = r). `max_len` is L_max of the overlong penalty, required when
    `config.overlong_buffer` > 0: one number for every agent, or per `agent_id` (each agent's
    own `max_new_tokens`); the penalty uses `record.response_len`."""
    if config.overlong_buffer > 0 and max_len is None:
        raise ValueError("credit.overlong_buffer > 0 needs max_len (the L_max of the penalty)")
    trees: dict[str, list[int]] = {}
    for index, record in enumerate(records):
        trees.setdefault(record.tree_id, []).append(index)
    terms: list[tuple[float, float, float]] = [(0.0, 0.0, 0.0)] * len(records)
    for tree_id, indices in trees.items():
        members = [records[i] for i in indices]
        raw, shaped, values = _tree_terms(tree_id, members, config, independent)
        for i, record, r, s, v in zip(indices, members, raw, shaped, values, strict=True):
            if max_len is not None:
                limit = max_len if isinstance(max_len, int) else max_len[record.agent_id]
                v -= overlong_penalty(
                    record.response_len, limit, config.overlong_buffer, config.overlong_factor
                )
            terms[i] = (r, s, v)
    groups: dict[GroupKey, list[int]] = {}
    for index, record in enumerate(records):
        groups.setdefault(group_key(record.tree_id, record.agent_id, config.group), []).append(
            index
        )
    advantages = [0.0] * len(records)
    for indices in groups.values():
        for i, a in zip(
            indices, group_advantages([terms[i][2] for i in indices], config.scale), strict=True
        ):
            advantages[i] = a
    return [
        NodeCredit(rec.tree_id, rec.node_id, rec.agent_id, r, s, v, a)
        for rec, (r, s, v), a in zip(records, terms, advantages, strict=True)
    ]
