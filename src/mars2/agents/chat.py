"""Chat policies on an engine thread (`mars2.engine.batching.Engine`): `ChatEngine`, the base of
the hf and vllm backends, and `SharedEngineAgent`, an agent that generates on another agent's
engine."""

from __future__ import annotations

from typing import Any

from mars2.agents.base import PolicyBase, encode_chat
from mars2.config import AgentConfig
from mars2.engine.batching import Engine
from mars2.types import Completion


async def _chat(
    caller: ChatEngine | SharedEngineAgent,
    engine: Engine,
    messages: list[dict[str, str]],
    seed: int | None,
) -> Completion:
    """Render `messages` with `caller`'s agent and tokenizer, seed an unseeded request from the
    caller's seed and its request count, and generate on `engine`."""
    prompt_ids = encode_chat(caller.tokenizer, messages, caller.agent.max_prompt_tokens)
    return await engine.submit(prompt_ids, caller._next_seed(seed))


class ChatEngine(Engine, PolicyBase):
    """An Engine that answers chat requests: renders them with the tokenizer's chat template and
    seeds unseeded requests from the policy's seed and the request's position. Subclasses set
    `agent` and `tokenizer` and call `_init_policy`."""

    agent: AgentConfig
    tokenizer: Any

    async def generate(
        self, messages: list[dict[str, str]], *, seed: int | None = None
    ) -> Completion:
        return await _chat(self, self, messages, seed)


class SharedEngineAgent(PolicyBase):
    """The Policy of an agent that generates on another agent's ChatEngine: agents of one
    frozen model with the same sampling settings (a homogeneous search, say) fill one batch
    together instead of running engines that compete for the same cores. Prompts, role and
    request seeds stay the agent's own, so its completions are those it would get alone (up to
    floating-point differences of batch composition). The engine's owner closes it."""

    def __init__(self, agent: AgentConfig, engine: ChatEngine, *, seed: int = 0) -> None:
        self.agent = agent
        self._init_policy(agent.name or agent.model, seed)
        self.tokenizer = engine.tokenizer
        self._engine = engine

    async def generate(
        self, messages: list[dict[str, str]], *, seed: int | None = None
    ) -> Completion:
        return await _chat(self, self._engine, messages, seed)

    def stats(self) -> dict[str, float]:
        """The shared engine's counters (both agents' work), with this agent's request count."""
        return {**self._engine.stats(), "requests": float(self._n_requests)}

    def sync_weights(self, state_dict: Any = None) -> None:
        if state_dict is not None:
            raise ValueError("an agent on a shared engine has frozen weights")

    def close(self) -> None:
        """Nothing to release: the engine belongs to the agent that created it."""
