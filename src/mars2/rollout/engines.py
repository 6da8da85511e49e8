"""Build the agents' Policies, sharing loaded weights and engines where that is safe.

`AdapterView` lets several agents generate with their own LoRA adapters of one peft model
(one base in memory): each forward call activates the view's adapter under a lock that all
views of that model share.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import Any

import torch

from mars2 import seeds
from mars2.agents import load_model, load_policy
from mars2.agents.base import Policy
from mars2.agents.chat import SharedEngineAgent
from mars2.config import AgentConfig


def load_policies(
    agents: Sequence[AgentConfig],
    *,
    seed: int = 0,
    models: Mapping[int, tuple[Any, Any]] | None = None,
) -> list[Policy]:
    """A Policy per agent. `models` gives (model, tokenizer) for `hf` agents that must use a
    specific object (a learner's trainable model; agents that share weights are given the same
    object); other backends load their own copy, into which the trainer syncs merged weights.
    The other `hf` agents of one base model share one frozen copy of its weights. Agents on one
    model object that also sample alike share one engine (one batch)."""
    models = dict(models or {})
    shared: dict[tuple[str, str, str], tuple[Any, Any]] = {}
    engines: dict[tuple[Any, ...], Any] = {}
    policies: list[Policy] = []
    for i, agent in enumerate(agents):
        if agent.backend != "hf":  # its own copy of the weights: the trainer syncs them in
            policies.append(load_policy(agent, seed=seeds.policy(seed, i)))
            continue
        key: tuple[Any, ...] = (agent.model, agent.device, agent.dtype)
        if i in models:
            key = ("object", id(models[i][0]))
        sampling = (agent.temperature, agent.top_p, agent.max_new_tokens, agent.max_batch_size)
        engine_key = (*key, *sampling, agent.rollout_dtype, agent.decoder)  # one rollout copy
        if engine_key in engines:
            policies.append(
                SharedEngineAgent(agent, engines[engine_key], seed=seeds.policy(seed, i))
            )
            continue
        if i in models:
            model, tokenizer = models[i]
        else:
            if key not in shared:
                shared[key] = load_model(agent.model, device=agent.device, dtype=agent.dtype)
            model, tokenizer = shared[key]
        engines[engine_key] = load_policy(
            agent, seed=seeds.policy(seed, i), model=model, tokenizer=tokenizer
        )
        policies.append(engines[engine_key])
    return policies


class AdapterView(torch.nn.Module):
    """One LoRA adapter of a peft model that holds several, as a model of its own for an engine.

    Every forward call activates `adapter` (when another one is active) and runs under `lock`,
    which every view of `peft_model` shares, so engines of different agents may step in turn on
    one base without mixing adapters. Parameters, config and the rest are the peft model's.
    """

    def __init__(self, peft_model: Any, adapter: str, lock: threading.Lock) -> None:
        super().__init__()
        self.peft = peft_model
        self.adapter = adapter
        self.lock = lock
        self.train(peft_model.training)  # an engine toggles modes only when this says training

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        with self.lock:
            if self.peft.active_adapter != self.adapter:
                self.peft.set_adapter(self.adapter)
            return self.peft(*args, **kwargs)

    def get_base_model(self) -> Any:
        return self.peft.get_base_model()

    def __getattr__(self, name: str) -> Any:
        try:
            return super().__getattr__(name)
        except AttributeError:
            if name == "peft":  # not set yet
                raise
            return getattr(self.peft, name)
