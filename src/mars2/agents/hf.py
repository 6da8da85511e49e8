"""The `hf` backend: a transformers model behind a batching queue, with a hand-written sampler.

Each batch is left-padded and decoded with a KV cache; every step samples each row with its
own seeded generator (mars2.agents.sampling) and records the log-prob of the sampled token.
Rows that finish (EOS or `max_new_tokens`) leave the batch and its cache, so a long straggler
does not pay for finished rows. The model runs in one worker thread under a lock that
`sync_weights` shares.
"""

from __future__ import annotations

import functools
import inspect
import threading
import time
from dataclasses import dataclass
from typing import Any

import torch

from mars2.agents.base import Messages, encode_chat, request_seed
from mars2.agents.batching import BatchQueue
from mars2.agents.sampling import sample_tokens
from mars2.config import AgentConfig
from mars2.types import Completion


@dataclass(frozen=True)
class _Request:
    prompt_ids: list[int]
    seed: int


class HFPolicy:
    """A Policy on a transformers causal LM (shared with a learner or loaded by load_policy)."""

    def __init__(self, agent: AgentConfig, model: Any, tokenizer: Any, *, seed: int = 0) -> None:
        self.agent = agent
        self.name = agent.name or agent.model
        self.model = model
        self.tokenizer = tokenizer
        self._seed = seed
        self._n_requests = 0
        self._lock = threading.Lock()
        self._queue: BatchQueue[_Request, Completion] = BatchQueue(
            self._run_batch, agent.max_batch_size, name=f"hf-{self.name}"
        )
        self._eos = _eos_ids(model, tokenizer)
        self._pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else self._eos[0]
        self._counters = {"tokens_generated": 0.0, "prompt_tokens": 0.0, "generate_s": 0.0}

    async def generate(self, messages: Messages, *, seed: int | None = None) -> Completion:
        prompt_ids = encode_chat(self.tokenizer, messages, self.agent.max_prompt_tokens)
        if seed is None:
            seed = request_seed(self._seed, self._n_requests)
        self._n_requests += 1
        return await self._queue.submit(_Request(prompt_ids, seed))

    def generate_ids(self, prompts: list[list[int]], seeds: list[int]) -> list[Completion]:
        """Synchronous batch generation from token ids (benchmarks, and callers without a loop)."""
        return self._run_batch([_Request(p, s) for p, s in zip(prompts, seeds, strict=True)])

    def stats(self) -> dict[str, float]:
        sizes = self._queue.batch_sizes
        out = dict(self._counters)
        out["requests"] = float(self._n_requests)
        out["batches"] = float(len(sizes))
        out["mean_batch_size"] = sum(sizes) / len(sizes) if sizes else 0.0
        gen_s = out["generate_s"]
        out["tokens_per_s"] = out["tokens_generated"] / gen_s if gen_s > 0 else 0.0
        return out

    def sync_weights(self, state_dict: dict[str, torch.Tensor] | None = None) -> None:
        """Copy `state_dict` into the engine's model; None (a shared model object) is a no-op."""
        if state_dict is None:
            return
        with self._lock, torch.no_grad():
            _, unexpected = self.model.load_state_dict(state_dict, strict=False)
            if unexpected:
                raise ValueError(f"sync_weights: unknown parameter names {unexpected[:5]}")

    def close(self) -> None:
        self._queue.close()

    def _run_batch(self, requests: list[_Request]) -> list[Completion]:
        start = time.perf_counter()
        with self._lock:
            was_training = self.model.training
            self.model.eval()
            try:
                rows = _generate(
                    self.model,
                    [r.prompt_ids for r in requests],
                    [r.seed for r in requests],
                    pad_id=self._pad,
                    eos_ids=self._eos,
                    temperature=self.agent.temperature,
                    top_p=self.agent.top_p,
                    max_new_tokens=self.agent.max_new_tokens,
                )
            finally:
                self.model.train(was_training)
        self._counters["generate_s"] += time.perf_counter() - start
        out = []
        for req, (ids, logps, stopped) in zip(requests, rows, strict=True):
            self._counters["tokens_generated"] += len(ids)
            self._counters["prompt_tokens"] += len(req.prompt_ids)
            text_ids = ids[:-1] if stopped else ids
            out.append(
                Completion(
                    text=self.tokenizer.decode(text_ids, skip_special_tokens=True),
                    prompt_ids=tuple(req.prompt_ids),
                    response_ids=tuple(ids),
                    logprobs=tuple(logps),
                    finish_reason="stop" if stopped else "length",
                )
            )
        return out


def _eos_ids(model: Any, tokenizer: Any) -> list[int]:
    ids: list[int] = []
    for source in (getattr(model, "generation_config", None), getattr(model, "config", None)):
        eos = getattr(source, "eos_token_id", None)
        ids.extend([eos] if isinstance(eos, int) else list(eos or []))
    if tokenizer.eos_token_id is not None:
        ids.append(tokenizer.eos_token_id)
    if not ids:
        raise ValueError("the model and tokenizer define no EOS token")
    return sorted(set(ids))


@functools.cache
def _cache_kwarg_of(model_cls: Any) -> str:
    params = inspect.signature(model_cls.forward).parameters
    return "cache" if "cache" in params else "past_key_values"  # transformers >= 5.20: `cache`


def _cache_kwarg(model: Any) -> str:
    base = model.get_base_model() if hasattr(model, "get_base_model") else model  # peft
    return _cache_kwarg_of(type(base))  # type: ignore[arg-type]


def _cache_of(out: Any) -> Any:
    cache = getattr(out, "cache", None)
    return cache if cache is not None else out.past_key_values


@torch.no_grad()
def _generate(
    model: Any,
    prompts: list[list[int]],
    seeds: list[int],
    *,
    pad_id: int,
    eos_ids: list[int],
    temperature: float,
    top_p: float,
    max_new_tokens: int,
) -> list[tuple[list[int], list[float], bool]]:
    """Sample a response per prompt: (token ids, log-probs, stopped on EOS) per row."""
    device = next(model.parameters()).device
    n, width = len(prompts), max(len(p) for p in prompts)
    input_ids = torch.full((n, width), pad_id, dtype=torch.long)
    mask = torch.zeros((n, width), dtype=torch.long)
    for i, p in enumerate(prompts):  # left padding
        input_ids[i, width - len(p) :] = torch.tensor(p)
        mask[i, width - len(p) :] = 1
    input_ids, mask = input_ids.to(device), mask.to(device)
    positions = (mask.cumsum(-1) - 1).clamp(min=0)
    generators = [torch.Generator().manual_seed(s) for s in seeds]
    eos = torch.tensor(eos_ids, device=device)
    out = model(
        input_ids=input_ids,
        attention_mask=mask,
        position_ids=positions,
        use_cache=True,
        logits_to_keep=1,
    )
    cache, logits = _cache_of(out), out.logits[:, -1]
    next_pos = positions[:, -1:] + 1  # [B, 1]
    active = list(range(n))  # batch row -> request index
    results: list[tuple[list[int], list[float], bool]] = [([], [], False) for _ in range(n)]
    for step in range(max_new_tokens):
        tokens, logps = sample_tokens(logits, temperature, top_p, [generators[i] for i in active])
        stopped = torch.isin(tokens, eos).tolist()
        for row, (req, tok, lp) in enumerate(
            zip(active, tokens.tolist(), logps.tolist(), strict=True)
        ):
            results[req][0].append(tok)
            results[req][1].append(lp)
            if stopped[row]:
                results[req] = (results[req][0], results[req][1], True)
        keep = [row for row in range(len(active)) if not stopped[row]]
        if not keep or step == max_new_tokens - 1:
            break
        if len(keep) < len(active):
            index = torch.tensor(keep, device=device)
            cache.batch_select_indices(index)
            tokens, mask, next_pos = tokens[index], mask[index], next_pos[index]
            active = [active[row] for row in keep]
        mask = torch.cat([mask, mask.new_ones((len(active), 1))], dim=-1)
        out = model(
            input_ids=tokens.unsqueeze(-1),
            attention_mask=mask,
            position_ids=next_pos,
            use_cache=True,
            **{_cache_kwarg(model): cache},
        )
        cache, logits = _cache_of(out), out.logits[:, -1]
        next_pos = next_pos + 1
    return results
