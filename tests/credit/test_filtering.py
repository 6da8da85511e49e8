"""Dynamic filtering of zero-variance groups and per-agent batch filling."""

from __future__ import annotations

from credit_records import node

from mars2.config import CreditConfig
from mars2.credit import NodeCredit, assign_credit, filter_groups


def credit(tree: str, node_id: int, agent: int, reward: float) -> NodeCredit:
    return NodeCredit(tree, node_id, agent, reward, reward, reward, 0.0)


def test_filter_drops_trees_whose_raw_rewards_are_all_equal() -> None:
    credits = [
        credit("a", 0, 0, 1.0),
        credit("b", 0, 0, 0.0),  # tree b: all 0 -> dropped
        credit("a", 1, 1, 0.0),
        credit("b", 1, 1, 0.0),
        credit("c", 0, 0, 0.5),  # tree c: one node -> dropped
    ]
    kept = filter_groups(credits, CreditConfig(group="tree"))
    assert [(c.tree_id, c.node_id) for c in kept] == [("a", 0), ("a", 1)]


def test_filter_uses_the_advantage_group() -> None:
    # with group tree_agent, tree a splits into {agent 0: 1.0, 0.0} and {agent 1: 0.5, 0.5}
    credits = [
        credit("a", 0, 0, 1.0),
        credit("a", 1, 0, 0.0),
        credit("a", 2, 1, 0.5),
        credit("a", 3, 1, 0.5),
    ]
    kept = filter_groups(credits, CreditConfig(group="tree_agent"))
    assert [c.node_id for c in kept] == [0, 1]
    assert len(filter_groups(credits, CreditConfig(group="tree"))) == 4


def test_filter_off_keeps_everything() -> None:
    credits = [credit("a", 0, 0, 1.0), credit("a", 1, 0, 1.0)]
    assert filter_groups(credits, CreditConfig(dynamic_filter=False)) == credits


def test_filter_after_assign_credit_keeps_raw_reward_semantics() -> None:
    # binary rewards all 0 but different scores: the raw reward (binary) decides, not the score
    records = [node(0, None, 0.2), node(1, 0, 0.6)]
    credits = assign_credit(records, CreditConfig(reward="binary"))
    assert filter_groups(credits, CreditConfig(reward="binary")) == []
    credits = assign_credit(records, CreditConfig(reward="fraction"))
    assert len(filter_groups(credits, CreditConfig(reward="fraction"))) == 2
