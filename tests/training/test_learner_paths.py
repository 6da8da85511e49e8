"""Learner paths the smoke config does not take: several optimizer steps per training step
(`train.updates_per_step > 1`) and the KL term against a frozen reference (`loss.kl_coef > 0`),
with full weights (a frozen copy) and with LoRA (the base with the adapters off)."""

from __future__ import annotations

import copy

import pytest
import torch

from learner_fixtures import _Tok, tiny_model
from learner_fixtures import samples as batch
from mars2.config import AgentConfig, LossConfig, TrainConfig
from mars2.engine.logprobs import token_logprobs
from mars2.training.learner import Learner, pad_batch
from mars2.types import Sample


def learner(model: torch.nn.Module, *, updates: int = 1, kl: float = 0.0, lora: int = 0) -> Learner:
    agent = AgentConfig(model="tiny", lora_rank=lora, max_new_tokens=8)
    train = TrainConfig(lr=1e-2, micro_batch_size=2, updates_per_step=updates)
    return Learner(
        model, _Tok(), agent, train, LossConfig(kl_coef=kl, tis="none"), total_updates=10
    )


def logprobs(model: torch.nn.Module, samples: list[Sample]) -> torch.Tensor:
    ids, attention, mask, _ = pad_batch(samples, 0)
    with torch.no_grad():
        return token_logprobs(model, ids, attention) * mask


def test_updates_per_step_splits_the_batch_into_optimizer_steps_against_one_old_policy() -> None:
    base = tiny_model()
    two = learner(copy.deepcopy(base), updates=2)
    stats = two.update(batch())
    assert two.scheduler.last_epoch == 2  # two optimizer steps in one training step
    assert stats["samples"] == 4
    # The second mini-batch is scored against the policy before the first step: ratio != 1.
    assert abs(stats["ratio_mean"] - 1.0) > 1e-6
    assert learner(copy.deepcopy(base)).update(batch())["ratio_mean"] == pytest.approx(1.0)

    # The same two steps by hand: shuffled with the learner's seed, split i::2, "old" log-probs
    # of both mini-batches taken before the first step.
    manual = learner(copy.deepcopy(base), updates=2)
    samples = batch()
    manual.rng.shuffle(samples)
    manual.model.eval()
    minis = [samples[0::2], samples[1::2]]
    olds = [manual._logprobs(manual.model, mini, grad=False) for mini in minis]
    for mini, old in zip(minis, olds, strict=True):
        manual._optimizer_step(mini, old, None)
    for (name, a), (_, b) in zip(
        two.model.named_parameters(), manual.model.named_parameters(), strict=True
    ):
        assert torch.allclose(a, b, atol=1e-6), name


def test_updates_per_step_above_the_batch_size_takes_one_step_per_sample() -> None:
    many = learner(tiny_model(), updates=8)
    many.update(batch()[:3])
    assert many.scheduler.last_epoch == 3


def test_kl_with_full_weights_keeps_a_frozen_copy_of_the_initial_model() -> None:
    base = tiny_model()
    trained = learner(copy.deepcopy(base), kl=0.5)
    assert trained.ref is not None and trained.ref is not trained.model
    first = trained.update(batch())
    assert first["kl"] == pytest.approx(0.0, abs=1e-7)  # the policy is still the reference
    second = trained.update(batch())
    assert second["kl"] > 0
    for (name, ref), (_, init) in zip(
        trained.ref.named_parameters(), base.named_parameters(), strict=True
    ):
        assert not ref.requires_grad
        assert torch.equal(ref, init), name  # the reference never trains
    moved = any(
        not torch.equal(p, q)
        for p, q in zip(trained.model.parameters(), base.parameters(), strict=True)
    )
    assert moved


def test_kl_pulls_the_policy_towards_the_reference() -> None:
    base = tiny_model()
    free, held = learner(copy.deepcopy(base)), learner(copy.deepcopy(base), kl=50.0)
    for _ in range(4):
        free.update(batch())
        held.update(batch())
    ref = logprobs(base, batch())
    drift_free = (logprobs(free.model, batch()) - ref).abs().sum()
    drift_held = (logprobs(held.model, batch()) - ref).abs().sum()
    assert drift_held < drift_free


def test_kl_with_lora_uses_the_base_with_adapters_off_and_copies_nothing() -> None:
    base = tiny_model()
    trained = learner(copy.deepcopy(base), kl=0.5, lora=4)
    assert trained.ref is None  # no second model in memory
    trained.update(batch())
    stats = trained.update(batch())
    assert stats["kl"] > 0  # the adapters moved the policy away from the base
    ref = trained._reference_logprobs(batch())
    assert ref is not None
    want = trained._logprobs(base, batch(), grad=False)  # the untouched base model
    for got, expected in zip(ref, want, strict=True):
        assert torch.allclose(got, expected, atol=1e-5)
    current = trained._logprobs(trained.model, batch(), grad=False)
    assert not all(torch.allclose(a, b) for a, b in zip(current, want, strict=True))
