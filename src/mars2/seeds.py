"""Every seed mars2 derives from `config.seed`, in one place (the search, the data order, the
generation requests and the evaluation must never share a stream by accident).

Each function maps its inputs to a seed with a fixed affine formula whose multipliers are
distinct primes, so different purposes and indices land on different seeds; the values are kept
stable across versions (runs and cached evaluations stay reproducible).
"""

from __future__ import annotations

EVAL_OFFSET = 999_983  # evaluation trees never share seeds with training trees


def data_order(seed: int, epoch: int) -> int:
    """The shuffle of the training problems in `epoch`."""
    return seed * 7_919 + epoch


def rollout(seed: int, step: int, round_: int) -> int:
    """The first tree of rollout round `round_` of training step `step` (0-based); tree i of a
    round gets this + i (`Orchestrator.run`)."""
    return seed * 1_000_003 + step * 1_009 + round_ * 101


def evaluation(seed: int) -> int:
    """The first evaluation tree (tree i gets this + i): the same at every evaluation."""
    return seed + EVAL_OFFSET


def node_request(tree_seed: int, node_id: int) -> int:
    """The generation request that writes node `node_id` of a tree seeded `tree_seed`."""
    return tree_seed * 100_003 + node_id


def adapter_init(learner_seed: int) -> int:
    """The initialisation of a learner's LoRA adapter (its A matrices are random; B starts at
    zero). `learner_seed` is the learner's own seed (config.seed + agent index)."""
    return learner_seed * 104_729 + 7
