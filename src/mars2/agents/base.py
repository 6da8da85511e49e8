"""The Policy protocol every generation backend implements, and `load_policy` to build one.

A policy answers one chat request at a time (`await policy.generate(messages)`); backends batch
concurrent requests behind the scenes, so callers simply run many `generate` calls at once.
"""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from mars2.errors import UserError

if TYPE_CHECKING:
    from mars2.config import AgentConfig
    from mars2.types import Completion

Messages = list[dict[str, str]]


@dataclass(frozen=True)
class EngineSettings:
    """How an engine generates, besides its weights and sampling settings: everything else that
    changes the samples (the `engines` of an evaluation's protocol, which pair two evaluations
    only when equal). `native_bf16`: whether the CPU multiplies bfloat16 natively (None: not a
    CPU engine, or not known before the engine starts)."""

    backend: str
    device: str
    rollout_dtype: str
    decoder: str
    stop_at_fence: bool
    native_bf16: bool | None = None

    @classmethod
    def configured(cls, agent: AgentConfig) -> EngineSettings:
        """The engine as `agent` configures it (`auto` unresolved; `native_bf16` unknown)."""
        return cls(
            backend=agent.backend,
            device=agent.device,
            rollout_dtype=agent.rollout_dtype,
            decoder=agent.decoder,
            stop_at_fence=agent.stop_at_fence,
        )

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


ENGINE_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(EngineSettings))


@runtime_checkable
class Policy(Protocol):
    """A chat model that samples completions with the log-probs of the sampled tokens."""

    name: str
    tokenizer: Any | None  # the HF tokenizer when the backend has one (None for `openai`)

    async def generate(self, messages: Messages, *, seed: int | None = None) -> Completion:
        """Sample one response to `messages` (chat dicts with `role` and `content`).

        `seed` fixes the sampling noise of this request; None derives one from the policy's
        seed and the request's position, so the same requests in the same order repeat.
        """
        ...

    def stats(self) -> dict[str, float]:
        """Counters since creation: requests, batches, tokens generated, generate seconds..."""
        ...

    def close(self) -> None:
        """Release threads, engines and connections."""
        ...


class PolicyBase:
    """What every backend's Policy shares: its name, its seed, the request count that seeds
    unseeded requests (so the same requests in the same order repeat on any backend), and its
    `stats()` over the backend's `_counters` (at least `tokens_generated`, `prompt_tokens`,
    `generate_s`)."""

    name: str
    _seed: int
    _n_requests: int
    _counters: dict[str, float]

    def _init_policy(self, name: str, seed: int) -> None:
        self.name = name
        self._seed = seed
        self._n_requests = 0

    def _next_seed(self, seed: int | None) -> int:
        """`seed`, or the one derived from the policy's seed and this request's position;
        counts the request."""
        if seed is None:
            seed = request_seed(self._seed, self._n_requests)
        self._n_requests += 1
        return seed

    def engine_stats(self) -> dict[str, float]:
        """The batching figures of the backend's engine (`engine.batching.Engine`); none here."""
        return {}

    def stats(self) -> dict[str, float]:
        """Counters since creation (the Policy protocol's `stats`): the backend's counters, its
        engine's batching figures, `requests` and `tokens_per_s` (tokens generated per second
        of generation)."""
        out = {**self._counters, **self.engine_stats(), "requests": float(self._n_requests)}
        gen_s = out["generate_s"]
        out["tokens_per_s"] = out["tokens_generated"] / gen_s if gen_s > 0 else 0.0
        return out


def request_seed(policy_seed: int, index: int) -> int:
    """The seed of the `index`-th unseeded request of a policy seeded with `policy_seed`."""
    digest = hashlib.sha256(f"{policy_seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "little") & ((1 << 63) - 1)


def encode_chat(tokenizer: Any, messages: Messages, max_prompt_tokens: int) -> list[int]:
    """Token ids of `messages` rendered with the tokenizer's chat template, ready to generate.

    A tokenizer without a chat template (a base model such as Gemma-3-270M) gets the plain-text
    completion prompt of `prompts.render_plain` instead, after its BOS token.

    A prompt over `max_prompt_tokens` is cut from the left of the content of its last user
    message (where refinement feedback sits at the end, the statement at the start of an
    earlier part is what goes); "…" marks the cut. A prompt that cannot fit raises UserError.
    """
    ids = _render(tokenizer, messages)
    for _ in range(4):
        excess = len(ids) - max_prompt_tokens
        if excess <= 0:
            return ids
        messages = _cut_last_user(tokenizer, messages, excess + 4)
        ids = _render(tokenizer, messages)
    if len(ids) <= max_prompt_tokens:
        return ids
    raise UserError(
        f"prompt of {len(ids)} tokens does not fit max_prompt_tokens={max_prompt_tokens}"
    )


def _render(tokenizer: Any, messages: Messages) -> list[int]:
    if getattr(tokenizer, "chat_template", None) is None:
        from mars2.agents.prompts import render_plain

        ids: list[int] = tokenizer(render_plain(messages), add_special_tokens=False)["input_ids"]
        bos = getattr(tokenizer, "bos_token_id", None)
        return ids if bos is None else [bos, *ids]
    text = tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
    ids = tokenizer(text, add_special_tokens=False)["input_ids"]
    return ids


def _cut_last_user(tokenizer: Any, messages: Messages, n_tokens: int) -> Messages:
    users = [i for i, m in enumerate(messages) if m.get("role") == "user"]
    if not users:
        raise UserError("prompt too long and has no user message to shorten")
    i = users[-1]
    content_ids = tokenizer(messages[i]["content"], add_special_tokens=False)["input_ids"]
    if n_tokens >= len(content_ids):
        raise UserError(
            f"prompt too long: the system prompt and template alone exceed max_prompt_tokens "
            f"(need to drop {n_tokens} tokens, the last user message has {len(content_ids)})"
        )
    kept = "…" + tokenizer.decode(content_ids[n_tokens:], skip_special_tokens=True)
    return [*messages[:i], {**messages[i], "content": kept}, *messages[i + 1 :]]
