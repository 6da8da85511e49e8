"""What every backend shares: one `stats()` over its counters, and one definition of the engine
settings that an evaluation's protocol records."""

from __future__ import annotations

import pytest

from mars2.agents.base import ENGINE_FIELDS, EngineSettings, PolicyBase
from mars2.config import AgentConfig


class Counting(PolicyBase):
    def __init__(self, counters: dict[str, float]) -> None:
        self._init_policy("counting", seed=0)
        self._counters = counters


def test_stats_adds_requests_and_tokens_per_second_to_the_counters() -> None:
    policy = Counting({"tokens_generated": 30.0, "prompt_tokens": 7.0, "generate_s": 2.0})
    policy._next_seed(None)
    policy._next_seed(5)
    assert policy.stats() == {
        "tokens_generated": 30.0,
        "prompt_tokens": 7.0,
        "generate_s": 2.0,
        "requests": 2.0,
        "tokens_per_s": 15.0,
    }


def test_stats_before_any_generation_has_zero_throughput() -> None:
    idle = Counting({"tokens_generated": 0.0, "prompt_tokens": 0.0, "generate_s": 0.0})
    assert idle.stats()["tokens_per_s"] == 0.0 and idle.stats()["requests"] == 0.0


def test_configured_engine_settings_are_the_agents_own() -> None:
    agent = AgentConfig(model="tiny-random", stop_at_fence=False)
    settings = EngineSettings.configured(agent).to_json()
    assert tuple(settings) == ENGINE_FIELDS
    assert settings == {
        "backend": agent.backend,
        "device": agent.device,
        "rollout_dtype": agent.rollout_dtype,
        "decoder": agent.decoder,
        "stop_at_fence": False,
        "native_bf16": None,
    }
    with pytest.raises(AttributeError):
        EngineSettings.configured(agent).backend = "vllm"  # type: ignore[misc]
