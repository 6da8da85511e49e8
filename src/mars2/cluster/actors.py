"""What runs inside the Ray actors: an agent's learner, a rollout engine, a sandbox pool.

Plain classes: `mars2.cluster.placement` turns them into actors with `ray.remote(...).options(...)`,
so this module imports neither Ray nor torch until an actor is built.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from mars2 import seeds
from mars2.config import Config, SandboxConfig
from mars2.types import Completion, ExecResult, Problem, Sample


class LearnerActor:
    """One agent's model, optimizer and `Learner` (on the GPUs its bundle holds, if any)."""

    def __init__(self, config: Config, agent_id: int) -> None:
        from mars2.agents import load_model
        from mars2.training.placement import build_learner

        agent = config.agents[agent_id]
        model, tokenizer = load_model(agent.model, device=agent.device, dtype=agent.dtype)
        self.learner = build_learner(config, agent_id, model, tokenizer)

    def ready(self) -> str:
        return _node_id()

    def update(
        self, samples: list[Sample], repairs: Sequence[Any] = (), repair_weight: float = 0.0
    ) -> dict[str, float]:
        return self.learner.update(samples, repairs, repair_weight)

    def state_dict(self) -> dict[str, Any]:
        return _cpu_dict(self.learner.state_dict())

    def load_state_dict(self, state: dict[str, Any]) -> None:
        self.learner.load_state_dict(state)

    def weights(self, merged: bool) -> dict[str, Any]:
        """What the engines load: the trainable weights (LoRA adapters only, when LoRA is on), or
        the full merged weights (`merged`, for engines that hold a plain base model, e.g. vLLM)."""
        if merged:
            return _cpu_dict(self.learner.merged_state_dict())
        state = self.learner.model.state_dict()
        if self.learner.agent.lora_rank > 0:
            state = {k: v for k, v in state.items() if "lora_" in k}
        return _cpu_dict({k: v.detach() for k, v in state.items()})


class EngineActor:
    """A rollout engine (an async actor): one backend Policy that batches concurrent requests.

    Weights carry a version: `load_weights` installs version v; a `generate` call that names a
    newer version than the engine holds (a restarted engine starts at 0, the base weights)
    first loads that version from the object store, so a restart never serves stale weights.
    """

    def __init__(self, config: Config, agent_id: int, seed: int) -> None:
        from mars2.agents import load_model, load_policy
        from mars2.agents.hf import HFPolicy
        from mars2.training.trainable import make_trainable

        agent = config.agents[agent_id]
        self.merged = agent.backend != "hf"
        if agent.backend == "hf":
            model, tokenizer = load_model(agent.model, device=agent.device, dtype=agent.dtype)
            if agent.trainable:  # the learner's parameter names (LoRA adapters included),
                # initialised as the learner that trains them (the owner's, with share_with)
                owner = config.weights_owner(agent_id)
                model = make_trainable(model, agent, seed=seeds.learner(config.seed, owner))
            self.policy: Any = HFPolicy(agent, model, tokenizer, seed=seed)
        else:
            self.policy = load_policy(agent, seed=seed)
        self.version = 0
        self.catch_ups = 0  # versions loaded on demand by `generate` (after a restart)
        self._lock = asyncio.Lock()

    async def ready(self) -> str:
        return _node_id()

    async def load_weights(self, state: dict[str, Any], version: int) -> int:
        await self._install(state, version)
        return self.version

    async def generate(
        self, messages: list[dict[str, str]], seed: int, version: int, weights: list[Any]
    ) -> Completion:
        """`weights` is `[ObjectRef]` of `version` (nested in a list so Ray does not fetch it
        unless this engine is behind), or [] for the base weights."""
        behind = version > self.version and weights
        if behind and await self._install(await weights[0], version):
            self.catch_ups += 1
        completion: Completion = await self.policy.generate(messages, seed=seed)
        return completion

    async def _install(self, state: dict[str, Any], version: int) -> bool:
        async with self._lock:
            if version <= self.version:
                return False
            await asyncio.to_thread(self.policy.sync_weights, state)
            self.version = version
            return True

    async def stats(self) -> dict[str, float]:
        stats: dict[str, float] = self.policy.stats()
        return {**stats, "weights_version": float(self.version), "catch_ups": float(self.catch_ups)}


class SandboxActor:
    """A `Sandbox` (a pool of `workers` zygotes) on a CPU node; a threaded actor, one run per
    worker at a time."""

    def __init__(self, config: SandboxConfig) -> None:
        from mars2.sandbox import Sandbox

        self.sandbox = Sandbox(config)

    def ready(self) -> str:
        return _node_id()

    def run(self, code: str, problem: Problem, which: Any) -> ExecResult:
        return self.sandbox.run(code, problem, which)


def _node_id() -> str:
    """The Ray node this actor runs on (its id, as `ray.nodes()` lists it)."""
    import ray

    node: str = ray.get_runtime_context().get_node_id()
    return node


def _cpu_dict(state: dict[str, Any]) -> dict[str, Any]:
    return {k: _to_cpu(v) for k, v in state.items()}


def _to_cpu(value: Any) -> Any:
    """Tensors moved to CPU (recursively through dicts and lists) for the object store."""
    import torch

    if isinstance(value, torch.Tensor):
        return value.detach().cpu()
    if isinstance(value, dict):
        return {k: _to_cpu(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_to_cpu(v) for v in value)
    return value
