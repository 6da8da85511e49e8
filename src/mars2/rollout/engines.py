"""Build the agents' Policies, sharing loaded weights and engines where that is safe."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mars2.agents import load_model, load_policy
from mars2.agents.base import Policy
from mars2.agents.engine import SharedEngineAgent
from mars2.config import AgentConfig


def load_policies(
    agents: Sequence[AgentConfig],
    *,
    seed: int = 0,
    models: Mapping[int, tuple[Any, Any]] | None = None,
) -> list[Policy]:
    """A Policy per agent. `models` gives (model, tokenizer) for agents that must use a specific
    object (a learner's trainable model). The other `hf` agents of one base model share one
    frozen copy of its weights, and those that also sample alike share one engine (one batch)."""
    models = dict(models or {})
    shared: dict[tuple[str, str, str], tuple[Any, Any]] = {}
    engines: dict[tuple[Any, ...], Any] = {}
    policies: list[Policy] = []
    for i, agent in enumerate(agents):
        if i in models or agent.backend != "hf":
            model, tokenizer = models.get(i, (None, None))
            policies.append(load_policy(agent, seed=seed + i, model=model, tokenizer=tokenizer))
            continue
        key = (agent.model, agent.device, agent.dtype)
        sampling = (agent.temperature, agent.top_p, agent.max_new_tokens, agent.max_batch_size)
        engine_key = (*key, *sampling, agent.rollout_dtype)  # an engine has one rollout copy
        if engine_key in engines:
            policies.append(SharedEngineAgent(agent, engines[engine_key], seed=seed + i))
            continue
        if key not in shared:
            shared[key] = load_model(agent.model, device=agent.device, dtype=agent.dtype)
        model, tokenizer = shared[key]
        engines[engine_key] = load_policy(agent, seed=seed + i, model=model, tokenizer=tokenizer)
        policies.append(engines[engine_key])
    return policies
