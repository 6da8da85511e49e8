"""The configuration of one agent (`agents[i]`): its model, how it is served and sampled, its role
prompt, and whether and how it trains."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from mars2.config.fields import check, check_name, setting
from mars2.registry import BACKENDS


@dataclass(frozen=True)
class AgentConfig:
    """One agent: a model, how it is served and sampled, its role prompt, and whether it trains."""

    name: str = setting("", "Display name; defaults to `agent<i>`.")
    model: str = setting(
        "smollm2-135m",
        "A bundled model name (`smollm2-135m`, `gemma3-270m`, `tiny-random`, `tiny-random-base`), "
        "a local HF model directory or GGUF file, or (backend `openai`) the endpoint's model name.",
    )
    backend: str = setting(
        "hf", "Generation engine: `hf` (transformers), `vllm` (GPU, optional extra), `openai`."
    )
    role: str = setting(
        "coder", "Role prompt: a name from the prompt table (mars2.agents.prompts)."
    )
    system_prompt: str | None = setting(None, "Overrides the role's system prompt text when set.")
    temperature: float = setting(0.8, "Sampling temperature (> 0).")
    top_p: float = setting(1.0, "Nucleus sampling mass in (0, 1].")
    max_new_tokens: int = setting(
        128, "Maximum tokens per response (the L_max of the overlong penalty)."
    )
    max_prompt_tokens: int = setting(
        768, "Prompts longer than this are cut from the left of the last user message."
    )
    trainable: bool = setting(
        True, "Whether `mars2 train` updates this agent (False: frozen helper)."
    )
    lora_rank: int = setting(0, "LoRA rank via peft; 0 trains all weights.")
    lora_alpha: int = setting(32, "LoRA alpha (scaling = alpha / rank).")
    share_with: str | None = setting(
        None,
        "Name of another agent whose weights this one uses (homogeneous multi-role agents): one "
        "model, one learner and one optimizer train on both agents' nodes; each keeps its own role "
        "prompt and name. The two must agree on model, backend, device, dtype, trainable, LoRA "
        "settings, temperature and max_new_tokens; the named agent may not share in turn.",
    )
    base_url: str | None = setting(
        None, "Backend `openai`: the endpoint, e.g. http://localhost:8000/v1."
    )
    api_key_env: str = setting(
        "OPENAI_API_KEY", "Backend `openai`: name of the environment variable holding the key."
    )
    device: str = setting(
        "auto", "`auto` (cuda when available, else cpu), `cpu`, `cuda`, `cuda:1`..."
    )
    dtype: Literal["auto", "float32", "bfloat16", "float16"] = setting(
        "auto", "Weights dtype: `auto` is float32 on CPU and bfloat16 on GPU."
    )
    max_batch_size: int = setting(16, "Largest generation batch the engine runs at once.")
    stop_at_fence: bool = setting(
        True,
        "Backend `hf`: end a response when its first ```python block closes (nothing after the "
        "block is used, so those tokens only cost time); the response keeps the closing fence "
        "and counts as stopped, not truncated. False: generate until EOS or `max_new_tokens`.",
    )
    rollout_dtype: Literal["auto", "model", "bfloat16", "int8"] = setting(
        "auto",
        "Backend `hf`: the weights the engine generates with. `model`: the model's own weights "
        "(rollout log-probs equal the learner's); `bfloat16`: a bfloat16 copy; `int8`: a copy "
        "with int8 dynamic-quantized Linear layers (CPU only). A copy is refreshed at every "
        "weight sync; the learner's log-probs stay exact and TIS corrects the mismatch. `auto`: "
        "`bfloat16` with the `llama` decoder on a CPU with native bfloat16 (AVX512-BF16 or AMX; "
        "~3x `generate` there, docs/performance.md), else `model`.",
    )
    decoder: Literal["auto", "llama", "transformers"] = setting(
        "auto",
        "Backend `hf`: the forward pass the engine decodes with. `llama`: mars2's lean decoder "
        "for Llama and Gemma 3 text models (SmolLM2, Gemma-3-270M; fused projections, a "
        "preallocated KV cache, the same logits to float32 rounding); `transformers`: the "
        "model's own forward (any model, and `rollout_dtype: int8`). `auto`: `llama` where the "
        "model supports it.",
    )
    vllm_gpu_memory: float = setting(
        0.45,
        "Backend `vllm`: fraction of GPU memory the engine may take (weights + KV cache); "
        "leave room for a learner on the same GPU.",
    )

    def __post_init__(self) -> None:
        check_name(BACKENDS, "backend", self.backend)
        check(self.temperature > 0, "temperature", self.temperature, "must be > 0")
        check(0 < self.top_p <= 1, "top_p", self.top_p, "must be in (0, 1]")
        check(self.max_new_tokens >= 1, "max_new_tokens", self.max_new_tokens, "must be >= 1")
        check(self.max_prompt_tokens >= 16, "max_prompt_tokens", self.max_prompt_tokens, ">= 16")
        check(self.lora_rank >= 0, "lora_rank", self.lora_rank, "must be >= 0 (0 = full)")
        check(self.max_batch_size >= 1, "max_batch_size", self.max_batch_size, "must be >= 1")
        check(0 < self.vllm_gpu_memory <= 1, "vllm_gpu_memory", self.vllm_gpu_memory, "in (0, 1]")
        check(bool(self.model), "model", self.model, "must name a model")
        check(
            not (self.rollout_dtype == "int8" and self.device.startswith("cuda")),
            "rollout_dtype",
            self.rollout_dtype,
            "`int8` is CPU only: use `model` or `bfloat16` on a GPU",
        )
        check(
            not (self.rollout_dtype == "int8" and self.decoder == "llama"),
            "decoder",
            self.decoder,
            "the `llama` decoder has no int8 weights: use `transformers` with rollout_dtype int8",
        )
        if self.backend == "openai":
            check(self.base_url is not None, "base_url", None, "required for backend 'openai'")
