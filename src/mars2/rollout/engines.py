"""Build one generation engine (Policy) per agent, sharing loaded weights where that is safe."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mars2.agents import load_model, load_policy
from mars2.agents.base import Policy
from mars2.config import AgentConfig


def load_policies(
    agents: Sequence[AgentConfig],
    *,
    seed: int = 0,
    models: Mapping[int, tuple[Any, Any]] | None = None,
) -> list[Policy]:
    """A Policy per agent. `models` gives (model, tokenizer) for agents that must use a specific
    object (a learner's trainable model); the other `hf` agents of one base model share one frozen
    copy of its weights."""
    models = dict(models or {})
    shared: dict[tuple[str, str, str], tuple[Any, Any]] = {}
    policies = []
    for i, agent in enumerate(agents):
        if i in models:
            model, tokenizer = models[i]
        elif agent.backend == "hf":
            key = (agent.model, agent.device, agent.dtype)
            if key not in shared:
                shared[key] = load_model(agent.model, device=agent.device, dtype=agent.dtype)
            model, tokenizer = shared[key]
        else:
            model = tokenizer = None
        policies.append(load_policy(agent, seed=seed + i, model=model, tokenizer=tokenizer))
    return policies
