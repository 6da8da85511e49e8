"""How a model becomes trainable, and in which precision: LoRA adapters (or every weight),
activation checkpointing, `train.precision` resolved for the device, and a bf16 LoRA learner's
frozen model and residual stream in bfloat16. `mars2.training.learner` builds on these."""

from __future__ import annotations

import warnings
from typing import Any

import torch
from torch.utils.checkpoint import checkpoint

from mars2 import seeds
from mars2.config import AgentConfig
from mars2.engine.wrapped import base_model


def make_trainable(model: Any, agent: AgentConfig, adapter: str = "default", seed: int = 0) -> Any:
    """Wrap `model` with LoRA adapter `adapter` when `agent.lora_rank > 0`; otherwise train every
    weight. A model that is already a peft model gets `adapter` added beside its others: several
    agents then train their own adapters on one frozen base (see `Learner`). The adapter's random
    initialisation is drawn from `seeds.adapter_init(seed)` (torch's global generator is left as
    it was), so a run's starting weights, and with them its evaluation checksums, repeat."""
    if agent.lora_rank == 0:
        model.requires_grad_(True)
        return model
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seeds.adapter_init(seed))
        return _add_lora(model, agent, adapter)


def lora_config(agent: AgentConfig) -> Any:
    """The `peft.LoraConfig` of `agent`'s adapter: rank and alpha from the config, every linear
    layer, no dropout (the benches give TRL this same config)."""
    from peft import LoraConfig

    return LoraConfig(
        r=agent.lora_rank,
        lora_alpha=agent.lora_alpha,
        target_modules="all-linear",
        lora_dropout=0.0,
        task_type="CAUSAL_LM",
    )


def _add_lora(model: Any, agent: AgentConfig, adapter: str) -> Any:
    from peft import PeftModel, get_peft_model

    lora = lora_config(agent)
    if isinstance(model, PeftModel):
        first = next(iter(model.peft_config.values()))
        lora.base_model_name_or_path = first.base_model_name_or_path  # saved with the adapter
        model.add_adapter(adapter, lora)
        return model
    with warnings.catch_warnings():  # peft 0.21 asks transformers 5 a deprecated property
        warnings.filterwarnings("ignore", "`is_gradient_checkpointing` is deprecated")
        return get_peft_model(model, lora, adapter_name=adapter)


def checkpoint_layers(model: Any) -> None:
    """Recompute each decoder layer (`model.layers[i]` of the base model) in backward instead of
    saving its activations: the layer's forward runs under `torch.utils.checkpoint` whenever
    autograd records (a no-grad forward, e.g. generation on a shared model, is untouched).
    transformers' own switch only acts in training mode, and the learner runs in eval mode."""
    base = base_model(model)
    layers = getattr(getattr(base, "model", None), "layers", None)
    if layers is None:
        raise ValueError("activation_checkpointing: the model has no decoder layers (model.layers)")
    for layer in layers:
        if getattr(layer, "_mars2_checkpointed", False):  # a second learner on a shared base
            continue
        inner = layer.forward

        def forward(*args: Any, _inner: Any = inner, **kwargs: Any) -> Any:
            if torch.is_grad_enabled():
                return checkpoint(_inner, *args, use_reentrant=False, **kwargs)
            return _inner(*args, **kwargs)

        layer.forward = forward
        layer._mars2_checkpointed = True


def frozen_in_bf16(model: Any) -> None:
    """A bf16 LoRA learner's frozen model in bfloat16, as the rollout engine's snapshot computes:
    each LoRA layer's base weight and each RMSNorm weight stored in bfloat16, and the embedding's
    output cast to bfloat16, so the residual stream between the layers is bfloat16. Adapters stay
    float32 (autocast multiplies them in bfloat16; the optimizer updates float32 weights).

    Under autocast alone the residual stream stayed float32 (the embedding's dtype) and every
    product cast its activation to bfloat16 afresh, once for the base weight and once for the
    adapter, kept for backward: a quarter of a main-job update's CPU time went to these casts
    and float32 elementwise ops (docs/performance.md). The embedding keeps its float32 weight (it
    is the LM head's, tied, and sets the dtype an engine resolves `rollout_dtype: auto` from), so
    only its output is cast. Idempotent: a second adapter's learner on the same base calls it
    again."""
    for module in model.modules():
        base = getattr(module, "base_layer", None)
        if (
            hasattr(module, "lora_A")
            and isinstance(base, torch.nn.Linear)
            and base.weight.dtype == torch.float32
            and not base.weight.requires_grad
        ):
            base.to(torch.bfloat16)
        elif type(module).__name__.endswith("RMSNorm"):
            for param in module.parameters(recurse=False):
                if param.dtype == torch.float32 and not param.requires_grad:
                    param.data = param.data.to(torch.bfloat16)
    embedding = model.get_input_embeddings()
    if not getattr(embedding, "_mars2_bf16_output", False):
        embedding.register_forward_hook(_to_bf16)
        embedding._mars2_bf16_output = True


def _to_bf16(_module: Any, _inputs: Any, output: torch.Tensor) -> torch.Tensor:
    return output.to(torch.bfloat16)


def engine_uses_snapshot(model: Any, agent: AgentConfig) -> bool:
    """Whether an in-process engine of `agent` on `model` generates with a snapshot of its
    weights (the llama decoder) rather than running the model object itself (which, without
    the learner's autocast, needs one dtype throughout)."""
    from mars2.agents.hf import resolve_decoder

    return resolve_decoder(agent.decoder, agent.rollout_dtype, model) == "llama"


def resolve_precision(setting: str, device: torch.device) -> str:
    """`TrainConfig.precision` with `auto` resolved for `device`: `bf16` on a CUDA GPU that
    supports it, else `fp32`. On CPUs `auto` is float32 even where bfloat16 products are faster:
    the main job's bfloat16 learner was not shown to learn as much as the float32 one
    (results/precision, pre-registered: bfloat16 stays only if non-inferior at margin 0.02)."""
    if setting != "auto":
        return setting
    if device.type == "cuda":
        return "bf16" if torch.cuda.is_bf16_supported() else "fp32"
    return "fp32"
