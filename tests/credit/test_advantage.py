"""Credit assignment on hand-computed trees (docs/algorithms.md). Unless a test says otherwise:
γ=0.5, λ=0.5, η=0.3, group=tree, scale=std, reward=fraction, ε=1e-6."""

from __future__ import annotations

import math

import pytest
from credit_records import node

from mars2.config import CreditConfig
from mars2.credit import EPS, NodeCredit, assign_credit, group_advantages
from mars2.errors import UserError

CFG = CreditConfig(reward="fraction", gamma=0.5, lam=0.5, eta=0.3, group="tree", scale="std")


def zscores(values: list[float]) -> list[float]:
    n = len(values)
    mean = sum(values) / n
    std = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return [(v - mean) / (std + EPS) for v in values]


def check(credits: list[NodeCredit], shaped: list[float], values: list[float]) -> None:
    assert [c.shaped for c in credits] == pytest.approx(shaped, abs=1e-12)
    assert [c.value for c in credits] == pytest.approx(values, abs=1e-12)
    assert [c.advantage for c in credits] == pytest.approx(zscores(values), abs=1e-9)


def test_refinement_chain() -> None:
    # root -> 0 (r=0) -> 1 (r=0.5) -> 2 (r=1)
    # node 0: no parent, no siblings -> b = r0 = 0 -> r̃0 = 0
    # node 1: parent only -> b = r0 = 0   -> r̃1 = 0.5 + 0.5·(0.5 - 0) = 0.75
    # node 2: parent only -> b = r1 = 0.5 -> r̃2 = 1 + 0.5·(1 - 0.5)   = 1.25
    # v2 = 1.25; v1 = 0.7·0.75 + 0.3·1.25 = 0.9; v0 = 0.7·0 + 0.3·0.9 = 0.27
    # mean v = 2.42/3 = 0.80667; sample std = sqrt((0.53667² + 0.09333² + 0.44333²)/2) = 0.49662
    credits = assign_credit([node(0, None, 0.0), node(1, 0, 0.5), node(2, 1, 1.0)], CFG)
    check(credits, [0.0, 0.75, 1.25], [0.27, 0.9, 1.25])
    assert [c.advantage for c in credits] == pytest.approx([-1.08063, 0.18794, 0.89269], abs=1e-5)


def test_bushy_root() -> None:
    # four children of the root, rewards 1, 0, 0, 0.5: only the sibling term exists
    # a: b = (0+0+0.5)/3 = 1/6 -> r̃ = 1 + 0.5·(5/6)     = 17/12
    # b, c: b = (1+0+0.5)/3 = 1/2 -> r̃ = 0 + 0.5·(-1/2) = -3/12
    # d: b = (1+0+0)/3 = 1/3 -> r̃ = 0.5 + 0.5·(1/6)     = 7/12
    # leaves: v = r̃; mean v = (17-3-3+7)/12/4 = 3/8; deviations 12.5/12, -7.5/12, -7.5/12, 2.5/12
    # sample std = sqrt((12.5² + 2·7.5² + 2.5²)/144/3) = sqrt(275/432)
    records = [node(i, None, r) for i, r in enumerate([1.0, 0.0, 0.0, 0.5])]
    credits = assign_credit(records, CFG)
    shaped = [17 / 12, -3 / 12, -3 / 12, 7 / 12]
    check(credits, shaped, shaped)
    std = math.sqrt(275 / 432)
    expected = [d / 12 / (std + EPS) for d in (12.5, -7.5, -7.5, 2.5)]
    assert [c.advantage for c in credits] == pytest.approx(expected, abs=1e-12)


def test_refinement_fan_uses_parent_and_siblings() -> None:
    # root -> p (r=0.5) -> x (1), y (0), z (0); γ=1, λ=0.5, η=0.5
    # p: neither parent nor siblings -> b = r_p -> r̃p = 0.5
    # x: b = 0.5·0.5 + 0.5·mean(0, 0) = 0.25 -> r̃x = 1 + (1 - 0.25) = 1.75
    # y: b = 0.5·0.5 + 0.5·mean(1, 0) = 0.5  -> r̃y = 0 + (0 - 0.5) = -0.5; z likewise
    # v_p = 0.5·0.5 + 0.5·max(1.75, -0.5, -0.5) = 1.125
    cfg = CreditConfig(reward="fraction", gamma=1.0, lam=0.5, eta=0.5)
    records = [node(10, None, 0.5), node(11, 10, 1.0), node(12, 10, 0.0), node(13, 10, 0.0)]
    check(assign_credit(records, cfg), [0.5, 1.75, -0.5, -0.5], [1.125, 1.75, -0.5, -0.5])


def two_agent_tree() -> list:  # type: ignore[type-arg]
    # root -> 0 (agent 0, r=0) -> 1 (agent 1, r=0.5) -> 2 (agent 0, r=1); root -> 3 (agent 1, r=0.25)
    return [
        node(0, None, 0.0, agent=0),
        node(1, 0, 0.5, agent=1),
        node(2, 1, 1.0, agent=0),
        node(3, None, 0.25, agent=1),
    ]


def test_two_agents_share_one_tree_but_group_per_agent() -> None:
    # node 0: sibling 3 -> b = 0.25 -> r̃0 = 0 + 0.5·(0 - 0.25) = -0.125
    # node 3: sibling 0 -> b = 0    -> r̃3 = 0.25 + 0.5·0.25   = 0.375
    # node 1: parent 0 -> b = 0     -> r̃1 = 0.5 + 0.5·0.5     = 0.75
    # node 2: parent 1 -> b = 0.5   -> r̃2 = 1 + 0.5·0.5       = 1.25
    # v2 = 1.25; v1 = 0.7·0.75 + 0.3·1.25 = 0.9; v0 = 0.7·(-0.125) + 0.3·0.9 = 0.1825; v3 = 0.375
    shaped, values = [-0.125, 0.75, 1.25, 0.375], [0.1825, 0.9, 1.25, 0.375]
    check(assign_credit(two_agent_tree(), CFG), shaped, values)
    # group (tree, agent): agent 0 has {0.1825, 1.25}, agent 1 has {0.9, 0.375}. For a pair, the
    # deviations are ±d and the sample std is d·√2, so A = ±d/(d·√2 + ε) ≈ ±1/√2.
    per_agent = CreditConfig(reward="fraction", gamma=0.5, lam=0.5, eta=0.3, group="tree_agent")
    credits = assign_credit(two_agent_tree(), per_agent)
    assert [c.value for c in credits] == pytest.approx(values, abs=1e-12)
    d0, d1 = (1.25 - 0.1825) / 2, (0.9 - 0.375) / 2
    expected = [
        -d0 / (d0 * math.sqrt(2) + EPS),
        d1 / (d1 * math.sqrt(2) + EPS),
        d0 / (d0 * math.sqrt(2) + EPS),
        -d1 / (d1 * math.sqrt(2) + EPS),
    ]
    assert [c.advantage for c in credits] == pytest.approx(expected, abs=1e-12)
    assert [c.agent_id for c in credits] == [0, 1, 0, 1]


def test_ties_get_equal_credit() -> None:
    # binary rewards: root -> p (fails) -> c1 (passes), c2 (passes)
    # p: b = r_p = 0 -> r̃p = 0
    # c1, c2: b = 0.5·0 + 0.5·1 = 0.5 -> r̃ = 1 + 0.5·0.5 = 1.25; the max over tied children is 1.25
    # v_p = 0.7·0 + 0.3·1.25 = 0.375
    cfg = CreditConfig(reward="binary", gamma=0.5, lam=0.5, eta=0.3)
    records = [node(0, None, 0.2), node(1, 0, 1.0), node(2, 0, 1.0)]
    credits = assign_credit(records, cfg)
    check(credits, [0.0, 1.25, 1.25], [0.375, 1.25, 1.25])
    assert credits[1].advantage == credits[2].advantage > 0


def test_single_node() -> None:
    # neither parent nor siblings: b = r, r̃ = r, v = r; a group of one gets A = 0
    (credit,) = assign_credit([node(0, None, 0.7)], CFG)
    assert (credit.reward, credit.shaped, credit.value, credit.advantage) == (0.7, 0.7, 0.7, 0.0)


def test_all_equal_rewards_give_zero_advantages() -> None:
    # every baseline equals r, so r̃ = r = 1; v = 0.7·1 + 0.3·1 = 1; every A = 0/(0 + ε) = 0
    records = [node(0, None, 1.0), node(1, 0, 1.0), node(2, 0, 1.0), node(3, None, 1.0)]
    credits = assign_credit(records, CFG)
    check(credits, [1.0] * 4, [1.0] * 4)
    assert all(c.advantage == 0.0 for c in credits)


def test_scale_none_only_centres() -> None:
    # Dr. GRPO: A = v - mean v; the chain values 0.27, 0.9, 1.25 have mean 2.42/3
    cfg = CreditConfig(reward="fraction", gamma=0.5, lam=0.5, eta=0.3, scale="none")
    credits = assign_credit([node(0, None, 0.0), node(1, 0, 0.5), node(2, 1, 1.0)], cfg)
    mean = 2.42 / 3
    assert [c.advantage for c in credits] == pytest.approx([0.27 - mean, 0.9 - mean, 1.25 - mean])


def test_trees_are_grouped_by_tree_id_and_output_keeps_input_order() -> None:
    # two interleaved single-level trees; each is its own group
    records = [node(0, None, 1.0, tree="a"), node(0, None, 0.0, tree="b")]
    records += [node(1, None, 0.0, tree="a"), node(1, None, 1.0, tree="b")]
    credits = assign_credit(records, CreditConfig(gamma=0.0, eta=0.0))
    assert [(c.tree_id, c.node_id) for c in credits] == [("a", 0), ("b", 0), ("a", 1), ("b", 1)]
    # each group {1, 0}: mean 0.5, sample std sqrt(0.5) -> A = ±0.5/(sqrt(0.5) + ε)
    a = 0.5 / (math.sqrt(0.5) + EPS)
    assert [c.advantage for c in credits] == pytest.approx([a, -a, -a, a], abs=1e-12)


def test_independent_samples_are_vanilla_grpo() -> None:
    # parent links are ignored; r̃ = v = r; A = per-group z-score of the raw rewards
    records = [node(i, None, r, tree="g") for i, r in enumerate([1.0, 0.0, 0.0, 0.5])]
    records.append(node(4, 0, 1.0, tree="g"))  # a parent link that must not matter
    credits = assign_credit(records, CFG, independent=True)
    raw = [1.0, 0.0, 0.0, 0.5, 1.0]
    assert [c.shaped for c in credits] == raw and [c.value for c in credits] == raw
    assert [c.advantage for c in credits] == pytest.approx(zscores(raw), abs=1e-12)


def test_overlong_penalty_applies_to_the_node_value_only() -> None:
    # L_max = 100, B = 20, f = 0.5: the penalty starts above 80 tokens.
    # chain root -> 0 (r=1, 95 tokens) -> 1 (r=1, 50 tokens); γ = 0 (no shaping), η = 0.5
    # v1 = 1; v0 = 0.5·1 + 0.5·1 = 1, then v0 -= 0.5·min(95 - 80, 20)/20 = 0.375 -> 0.625
    cfg = CreditConfig(gamma=0.0, eta=0.5, overlong_buffer=20, overlong_factor=0.5)
    records = [node(0, None, 1.0, length=95), node(1, 0, 1.0, length=50)]
    credits = assign_credit(records, cfg, max_len=100)
    assert [c.value for c in credits] == pytest.approx([0.625, 1.0])
    assert [c.shaped for c in credits] == [1.0, 1.0]
    with pytest.raises(ValueError, match="max_len"):
        assign_credit(records, cfg)


def test_group_advantages_edge_cases() -> None:
    assert group_advantages([], "std") == []
    assert group_advantages([3.0], "std") == [0.0]
    assert group_advantages([1.0, 3.0], "none") == [-1.0, 1.0]


@pytest.mark.parametrize(
    ("records", "message"),
    [
        ([node(0, None, 1.0), node(0, None, 0.0)], "node 0 appears more than once"),
        ([node(0, None, 1.0), node(1, 7, 0.0)], "parent 7"),
        ([node(0, None, 1.0), node(1, 2, 0.0), node(2, 1, 0.0)], "not connected to the root"),
    ],
)
def test_malformed_trees_raise_user_errors(records: list, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(UserError, match=message):
        assign_credit(records, CFG)
