"""Every seed mars2 derives from `config.seed`, in one place (the search, the data order, the
generation requests and the evaluation must never share a stream by accident).

A seed is a 63-bit integer laid out as `purpose | key | index`:

- bits 60-62 name the purpose (`Purpose`): two seeds of different purposes differ there, so
  they are never equal, whatever the arguments;
- a purpose whose seeds start a run of trees (`rollout`, `evaluation`, `budget`; tree i of the
  run gets the seed + i) keeps its low `INDEX_BITS` bits zero and a `KEY_BITS`-bit hash of its
  arguments above them: + i for i < 2**INDEX_BITS never carries into the key or the purpose, so
  a training tree and an evaluation tree never share a seed (tests/test_seeds.py);
- the other purposes use all 60 bits below the purpose for the hash of their arguments.

Within one purpose, two different arguments share a seed only if their hashes collide (for
`rollout`: ~n**2 / 2**41 for n (step, round) pairs; a million steps would have to run first).
Hashes are SHA-256 of the purpose and the arguments as text: the same on every platform and
Python version. Seeds fit torch's, numpy's and vLLM's 64-bit seed arguments.
"""

from __future__ import annotations

import enum
import hashlib

PURPOSE_SHIFT = 60
INDEX_BITS = 20  # trees per run of trees: tree i of a rollout round or an evaluation gets + i
KEY_BITS = PURPOSE_SHIFT - INDEX_BITS


class Purpose(enum.IntEnum):
    """What a seed is for: its top three bits."""

    DATA_ORDER = 1
    ROLLOUT = 2
    EVALUATION = 3
    NODE_REQUEST = 4
    ADAPTER_INIT = 5
    BUDGET = 6


def _hash(purpose: Purpose, args: tuple[int, ...], bits: int) -> int:
    text = ":".join([purpose.name, *(str(int(a)) for a in args)])
    digest = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
    return digest & ((1 << bits) - 1)


def _value(purpose: Purpose, *args: int) -> int:
    """A single seed of `purpose`: the purpose's bits over a 60-bit hash of `args`."""
    return (int(purpose) << PURPOSE_SHIFT) | _hash(purpose, args, PURPOSE_SHIFT)


def _block(purpose: Purpose, *args: int) -> int:
    """The first seed of a run of trees: purpose, a hash of `args`, and INDEX_BITS zero bits."""
    key = _hash(purpose, args, KEY_BITS)
    return (int(purpose) << PURPOSE_SHIFT) | (key << INDEX_BITS)


def purpose_of(seed: int) -> Purpose:
    """The purpose a seed of this module was derived for."""
    return Purpose(seed >> PURPOSE_SHIFT)


def data_order(seed: int, epoch: int) -> int:
    """The shuffle of the training problems in `epoch`."""
    return _value(Purpose.DATA_ORDER, seed, epoch)


def rollout(seed: int, step: int, round_: int) -> int:
    """The first tree of rollout round `round_` of training step `step` (0-based); tree i of a
    round gets this + i (`Orchestrator.run`), for i < 2**INDEX_BITS."""
    return _block(Purpose.ROLLOUT, seed, step, round_)


def evaluation(seed: int) -> int:
    """The first evaluation tree (tree i gets this + i, i < 2**INDEX_BITS): the same at every
    evaluation."""
    return _block(Purpose.EVALUATION, seed)


def budget(seed: int) -> int:
    """The first tree of an equal-budget comparison (`mars2 budget`; tree i gets this + i,
    i < 2**INDEX_BITS): every arm of the comparison (independent sampling and each search
    algorithm, at every budget) grows problem i's tree from the same seed, so the arms share
    their random numbers as far as their choices agree; never an evaluation's or a training
    tree's seed."""
    return _block(Purpose.BUDGET, seed)


def tree(first: int, index: int) -> int:
    """Tree `index` of a run of trees whose first tree is seeded `first` (a `rollout`, an
    `evaluation` or a `budget` seed): `first + index`, which stays within the run's purpose and
    key for index < 2**INDEX_BITS."""
    return first + index


def learner(seed: int, agent_id: int) -> int:
    """The learner that trains agent `agent_id`'s weights (its sample order and, through
    `adapter_init`, its LoRA initialisation): `seed + agent_id`. An engine that must hold the same
    initial adapter derives it from the owning agent's learner seed."""
    return seed + agent_id


def policy(seed: int, agent_id: int) -> int:
    """Agent `agent_id`'s generation Policy (a backend's fallback stream; every request a tree
    makes carries its own `node_request` seed): `seed + agent_id`."""
    return seed + agent_id


def node_request(tree_seed: int, node_id: int) -> int:
    """The generation request that writes node `node_id` of a tree seeded `tree_seed`."""
    return _value(Purpose.NODE_REQUEST, tree_seed, node_id)


def adapter_init(learner_seed: int) -> int:
    """The initialisation of a learner's LoRA adapter (its A matrices are random; B starts at
    zero). `learner_seed` is the learner's own seed (`learner`)."""
    return _value(Purpose.ADAPTER_INIT, learner_seed)
