"""The seed streams of mars2.seeds: purposes never share a seed, trees of a rollout round never
share one with the trees of an evaluation, and every seed fits a 64-bit seed argument."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from mars2 import seeds

config_seeds = st.integers(min_value=-(2**40), max_value=2**40)
small = st.integers(min_value=0, max_value=10**6)
tree_index = st.integers(min_value=0, max_value=2**seeds.INDEX_BITS - 1)


def test_the_old_collision_is_gone() -> None:
    # evaluation(1) + 19 used to be rollout(1, 0, 0): the first training tree of step 1
    # grew the 20th evaluation tree's search and requests.
    training = {seeds.rollout(1, 0, 0) + i for i in range(1000)}
    assert not training & {seeds.evaluation(1) + i for i in range(1000)}


@settings(max_examples=500, deadline=None)
@given(config_seeds, config_seeds, small, st.integers(0, 64), tree_index, tree_index)
def test_training_and_evaluation_trees_never_share_a_seed(
    seed: int, eval_seed: int, step: int, round_: int, i: int, j: int
) -> None:
    train_tree = seeds.rollout(seed, step, round_) + i
    eval_tree = seeds.evaluation(eval_seed) + j
    assert train_tree != eval_tree
    assert seeds.purpose_of(train_tree) is seeds.Purpose.ROLLOUT
    assert seeds.purpose_of(eval_tree) is seeds.Purpose.EVALUATION


@settings(max_examples=300, deadline=None)
@given(config_seeds, small, small, st.integers(0, 64), tree_index)
def test_every_purpose_has_its_own_range(
    seed: int, epoch: int, step: int, round_: int, i: int
) -> None:
    tree = seeds.rollout(seed, step, round_) + i
    values = {
        seeds.Purpose.DATA_ORDER: seeds.data_order(seed, epoch),
        seeds.Purpose.ROLLOUT: tree,
        seeds.Purpose.EVALUATION: seeds.evaluation(seed) + i,
        seeds.Purpose.NODE_REQUEST: seeds.node_request(tree, round_),
        seeds.Purpose.ADAPTER_INIT: seeds.adapter_init(seed + step),
        seeds.Purpose.BUDGET: seeds.budget(seed) + i,
    }
    for purpose, value in values.items():
        assert 0 <= value < 2**63  # torch, numpy and vLLM take it
        assert seeds.purpose_of(value) is purpose
    assert len(set(values.values())) == len(values)


def test_rollout_rounds_of_a_long_run_get_disjoint_runs_of_trees() -> None:
    # 4 config seeds x 2000 steps x 4 rounds: no two runs of trees share a key
    blocks = [
        seeds.rollout(seed, step, round_) >> seeds.INDEX_BITS
        for seed, step, round_ in itertools.product(range(4), range(2000), range(4))
    ]
    assert len(set(blocks)) == len(blocks)
    assert len({seeds.evaluation(s) for s in range(1000)}) == 1000


def test_node_requests_of_one_tree_differ_and_repeat() -> None:
    tree = seeds.rollout(0, 3, 1) + 5
    requests = [seeds.node_request(tree, n) for n in range(64)]
    assert len(set(requests)) == 64
    assert requests == [seeds.node_request(tree, n) for n in range(64)]
    assert seeds.node_request(tree + 1, 0) not in requests


def test_seeds_are_pinned() -> None:
    # SHA-256 of text: the same on every platform and Python version. A change here changes
    # every run's samples and every cached evaluation's key; change these values knowingly.
    assert seeds.evaluation(0) == 4478944280778375168
    assert seeds.rollout(0, 0, 0) == 2489684887217373184
    assert seeds.data_order(0, 0) == 1805646188241388764
    assert seeds.node_request(5, 1) == 5513342511960638578
    assert seeds.adapter_init(0) == 6354210740113326599


def test_named_derivations_keep_the_values_they_had_as_sums() -> None:
    # Trees, learners and policies were seeded `first + i` / `config.seed + agent_id` in their
    # own modules before seeds.py named these derivations; the names change no seeded output.
    assert seeds.tree(seeds.rollout(0, 0, 0), 5) == 2489684887217373189  # 2489684887217373184 + 5
    assert seeds.tree(seeds.evaluation(0), 0) == 4478944280778375168
    assert seeds.learner(7, 0) == 7 and seeds.learner(7, 1) == 8
    assert seeds.policy(7, 0) == 7 and seeds.policy(7, 2) == 9
    # the debugger (agent 1) of seed 0 initialises its LoRA adapter as before
    assert seeds.adapter_init(seeds.learner(0, 1)) == 6427486370982611558
