"""The learner's `logp_diff`: mean |log π_old - log π_rollout| over the response tokens, the
figure the GPU check gates a weight sync on."""

from __future__ import annotations

import dataclasses

import pytest
import torch

from learner_fixtures import _Tok, samples, tiny_model
from mars2.config import AgentConfig, LossConfig, TrainConfig
from mars2.engine.logprobs import token_logprobs
from mars2.training.learner import Learner, pad_batch


def own_logprobs(model: torch.nn.Module) -> list[list[float]]:
    """Each sample's response log-probs under `model` (what an engine with its weights samples)."""
    out = []
    for s in samples():
        ids, attention, mask, _ = pad_batch([s], pad_id=0)
        logp = token_logprobs(model, ids, attention, temperature=1.0, positions=mask)
        out.append(logp[0][mask[0].bool()].tolist())
    return out


@pytest.mark.parametrize("updates", [1, 2])
def test_logp_diff_is_the_mean_gap_to_the_engine(updates: int) -> None:
    model = tiny_model()
    exact = own_logprobs(model)
    learner = Learner(
        model,
        _Tok(),
        AgentConfig(temperature=1.0),
        TrainConfig(lr=1e-2, updates_per_step=updates),
        LossConfig(),
        total_updates=4,
    )
    same = [
        dataclasses.replace(s, rollout_logprobs=lp) for s, lp in zip(samples(), exact, strict=True)
    ]
    assert learner.update(same)["logp_diff"] == pytest.approx(0.0, abs=1e-5)
    # the engine one update behind: its log-probs are the pre-update ones, 0.25 nats off here
    stale = own_logprobs(learner.model)
    shifted = [
        dataclasses.replace(s, rollout_logprobs=[v - 0.25 for v in lp])
        for s, lp in zip(samples(), stale, strict=True)
    ]
    assert learner.update(shifted)["logp_diff"] == pytest.approx(0.25, abs=1e-4)
