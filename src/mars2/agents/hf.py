"""The `hf` backend: a transformers model on the shared engine thread (continuous batching).

Each step of the engine runs `Decoder.step` (mars2.engine.decode) under a lock that
`sync_weights` shares, with the model in eval mode (its training flag is restored after the
step, so a learner can share the model object). Requests that arrive mid-batch are prefilled
and merged into the running batch; finished rows leave it at once.

The engine generates with the model itself or, per `AgentConfig.rollout_dtype`, with a faster
copy: bfloat16, or int8 dynamic-quantized Linear layers (CPU). With the `llama` decoder
(`AgentConfig.decoder`, mars2.engine.llama) it always generates from a snapshot of the weights,
fp32 or bfloat16. A copy or snapshot is rebuilt from the model at every `sync_weights` (and
before a rollout when the weights changed), so a learner that trains the shared model object
keeps exact fp32 log-probs while rollouts run on the cheap copy (TIS corrects the mismatch).

Requests with the same prompt share one prefill; with the `llama` decoder a later request also
reuses the keys and values of the longest prefix it shares with a recent prompt (a GRPO group's
attempts, a tree's fresh children, the system prompt and statement of a refinement). The stats
count the prompt positions computed (`prefill_tokens`) beside those served (`prompt_tokens`).
"""

from __future__ import annotations

import contextlib
import copy
import functools
import threading
import time
import warnings
from collections.abc import Iterator
from typing import Any

import torch

from mars2 import heap
from mars2.agents.base import EngineSettings
from mars2.agents.chat import ChatEngine
from mars2.config import AgentConfig
from mars2.engine.batching import Pending
from mars2.engine.decode import Decoder, HFBatch, Row
from mars2.engine.llama import LlamaBatch
from mars2.engine.llama_weights import LlamaWeights, unsupported
from mars2.engine.prompt_cache import PROMPT_CACHE_BYTES
from mars2.machine import cpu_has_bfloat16
from mars2.types import Completion


class HFPolicy(ChatEngine):
    """A Policy on a transformers causal LM (shared with a learner or loaded by load_policy)."""

    def __init__(
        self,
        agent: AgentConfig,
        model: Any,
        tokenizer: Any,
        *,
        seed: int = 0,
        prompt_cache_bytes: int = PROMPT_CACHE_BYTES,
    ) -> None:
        """`prompt_cache_bytes`: the llama decoder's cache of recent prompts' keys and values
        (mars2.engine.prompt_cache.PromptCache; 0: none), emptied whenever the weights change."""
        self.agent = agent
        self.prompt_cache_bytes = prompt_cache_bytes
        self._init_policy(agent.name or agent.model, seed)
        super().__init__(f"hf-{self.name}", agent.max_batch_size)
        self.model = model
        self.tokenizer = tokenizer
        self._lock = threading.Lock()  # the model: decode steps vs sync_weights
        eos = _eos_ids(model, tokenizer)
        pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else eos[0]
        self._pad_id = pad
        self._decoder_args: dict[str, Any] = {
            "eos_ids": eos,
            "temperature": agent.temperature,
            "top_p": agent.top_p,
            "max_new_tokens": agent.max_new_tokens,
            "piece": _piece_of(tokenizer) if agent.stop_at_fence else None,
        }
        self._decoder_kind = resolve_decoder(agent.decoder, agent.rollout_dtype, model)
        self._rollout_dtype = resolve_rollout_dtype(agent.rollout_dtype, model, self._decoder_kind)
        self._rollout = rollout_model(model, self._rollout_dtype, self._decoder_kind)
        self._copied_version = _weights_version(model)
        # None between a `free_rollout_memory` and the next rollout (no snapshot to decode with)
        self._decoder: Decoder | None = self._new_decoder()
        self._counters = {
            "tokens_generated": 0.0,
            "prompt_tokens": 0.0,  # of the completions returned
            "prefill_tokens": 0.0,  # prompt positions computed (shared prefills counted once)
            "generate_s": 0.0,
        }

    def generate_ids(self, prompts: list[list[int]], seeds: list[int]) -> list[Completion]:
        """Synchronous batch generation from token ids, in the calling thread (benchmarks)."""
        finished: dict[int, Row] = {}
        with self._model_turn():
            self._refresh_copy()
            decoder = self._new_decoder()
            requests = [(i, p, s) for i, (p, s) in enumerate(zip(prompts, seeds, strict=True))]
            self._admit_to(decoder, requests)
        while decoder.rows:
            with self._model_turn():
                finished.update((row.key, row) for row in decoder.step())
        return [self._completion(finished[i]) for i in range(len(prompts))]

    def engine_settings(self) -> dict[str, Any]:
        """How this engine generates, resolved (the `engines` of an evaluation's protocol)."""
        device = next(self.model.parameters()).device
        return EngineSettings(
            backend="hf",
            device=device.type,
            rollout_dtype=self._rollout_dtype,
            decoder=self._decoder_kind,
            stop_at_fence=self.agent.stop_at_fence,
            native_bf16=cpu_has_bfloat16() if device.type == "cpu" else None,
        ).to_json()

    def sync_weights(self, state_dict: dict[str, torch.Tensor] | None = None) -> None:
        """Copy `state_dict` into the engine's model (None: a shared model object, already
        current), then rebuild the rollout copy, if the engine generates with one.

        Call it between rollouts: a request in flight would otherwise mix two policies.
        """
        with self._lock, torch.no_grad():
            if state_dict is not None:
                _, unexpected = self.model.load_state_dict(state_dict, strict=False)
                if unexpected:
                    raise ValueError(f"sync_weights: unknown parameter names {unexpected[:5]}")
            self._refresh_copy(force=True)

    def free_rollout_memory(self) -> None:
        """Drop the decoder's keys and values (its KV cache slots and the prompt cache) and the
        rollout snapshot of the weights between rollouts, so a learner update in this process
        can use their memory; the next rollout builds them again (an update changes the weights,
        so the snapshot and the prompt cache would be rebuilt anyway). No-op while rows are in
        flight."""
        with self._lock:
            if not self._active():
                self._decoder = None
                if self._rollout is not self.model:
                    self._rollout = None  # rebuilt by the next _refresh_copy
        heap.release()  # the prompt cache's entries sat in the engine thread's heap

    def _refresh_copy(self, *, force: bool = False) -> None:
        """Rebuild the rollout copy when the model's weights changed since it was made (a
        checkpoint restored, a learner step without sync) or `free_rollout_memory` dropped it,
        and the decoder when there is none; only between rollouts. Call with the lock held."""
        if self._active():
            return  # a copy changes between rollouts only
        if self._rollout is not self.model:  # the model itself is always current
            version = _weights_version(self.model)
            if force or self._rollout is None or version != self._copied_version:
                self._rollout = None  # free the old copy before building the new one
                self._rollout = rollout_model(self.model, self._rollout_dtype, self._decoder_kind)
                self._copied_version = version
                self._decoder = None  # its batch holds the old copy and its prompts
        if self._decoder is None:
            self._decoder = self._new_decoder()

    def close(self) -> None:
        self.close_engine()

    # ---------------------------------------------------------------- engine hooks

    @contextlib.contextmanager
    def _model_turn(self) -> Iterator[None]:
        start = time.perf_counter()
        with self._lock:
            # Only the model itself has dropout to switch off; a rollout copy is frozen in eval
            # mode. Walking a peft model's module tree twice costs ~3 ms, ~18% of a decode step
            # of the main job's evaluation when a learner left the model in training mode.
            was_training = self._rollout is self.model and self.model.training
            if was_training:
                self.model.eval()
            try:
                yield
            finally:
                if was_training:
                    self.model.train()
        self._counters["generate_s"] += time.perf_counter() - start

    def _active(self) -> int:
        return self._decoder.in_flight if self._decoder is not None else 0

    def _can_admit(self) -> bool:
        return self._decoder is None or self._decoder.can_merge

    def _admit(self, requests: list[Pending]) -> None:
        with self._model_turn():
            self._refresh_copy()
            assert self._decoder is not None  # built by _refresh_copy
            self._admit_to(self._decoder, [(p, p.prompt_ids, p.seed) for p in requests])

    def _admit_to(self, decoder: Decoder, requests: list[tuple[Any, list[int], int]]) -> None:
        with self._counting_prefills(decoder):
            decoder.admit(requests)

    @contextlib.contextmanager
    def _counting_prefills(self, decoder: Decoder) -> Iterator[None]:
        """Add the prompt positions `decoder` computes meanwhile to `prefill_tokens`."""
        before = decoder.batch.prefill_tokens
        yield
        self._counters["prefill_tokens"] += decoder.batch.prefill_tokens - before

    def _step(self) -> list[tuple[Pending, Completion]]:
        assert self._decoder is not None  # only called with rows in flight
        with self._model_turn(), self._counting_prefills(self._decoder):
            done = self._decoder.step()  # prefills the rows admitted to join it
        return [(row.key, self._completion(row)) for row in done]

    def _abort(self) -> list[Pending]:
        decoder = self._decoder
        pending = [row.key for row in decoder.rows + decoder.joining] if decoder else []
        self._decoder = None  # the next admission builds a fresh one
        return pending

    def _new_decoder(self) -> Decoder:
        if isinstance(self._rollout, LlamaWeights):
            room = self._decoder_args["max_new_tokens"]
            batch: Any = LlamaBatch(self._rollout, self.prompt_cache_bytes, headroom=room)
        else:
            batch = HFBatch(self._rollout, self._pad_id)
        return Decoder(batch, **self._decoder_args)

    def _completion(self, row: Row) -> Completion:
        self._counters["tokens_generated"] += len(row.ids)
        self._counters["prompt_tokens"] += len(row.prompt_ids)
        text_ids = row.ids[:-1] if row.stopped else row.ids
        return Completion(
            text=self.tokenizer.decode(text_ids, skip_special_tokens=True),
            prompt_ids=tuple(row.prompt_ids),
            response_ids=tuple(row.ids),
            logprobs=tuple(row.logprobs),
            finish_reason="stop" if row.stopped or row.fenced else "length",
        )


def _piece_of(tokenizer: Any) -> Any:
    """Token id -> its text (cached: the decoder asks once per sampled token)."""

    @functools.cache
    def piece(token: int) -> str:
        return str(tokenizer.decode([token]))

    return piece


def resolve_rollout_dtype(setting: str, model: Any, decoder: str = "transformers") -> str:
    """`AgentConfig.rollout_dtype` with `auto` resolved for `model`'s device and dtype and the
    decoder: a bfloat16 copy for the `llama` decoder on a CPU with native bfloat16 matrix
    multiplies (AVX512-BF16 or AMX: 2.8-3.4x `generate` there, docs/performance.md), else the
    model's own weights."""
    param = next(model.parameters())
    if setting == "auto":
        fast = decoder == "llama" and param.device.type == "cpu" and cpu_has_bfloat16()
        setting = "bfloat16" if fast and param.dtype == torch.float32 else "model"
    if setting == "bfloat16" and param.dtype == torch.bfloat16:
        return "model"  # already bfloat16: a copy would change nothing
    if setting == "int8" and param.device.type != "cpu":
        raise ValueError(f"rollout_dtype int8 runs on CPU only, the model is on {param.device}")
    return setting


def resolve_decoder(setting: str, rollout_dtype: str, model: Any) -> str:
    """`AgentConfig.decoder` with `auto` resolved: `llama` where LlamaBatch runs the model (and
    the rollout copy is not int8)."""
    why = unsupported(model)
    if setting == "llama" and why is not None:
        raise ValueError(f"decoder 'llama' cannot run this model: {why}; use 'transformers'")
    if setting == "auto":
        return "llama" if why is None and rollout_dtype != "int8" else "transformers"
    return setting


def rollout_model(model: Any, dtype: str, decoder: str = "transformers") -> Any:
    """The weights the engine generates with: `model` itself, a frozen copy of it (LoRA
    adapters merged) in bfloat16 or with int8 dynamic-quantized Linear layers, or, for the
    `llama` decoder, a LlamaWeights snapshot in the model's dtype or bfloat16."""
    if decoder == "llama":
        return LlamaWeights(model, torch.bfloat16 if dtype == "bfloat16" else None)
    if dtype == "model":
        return model
    grads = {id(p.grad): None for p in model.parameters() if p.grad is not None}
    copy_ = copy.deepcopy(model, memo=grads)  # weights only: a learner's gradients stay behind
    if hasattr(copy_, "merge_and_unload"):  # peft: one plain model, adapters folded in
        copy_ = copy_.merge_and_unload()
    copy_.eval().requires_grad_(False)
    if dtype == "bfloat16":
        return copy_.to(torch.bfloat16)
    assert dtype == "int8", dtype
    with warnings.catch_warnings():  # torch.ao.quantization announces its move to torchao
        warnings.simplefilter("ignore")
        from torch.ao.quantization import per_channel_dynamic_qconfig, quantize_dynamic

        # The decoder layers' Linear layers, per-output-channel weight scales; the LM head stays
        # in float: int8 logits over the whole vocabulary move the log-probs far more.
        head = copy_.get_output_embeddings()
        layers = {
            name: per_channel_dynamic_qconfig
            for name, module in copy_.named_modules()
            if isinstance(module, torch.nn.Linear) and module is not head
        }
        return quantize_dynamic(copy_, layers)  # type: ignore[no-untyped-call]


def _weights_version(model: Any) -> int:
    """Grows whenever a parameter is changed in place (optimizer step, load_state_dict)."""
    return sum(p._version for p in model.parameters())


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
