"""Properties of credit assignment over random forests: order invariance, reduction to z-scores."""

from __future__ import annotations

import math

from credit_records import node
from hypothesis import given, settings
from hypothesis import strategies as st

from mars2.config import CreditConfig
from mars2.credit import EPS, assign_credit
from mars2.types import NodeRecord

REWARDS = st.sampled_from([0.0, 0.25, 0.5, 1.0])  # few values, so ties are common


@st.composite
def forests(draw: st.DrawFn) -> list[NodeRecord]:
    """1-3 trees of 1-12 nodes; node i's parent is the root or an earlier node; ids scrambled."""
    records: list[NodeRecord] = []
    for t in range(draw(st.integers(1, 3))):
        n = draw(st.integers(1, 12))
        ids = draw(st.permutations(range(100, 100 + n)))
        for i in range(n):
            parent = draw(st.integers(-1, i - 1))
            records.append(
                node(
                    ids[i],
                    None if parent < 0 else ids[parent],
                    draw(REWARDS),
                    tree=f"t{t}",
                    agent=draw(st.integers(0, 2)),
                    length=draw(st.integers(0, 120)),
                )
            )
    return records


CONFIGS = st.builds(
    CreditConfig,
    reward=st.sampled_from(["binary", "fraction"]),
    gamma=st.sampled_from([0.0, 0.5, 1.0]),
    lam=st.sampled_from([0.0, 0.3, 1.0]),
    eta=st.sampled_from([0.0, 0.3, 1.0]),
    group=st.sampled_from(["tree", "tree_agent"]),
    scale=st.sampled_from(["std", "none"]),
    overlong_buffer=st.sampled_from([0, 16]),
)


@settings(max_examples=150, deadline=None)
@given(records=forests(), config=CONFIGS, seed=st.randoms(use_true_random=False))
def test_shuffling_node_order_changes_nothing(
    records: list[NodeRecord], config: CreditConfig, seed: object
) -> None:
    shuffled = list(records)
    seed.shuffle(shuffled)  # type: ignore[attr-defined]
    before = {(c.tree_id, c.node_id): c for c in assign_credit(records, config, max_len=100)}
    after = {(c.tree_id, c.node_id): c for c in assign_credit(shuffled, config, max_len=100)}
    assert before == after  # exact: sums are math.fsum, maxima and means order-free


@settings(max_examples=100, deadline=None)
@given(records=forests())
def test_no_shaping_no_path_value_gives_per_tree_zscores(records: list[NodeRecord]) -> None:
    credits = assign_credit(records, CreditConfig(reward="fraction", gamma=0.0, eta=0.0))
    for tree in {r.tree_id for r in records}:
        rewards = [r.score for r in records if r.tree_id == tree]
        got = [c.advantage for c in credits if c.tree_id == tree]
        n, mean = len(rewards), sum(rewards) / len(rewards)
        if n == 1:
            assert got == [0.0]
            continue
        std = math.sqrt(sum((r - mean) ** 2 for r in rewards) / (n - 1))
        for a, r in zip(got, rewards, strict=True):
            assert math.isclose(a, (r - mean) / (std + EPS), rel_tol=1e-9, abs_tol=1e-9)


@settings(max_examples=100, deadline=None)
@given(records=forests(), config=CONFIGS)
def test_advantages_are_centred_per_group(records: list[NodeRecord], config: CreditConfig) -> None:
    credits = assign_credit(records, config, max_len=100)
    groups: dict[tuple[str, int | None], list[float]] = {}
    for c in credits:
        key = (c.tree_id, c.agent_id if config.group == "tree_agent" else None)
        groups.setdefault(key, []).append(c.advantage)
    for advantages in groups.values():
        assert abs(math.fsum(advantages)) < 1e-9 * max(1.0, len(advantages))
