"""Dynamic filtering of zero-variance groups and per-agent batch filling."""

from __future__ import annotations

import pytest
from credit_records import node

from mars2.config import CreditConfig
from mars2.credit import AgentBatcher, NodeCredit, assign_credit, filter_groups


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


def test_batcher_fills_each_agent_and_drops_surplus() -> None:
    batcher: AgentBatcher[NodeCredit] = AgentBatcher({0: 2, 1: 3})
    batcher.add([credit("a", i, i % 2, 1.0) for i in range(4)])  # agents 0,1,0,1
    assert batcher.ready(0) and not batcher.ready(1) and not batcher.all_ready()
    assert batcher.missing(1) == 1
    batcher.add([credit("b", 0, 1, 0.0), credit("b", 1, 2, 0.0)])  # agent 2 has no batch: ignored
    assert batcher.all_ready()
    batch = batcher.take(1)
    assert [(c.tree_id, c.node_id) for c in batch] == [("a", 1), ("a", 3), ("b", 0)]
    batcher.add([credit("c", 0, 0, 1.0)])  # agent 0 now has 3 waiting
    assert [c.tree_id for c in batcher.take(0)] == ["a", "a"]
    assert batcher.pending(0) == 0  # the surplus was dropped


def test_batcher_can_keep_surplus_and_refuses_an_unready_take() -> None:
    batcher: AgentBatcher[NodeCredit] = AgentBatcher({0: 1})
    with pytest.raises(ValueError, match="not full"):
        batcher.take(0)
    batcher.add([credit("a", 0, 0, 1.0), credit("a", 1, 0, 0.0)])
    assert [c.node_id for c in batcher.take(0, keep_surplus=True)] == [0]
    assert [c.node_id for c in batcher.take(0)] == [1]
    with pytest.raises(ValueError, match="batch size"):
        AgentBatcher({0: 0})
