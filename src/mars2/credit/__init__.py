"""Credit assignment: raw rewards -> tree-consistent shaped rewards -> path values -> group
advantages, plus dynamic filtering (docs/algorithms.md). Pure Python over finished trees; no torch."""

from __future__ import annotations

from mars2.credit.advantage import EPS, NodeCredit, assign_credit, group_advantages, group_key
from mars2.credit.filtering import filter_groups
from mars2.credit.records import check_node_record, read_node_records
from mars2.credit.rewards import overlong_penalty, raw_reward, rewarded
from mars2.credit.tree import TreeShape, baseline, path_values, shaped_rewards

__all__ = [
    "EPS",
    "NodeCredit",
    "TreeShape",
    "assign_credit",
    "baseline",
    "check_node_record",
    "filter_groups",
    "group_advantages",
    "group_key",
    "overlong_penalty",
    "path_values",
    "raw_reward",
    "read_node_records",
    "rewarded",
    "shaped_rewards",
]
