"""The learning check of the learner benches: what a contender's update did to the policy.

A faster learner that learns less per update is no faster where it counts, so the benches that
time an update (`train_step.py`, `grpo_step.py`) also measure its effect, the same way for every
contender and precision. Each contender's worker saves the change its update(s) made
(`trained_change`): for a LoRA model each adapter's float32 factors, whose `scaling * B @ A`
is the whole change (the adapter starts at B = 0), else every trained weight. The
driver then applies each change to one float32 copy of the model's initial weights and rescores
the batch's sampled tokens (`evaluate_changes`), so neither the evaluation's precision nor its
kernels differ between contenders: only the updates do.

The figure (`learning_effect`) is the mean over the batch's samples of sign(advantage) times the
mean change of the sample's response-token log-probs (nats): positive when the update raised
the log-probs of samples better than their group and lowered those of worse ones, as the
policy gradient asks. `check_lines` compares each mars2 row with the float32 reference (TRL's
float32 row of the same adapter; the same mars2 row in float32 where TRL is not run) and flags
LEARNS LESS below `LEARNS_LESS` times it.
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

# `--precision` of both learner benches reaches their worker processes through this variable:
# the matched precision, `auto` (mars2's `train.precision: auto`: fp32 on CPUs) unless set.
PRECISION_ENV = "MARS2_BENCH_PRECISION"
PRECISIONS = ("auto", "bf16", "fp32")
LEARNS_LESS = 0.8  # a mars2 row whose effect is below this share of the fp32 reference is flagged
EVAL_ROWS = 4  # samples rescored per forward pass


def add_precision_option(parser: argparse.ArgumentParser) -> None:
    """`--precision`, the matched training precision of a learner bench."""
    parser.add_argument(
        "--precision",
        choices=PRECISIONS,
        default="auto",
        help="the matched training precision (auto: mars2's train.precision auto here, fp32 on "
        "CPUs; bf16: the bfloat16 learners, checked against fp32 rows)",
    )


def export_precision(precision: str) -> None:
    """Hand the driver's `--precision` to the worker processes it starts (they inherit it)."""
    os.environ[PRECISION_ENV] = precision


def learning_effect(
    before: Sequence[Sequence[float]], after: Sequence[Sequence[float]], advantages: Sequence[float]
) -> float:
    """Mean over samples of sign(advantage) * mean over the sample's response tokens of
    (log-prob after - log-prob before); samples with advantage 0 count as 0."""
    assert len(before) == len(after) == len(advantages) > 0
    total = 0.0
    for old, new, advantage in zip(before, after, advantages, strict=True):
        assert len(old) == len(new) > 0
        sign = (advantage > 0) - (advantage < 0)
        total += sign * sum(b - a for a, b in zip(old, new, strict=True)) / len(old)
    return total / len(advantages)


def effect_ratio(ours: float | None, reference: float | None) -> float | None:
    """ours / reference, or None where either is missing or the reference does not learn (<= 0)."""
    if ours is None or reference is None or reference <= 0 or math.isnan(ours):
        return None
    return ours / reference


def _base_name(name: str) -> str:
    """The base model's name of a parameter or module of a peft model (or of the model itself)."""
    for prefix in ("base_model.model.", "module."):
        name = name.removeprefix(prefix)
    return name.replace(".base_layer", "")


def trained_change(model: Any) -> dict[str, dict[str, Any]]:
    """The change training made to `model`'s weights, float32, by the base model's parameter
    names: {"lora": {name: [(scaling, A, B), ...]}} for a LoRA model (its active adapters; the
    change is the sum of scaling * B @ A), else {"weights": {name: the trained weight}} for every
    weight that requires grad."""
    import torch

    deltas: dict[str, Any] = {}
    with torch.no_grad():
        for name, module in model.named_modules():
            if not hasattr(module, "lora_A") or not hasattr(module, "scaling"):
                continue
            for adapter in module.active_adapters:
                if adapter not in module.lora_A:
                    continue
                a = module.lora_A[adapter].weight.detach().float().clone()  # [r, in]
                b = module.lora_B[adapter].weight.detach().float().clone()  # [out, r]
                key = _base_name(name) + ".weight"
                deltas.setdefault(key, []).append((float(module.scaling[adapter]), a, b))
        if deltas:
            return {"lora": deltas}
        weights = {
            _base_name(n): p.detach().float().clone()
            for n, p in model.named_parameters()
            if p.requires_grad
        }
    return {"weights": weights}


def save_change(model: Any, path: Path) -> None:
    import torch

    torch.save(trained_change(model), path)


def response_logprobs(
    model: Any, samples: Sequence[Any], temperature: float = 1.0
) -> list[list[float]]:
    """Each sample's response-token log-probs under `model` (of logits / `temperature`, float32,
    no grad), `EVAL_ROWS` right-padded samples per pass."""
    import torch

    from mars2.engine.logprobs import token_logprobs

    out: list[list[float]] = []
    for start in range(0, len(samples), EVAL_ROWS):
        chunk = samples[start : start + EVAL_ROWS]
        seqs = [list(s.prompt_ids) + list(s.response_ids) for s in chunk]
        width = max(map(len, seqs))
        ids = torch.zeros((len(seqs), width), dtype=torch.long)
        mask = torch.zeros_like(ids)
        positions = torch.zeros((len(seqs), width - 1))
        for i, (seq, s) in enumerate(zip(seqs, chunk, strict=True)):
            ids[i, : len(seq)], mask[i, : len(seq)] = torch.tensor(seq), 1
            positions[i, len(s.prompt_ids) - 1 : len(seq) - 1] = 1
        with torch.no_grad():
            logp = token_logprobs(model, ids, mask, temperature=temperature, positions=positions)
        for i, s in enumerate(chunk):
            begin = len(s.prompt_ids) - 1
            out.append(logp[i, begin : begin + len(s.response_ids)].tolist())
    return out


def lora_delta(factors: Sequence[tuple[float, Any, Any]]) -> Any:
    """The weight change of one layer's adapters: the sum of scaling * B @ A."""
    return sum(scaling * (b @ a) for scaling, a, b in factors)


def evaluate_changes(
    model_name: str,
    samples_for: Callable[[Any], Sequence[Any]],
    changes: Mapping[str, Path],
    temperature: float = 1.0,
) -> dict[str, float]:
    """`learning_effect` of each saved change (`save_change`) on the batch `samples_for(model)`,
    each applied in turn to one float32 copy of `model_name`'s initial weights; log-probs of
    logits / `temperature` (the loss's)."""
    import torch

    from mars2.agents import load_model

    model, _ = load_model(model_name, dtype="float32")
    model.eval()
    samples = samples_for(model)
    before = response_logprobs(model, samples, temperature)
    advantages = [s.advantage for s in samples]
    params = dict(model.named_parameters())
    effects = {}
    for name, path in changes.items():
        change = torch.load(path, weights_only=True)
        tensors = change.get("lora") or change["weights"]
        kept = {k: params[k].detach().clone() for k in tensors if k in params}
        missing = sorted(set(tensors) - set(params))
        assert not missing, f"{name}: weights the model does not have: {missing[:3]}"
        with torch.no_grad():
            for key, tensor in tensors.items():
                if "lora" in change:
                    params[key].add_(lora_delta(tensor))
                else:
                    params[key].copy_(tensor)
            after = response_logprobs(model, samples, temperature)
            effects[name] = learning_effect(before, after, advantages)
            for key, original in kept.items():
                params[key].copy_(original)
    return effects


def check_lines(effects: Mapping[str, float], pairs: Sequence[tuple[str, str]]) -> list[str]:
    """One line per (row, float32 reference row) pair present in `effects`: both effects, their
    ratio, and LEARNS LESS where the ratio is below `LEARNS_LESS` (or the reference learns and
    the row does not)."""
    lines = []
    for ours, reference in pairs:
        if ours not in effects or reference not in effects:
            continue
        ratio = effect_ratio(effects[ours], effects[reference])
        verdict = "ok"
        if ratio is None:
            verdict = "reference does not learn" if effects[reference] <= 0 else "n/a"
        elif ratio < LEARNS_LESS:
            verdict = f"LEARNS LESS (< {LEARNS_LESS}x)"
        shown = "n/a" if ratio is None else f"{ratio:.2f}x"
        lines.append(
            f"{ours} / {reference}: {effects[ours]:.3e} / {effects[reference]:.3e} nats = "
            f"{shown}: {verdict}"
        )
    return lines
