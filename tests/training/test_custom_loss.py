"""A policy surrogate registered from outside the package (`mars2.register_loss`) is checked when
the config loads and trains a `tiny-random` agent like the built-in ones."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import torch
from torch import Tensor

import mars2
from learner_fixtures import agent_batch, make_config
from mars2.errors import ConfigError
from mars2.registry import LOSSES
from mars2.rl.losses import Surrogate
from mars2.training.learner import Learner
from mars2.training.placement import LocalPlacement

CALLS: list[tuple[int, ...]] = []


def reinforce(
    logp: Tensor,
    old_logp: Tensor,
    advantages: Tensor,
    mask: Tensor,
    clip_low: float,
    clip_high: float,
) -> Surrogate:
    """REINFORCE: -A·log π_θ per token, no ratio and no clip."""
    CALLS.append(tuple(logp.shape))
    per_token = -advantages.unsqueeze(-1) * logp  # [B, T]
    return Surrogate(per_token, torch.ones_like(logp), torch.zeros_like(logp, dtype=torch.bool))


@pytest.fixture
def registered() -> Iterator[str]:
    mars2.register_loss("test-reinforce", reinforce)
    CALLS.clear()
    yield "test-reinforce"
    LOSSES.unregister("test-reinforce")


def test_a_registered_surrogate_trains_one_step(registered: str) -> None:
    config = make_config(
        "agents=[{name: solo, model: tiny-random, max_new_tokens: 48}]",
        f"loss.name={registered}",
        "loss.tis=none",
    )
    placement = LocalPlacement(config)
    learner = placement.learners[0]
    assert isinstance(learner, Learner)
    before = {k: v.clone() for k, v in learner.model.state_dict().items()}
    stats = learner.update(agent_batch(0))
    assert CALLS, "the registered surrogate was not called"
    assert stats["samples"] == 3 and stats["clip_frac"] == 0.0
    assert torch.isfinite(torch.tensor(stats["loss"]))
    after = learner.model.state_dict()
    assert any(not torch.equal(after[k], v) for k, v in before.items())
    placement.close()


def test_loss_names_are_checked_when_the_config_loads(registered: str) -> None:
    with pytest.raises(ConfigError, match="unknown loss") as err:
        make_config("loss.name=test-reinforse")
    assert err.value.field.endswith("name")
    assert "did you mean 'test-reinforce'" in str(err.value)
    with pytest.raises(ConfigError, match="unknown KL estimator"):
        make_config("loss.kl_estimator=k4")
    with pytest.raises(ConfigError, match="unknown aggregation"):
        make_config("loss.aggregation=token-sum")
    dotted = f"{__name__}:reinforce"
    assert make_config(f"loss.name={dotted}").loss.name == dotted
