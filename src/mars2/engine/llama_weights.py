"""A frozen snapshot of a Llama or Gemma 3 model's weights for the lean decoder
(mars2.engine.llama): LoRA adapters folded in, q/k/v and gate/up concatenated, every projection
a `Projection` (prepacked for oneDNN in bfloat16 on a CPU), and `unsupported`, what a model
needs that the decoder lacks."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch
import torch.nn.functional as F

from mars2.engine.wrapped import base_model
from mars2.machine import amx_tiles

# Rows a prepacked weight's layout is tuned for (`Projection`): measured on the bundled model,
# 64 kept the decode-sized products (1-32 rows) 1.4-1.5x faster than `x @ w.T` without slowing
# the prefill-sized ones (256-2048 rows) down.
PACK_ROWS = 64


class Projection:
    """`x @ weight.T` for a frozen weight [out, in]. In bfloat16 on a CPU whose oneDNN has
    bfloat16 kernels, the weight is laid out once in oneDNN's own blocked format ("prepacked",
    as torch.compile's CPU backend does with frozen weights) and multiplied by oneDNN's linear
    kernel: decoding streams every weight once per token, and the layers' prepacked weights
    streamed 1.4-1.5x faster than plain ones, a whole decode step 1.05-1.4x (docs/performance.md).
    Elsewhere a plain matmul. Either way the same products: the tests compare both paths."""

    __slots__ = ("packed", "weight")

    def __init__(self, weight: torch.Tensor, pack: bool | None = None) -> None:
        """`pack`: force prepacking on or off (None: where `can_prepack` says it runs)."""
        self.packed = can_prepack(weight) if pack is None else pack
        self.weight = (
            torch.ops.mkldnn._reorder_linear_weight(weight, PACK_ROWS) if self.packed else weight
        )

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        if self.packed:
            out: torch.Tensor = torch.ops.mkldnn._linear_pointwise(
                x, self.weight, None, "none", [], ""
            )
            return out
        return x @ self.weight.T

    @property
    def dtype(self) -> torch.dtype:
        return self.weight.dtype


def can_prepack(weight: torch.Tensor) -> bool:
    """Whether `Projection` prepacks `weight`: bfloat16, on a CPU, with oneDNN's bfloat16
    kernels (`torch.ops.mkldnn`, absent from some builds) available."""
    return weight.dtype == torch.bfloat16 and weight.device.type == "cpu" and _onednn_bf16()


@functools.cache
def _onednn_bf16() -> bool:
    """Whether oneDNN's bfloat16 linear runs here: checked once on a tiny product (a build or
    CPU without these operators says no instead of failing mid-rollout)."""
    try:
        if not (
            torch.backends.mkldnn.is_available()  # type: ignore[no-untyped-call]
            and torch.ops.mkldnn._is_mkldnn_bf16_supported()
        ):
            return False
        weight = torch.eye(4, dtype=torch.bfloat16)
        packed = torch.ops.mkldnn._reorder_linear_weight(weight, PACK_ROWS)
        x = torch.arange(8, dtype=torch.bfloat16).view(2, 4)
        out = torch.ops.mkldnn._linear_pointwise(x, packed, None, "none", [], "")
        return bool(torch.equal(out, x))
    except (AttributeError, RuntimeError, NotImplementedError):  # a build without them
        return False


# model type -> the MLP activation the decoder computes for it
ARCHITECTURES = {"llama": "silu", "gemma3_text": "gelu_pytorch_tanh"}


def unsupported(model: Any) -> str | None:
    """Why `model` cannot run on LlamaBatch (None: it can): a Llama or Gemma 3 text model with
    rotary embeddings of the default type and no biases."""
    base = base_model(model)
    config = getattr(base, "config", None)
    kind = getattr(config, "model_type", None)
    if config is None or kind not in ARCHITECTURES:
        return f"model type {kind!r} is neither of {', '.join(map(repr, ARCHITECTURES))}"
    ropes = getattr(config, "rope_parameters", None) or {}
    if kind == "gemma3_text":
        ropes = {name: ropes.get(name) or {} for name in config.layer_types}
        for name in ("attn_logit_softcapping", "final_logit_softcapping"):
            if getattr(config, name, None) is not None:
                return f"{name} {getattr(config, name)}"
        if getattr(config, "use_bidirectional_attention", False):
            return "bidirectional attention"
        if any("rope_theta" not in rope for rope in ropes.values()):
            return "no rope_theta per layer type in rope_parameters"
    else:
        ropes = {"rope": ropes}
        if (getattr(config, "rope_scaling", None) or {}).get("rope_type", "default") != "default":
            return "rope scaling"
    for name, rope in ropes.items():
        if name not in ("rope", "full_attention", "sliding_attention"):
            return f"layer type {name!r}"
        if rope.get("rope_type", "default") != "default":
            return f"rope type {rope.get('rope_type')!r}"
    act = getattr(config, "hidden_act", None) or getattr(config, "hidden_activation", None)
    if act != ARCHITECTURES[kind]:
        return f"activation {act!r}"
    for name, module in base.named_modules():
        if isinstance(module, torch.nn.Linear) and module.bias is not None:
            return f"{name} has a bias"
    return None


@dataclass(slots=True)
class Layer:
    """One decoder layer's weights. Norm weights as `LlamaWeights.rms` takes them; Gemma 3's
    extras (None for Llama): q/k norms stacked per head [heads + kv, D] (float32), the norms of
    the attention's and the MLP's outputs, and `local`: a sliding-window layer, with its own
    rotary base."""

    attn_norm: torch.Tensor
    qkv: Projection
    o: Projection
    mlp_norm: torch.Tensor
    gate_up: Projection
    down: Projection
    qk_norm: torch.Tensor | None = None
    attn_out_norm: torch.Tensor | None = None
    mlp_out_norm: torch.Tensor | None = None
    local: bool = False


class LlamaWeights:
    """A frozen snapshot of a Llama or Gemma 3 model's weights (LoRA adapters merged), in
    `dtype`, with the q/k/v and gate/up projections of each layer concatenated into one
    `Projection` each (`pack`: prepack the projections or not; None: where `can_prepack` says
    so). What Gemma 3 adds (`gemma`): the embedding scaled by sqrt(hidden), RMSNorm weights as
    offsets from 1 (scaled in float32), q/k norms, norms of each block's output, a GELU (tanh)
    MLP, the attention scaled by `query_pre_attn_scalar`, and sliding-window layers (`window`)
    with a rotary base of their own."""

    @torch.no_grad()
    def __init__(
        self, model: Any, dtype: torch.dtype | None = None, *, pack: bool | None = None
    ) -> None:
        base = base_model(model)
        config = base.config
        self.gemma = config.model_type == "gemma3_text"
        self.n_heads = config.num_attention_heads
        self.n_kv = config.num_key_value_heads
        self.head_dim = getattr(config, "head_dim", None) or config.hidden_size // self.n_heads
        self.eps = float(config.rms_norm_eps)
        param = next(base.parameters())
        self.device: torch.device = param.device
        self.dtype = dtype or param.dtype
        weight = _weight_of(model)  # one merged fp32 weight alive at a time, not all
        decoder = base.model
        take = self._take

        def project(w: torch.Tensor) -> Projection:
            return Projection(take(w), pack)

        self.embed = take(decoder.embed_tokens.weight)
        # Gemma: the embedding's output times sqrt(hidden), rounded to the weights' dtype first
        self.embed_scale = (
            torch.tensor(config.hidden_size**0.5, dtype=self.dtype, device=self.device)
            if self.gemma
            else None
        )
        self.norm = self._take_norm(decoder.norm.weight)
        head = base.get_output_embeddings()
        tied = head.weight is decoder.embed_tokens.weight
        # a Projection even when tied to the embedding: prepacked, a copy (+56 MB for SmolLM2
        # in bfloat16) that streams its 49k x 576 weights per decode step ~2x faster at 4-16
        # rows than the plain product (docs/performance.md); plain, the embedding itself
        self.head = Projection(self.embed if tied else take(weight(head)), pack)
        kinds = config.layer_types if self.gemma else ["full_attention"] * len(decoder.layers)
        self.layers = [
            self._layer(layer, project, weight, kind == "sliding_attention")
            for layer, kind in zip(decoder.layers, kinds, strict=True)
        ]
        self.window: int | None = config.sliding_window if self.gemma else None
        scalar = config.query_pre_attn_scalar if self.gemma else self.head_dim
        self.scale = float(scalar) ** -0.5  # of the attention's scores
        # The decode step's attention: torch's fused kernel (sdpa) where it is fast, the grouped
        # products of `_grouped_attention` on CPUs whose bfloat16 products have no AMX tiles,
        # where sdpa's bfloat16 kernel took ~2/3 of a decode step (docs/performance.md)
        self.grouped_decode = (
            self.device.type == "cpu" and self.dtype == torch.bfloat16 and not amx_tiles()
        )
        thetas = _rope_bases(config, self.gemma)
        half = torch.arange(0, self.head_dim, 2, dtype=torch.int64, device=self.device)
        # [D/2] each, float32: the global layers' and, for Gemma, the local layers'
        self.inv_freqs = [1.0 / t ** (half.float() / self.head_dim) for t in thetas]
        # the rotation's sign per dimension, folded into `rope`'s sin: -1 on the first half
        self.sin_sign = torch.ones(self.head_dim, device=self.device)
        self.sin_sign[: self.head_dim // 2] = -1.0

    def _layer(
        self,
        layer: Any,
        project: Callable[[torch.Tensor], Projection],
        weight: Callable[[Any], torch.Tensor],
        local: bool,
    ) -> Layer:
        attn, mlp, norm = layer.self_attn, layer.mlp, self._take_norm
        qkv = torch.cat([weight(attn.q_proj), weight(attn.k_proj), weight(attn.v_proj)])
        gate_up = torch.cat([weight(mlp.gate_proj), weight(mlp.up_proj)])
        parts = Layer(
            norm(layer.input_layernorm.weight),
            project(qkv),
            project(weight(attn.o_proj)),
            norm(layer.pre_feedforward_layernorm.weight)
            if self.gemma
            else norm(layer.post_attention_layernorm.weight),
            project(gate_up),
            project(weight(mlp.down_proj)),
        )
        if self.gemma:
            q, k = (norm(x.weight) for x in (attn.q_norm, attn.k_norm))  # 1 + w, float32
            parts.qk_norm = torch.cat([q.expand(self.n_heads, -1), k.expand(self.n_kv, -1)])
            parts.attn_out_norm = norm(layer.post_attention_layernorm.weight)
            parts.mlp_out_norm = norm(layer.post_feedforward_layernorm.weight)
            parts.local = local
        return parts

    def _take(self, weight: torch.Tensor) -> torch.Tensor:
        return weight.detach().to(self.dtype, copy=True).contiguous()

    def _take_norm(self, weight: torch.Tensor) -> torch.Tensor:
        """An RMSNorm's weight as `rms` applies it: Gemma's 1 + w in float32, Llama's w in the
        snapshot's dtype."""
        return (1.0 + weight.detach().float()).contiguous() if self.gemma else self._take(weight)

    def rms(self, x: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
        """transformers' RMSNorm of the model: normalised in float32 (torch's fused kernel: the
        same values in fewer operations); Llama's cast back, then scaled; Gemma's scaled by
        1 + w in float32, then cast back."""
        if self.gemma:
            return F.rms_norm(x.float(), (x.shape[-1],), weight, self.eps).to(x.dtype)
        return weight * F.rms_norm(x.float(), (x.shape[-1],), None, self.eps).to(x.dtype)

    def rope(
        self, positions: torch.Tensor, local: bool = False
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """cos and sin [..., D] of `positions` (float32 math, cast like transformers does), the
        sin's first half negated: the rotation's sign, so that `llama._rotate` needs no
        negation of its own (x2 * -sin is -x2 * sin exactly). `local`: Gemma's sliding-window
        layers' rotary base."""
        freqs = positions.float().unsqueeze(-1) * self.inv_freqs[int(local)]  # [..., D/2]
        emb = torch.cat([freqs, freqs], dim=-1)
        return emb.cos().to(self.dtype), (emb.sin() * self.sin_sign).to(self.dtype)

    def act(self, gate: torch.Tensor) -> torch.Tensor:
        """The MLP's activation: Llama's SiLU, Gemma's tanh-approximated GELU."""
        return F.gelu(gate, approximate="tanh") if self.gemma else F.silu(gate)


def _rope_bases(config: Any, gemma: bool) -> list[float]:
    """The rotary bases: the global layers', then for Gemma the sliding-window layers'."""
    ropes = getattr(config, "rope_parameters", None) or {}
    if gemma:
        return [
            float(ropes[kind]["rope_theta"]) for kind in ("full_attention", "sliding_attention")
        ]
    return [float(ropes.get("rope_theta", getattr(config, "rope_theta", 10000.0)))]


def _weight_of(model: Any) -> Callable[[Any], torch.Tensor]:
    """Module -> its weight with the adapter(s) `model` generates with folded in (a LoRA layer
    of a peft model, or of an `AdapterView` of one adapter); a plain module's own weight. Each
    merged weight is computed when asked for, so a snapshot never holds them all in float32."""
    if not hasattr(model, "get_base_model"):
        return lambda module: module.weight  # type: ignore[no-any-return]
    view = getattr(model, "adapter", None)  # an AdapterView generates with its own adapter

    def weight(module: Any) -> torch.Tensor:
        if not (hasattr(module, "get_delta_weight") and hasattr(module, "base_layer")):
            return module.weight  # type: ignore[no-any-return]
        base: torch.Tensor = module.base_layer.weight.detach()
        adapters = [view] if isinstance(view, str) else list(module.active_adapters)
        deltas = [
            module.get_delta_weight(adapter)
            for adapter in adapters
            if adapter in module.lora_A and adapter not in module.merged_adapters
        ]
        # in the wider of the two dtypes: a bfloat16 base (a bf16 learner's) would round a
        # small update away before the snapshot's own cast
        dtype = functools.reduce(torch.promote_types, [d.dtype for d in deltas], base.dtype)
        merged = base.to(dtype, copy=True)
        for delta in deltas:
            merged += delta
        return merged

    return weight
