"""Clipped policy-gradient losses (GRPO token ratios, GSPO sequence ratio) with TIS, KL and
aggregation (docs/algorithms.md). Surrogates, KL estimators and aggregations are looked up by name in
mars2.registry (LOSSES, KL_ESTIMATORS, AGGREGATIONS)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import torch
from torch import Tensor

from mars2.config import LossConfig
from mars2.registry import KL_ESTIMATORS, LOSSES
from mars2.rl.aggregate import aggregate, normaliser
from mars2.rl.tis import tis_weights

_MAX_LOG_RATIO = 20.0  # exp(±20) stays finite in fp32; only a diverged policy gets there


@dataclass(frozen=True)
class Surrogate:
    """What a registered loss returns: per-token loss before TIS and KL, the ratio it clipped
    (broadcast to tokens) and where the clip was active (the gradient is zero there)."""

    per_token: Tensor  # [B, T]
    ratio: Tensor  # [B, T]
    clipped: Tensor  # [B, T] bool


SurrogateFn = Callable[[Tensor, Tensor, Tensor, Tensor, float, float], Surrogate]


def _clipped_objective(ratio: Tensor, adv: Tensor, clip_low: float, clip_high: float) -> Tensor:
    """-min(ρ·A, clip(ρ, 1-ε_low, 1+ε_high)·A), elementwise with broadcasting."""
    return -torch.min(ratio * adv, ratio.clamp(1 - clip_low, 1 + clip_high) * adv)


def _clip_active(ratio: Tensor, adv: Tensor, clip_low: float, clip_high: float) -> Tensor:
    return ((ratio < 1 - clip_low) & (adv < 0)) | ((ratio > 1 + clip_high) & (adv > 0))


def _log_ratio(logp: Tensor, old_logp: Tensor, mask: Tensor) -> Tensor:
    """log π_θ - log π_old on response tokens, 0 on padding (which may hold anything)."""
    diff = (logp - old_logp).clamp(-_MAX_LOG_RATIO, _MAX_LOG_RATIO)
    return diff.where(mask.bool(), 0.0)


def grpo_surrogate(
    logp: Tensor,
    old_logp: Tensor,
    advantages: Tensor,
    mask: Tensor,
    clip_low: float,
    clip_high: float,
) -> Surrogate:
    """Token-level PPO/GRPO: ρ_t = exp(log π_θ - log π_old) per token."""
    ratio = torch.exp(_log_ratio(logp, old_logp, mask))  # [B, T]
    adv = advantages.unsqueeze(-1)  # [B, 1]
    per_token = _clipped_objective(ratio, adv, clip_low, clip_high)
    clipped = _clip_active(ratio, adv, clip_low, clip_high)
    return Surrogate(per_token, ratio, clipped)


def gspo_surrogate(
    logp: Tensor,
    old_logp: Tensor,
    advantages: Tensor,
    mask: Tensor,
    clip_low: float,
    clip_high: float,
) -> Surrogate:
    """GSPO: one ratio per sequence, s = exp(mean_t(log π_θ - log π_old)), clipped once; the
    sequence loss is given to each of its tokens so every aggregation applies unchanged."""
    lengths = mask.sum(-1, keepdim=True).clamp(min=1)
    ratio = torch.exp(_log_ratio(logp, old_logp, mask).sum(-1, keepdim=True) / lengths)  # [B, 1]
    adv = advantages.unsqueeze(-1)
    per_seq = _clipped_objective(ratio, adv, clip_low, clip_high)  # [B, 1]
    clipped = _clip_active(ratio, adv, clip_low, clip_high)
    shape = logp.shape
    return Surrogate(per_seq.expand(shape), ratio.expand(shape), clipped.expand(shape))


def _masked_mean(x: Tensor, mask: Tensor) -> Tensor:
    return x.float().where(mask, 0.0).sum() / mask.sum().clamp(min=1)


@torch.no_grad()
def _stats(
    loss: Tensor, pg_loss: Tensor, surrogate: Surrogate, kl: Tensor, weights: Tensor, valid: Tensor
) -> dict[str, float]:
    """Token-weighted statistics over the response tokens, fetched with one device sync."""
    tis_max = weights.where(valid, 0.0).max() if bool(valid.any()) else weights.new_ones(())
    values = {
        "loss": loss.float(),
        "pg_loss": pg_loss.float(),
        "clip_frac": _masked_mean(surrogate.clipped, valid),
        "ratio_mean": _masked_mean(surrogate.ratio, valid),
        "kl": _masked_mean(kl, valid),
        "tis_mean": _masked_mean(weights, valid),
        "tis_max": tis_max.float(),
        "tis_masked_frac": _masked_mean(weights == 0, valid),
        "tokens": valid.sum().float(),
        "seqs": torch.tensor(float(valid.shape[0]), device=valid.device),
    }
    return dict(zip(values, torch.stack(list(values.values())).tolist(), strict=True))


# long: a 20-line docstring states the formula; the body (~30 lines) is that formula in order
def policy_loss(
    config: LossConfig,
    logp: Tensor,
    old_logp: Tensor,
    advantages: Tensor,
    mask: Tensor,
    *,
    rollout_logp: Tensor | None = None,
    ref_logp: Tensor | None = None,
    loss_scale_tokens: int | None = None,
    loss_scale_seqs: int | None = None,
    norm_len: int | None = None,
) -> tuple[Tensor, dict[str, float]]:
    """The loss of one micro-batch and its statistics.

    Tensors are [B, T] over response tokens (`mask` 1 on real tokens) and `advantages` is [B].
    `logp` carries gradients; `old_logp` (the learner's policy at rollout time), `rollout_logp`
    (the engine's sampling log-probs, needed unless `config.tis` is `none`) and `ref_logp`
    (needed when `config.kl_coef` > 0) are treated as constants. Per token:

        ℓ_t = w_t · surrogate_t + β · KL_t,   w = TIS weight (1 when tis = none)

    aggregated by `config.aggregation_used`. For micro-batch invariance pass the whole batch's sizes:
    `loss_scale_tokens` (response tokens: token-mean), `loss_scale_seqs` (sequences:
    seq-mean-*) and `norm_len` (the fixed L of seq-mean-token-sum-norm, e.g. max_new_tokens);
    then the micro-batch losses sum to the whole-batch loss (see mars2.rl.aggregate).

    Statistics are token-weighted means over this micro-batch's response tokens (`tokens` says
    how many, to combine micro-batches): loss, pg_loss, clip_frac, ratio_mean, kl, tis_mean,
    tis_max, tis_masked_frac, tokens, seqs."""
    surrogate_fn: SurrogateFn = LOSSES.get(config.name)
    valid = mask.bool()
    old_logp, advantages = old_logp.detach(), advantages.detach().to(logp.dtype)
    surrogate = surrogate_fn(logp, old_logp, advantages, mask, config.clip_low, config.clip_high)
    per_token = surrogate.per_token
    weights = torch.ones_like(per_token)
    if config.tis != "none":
        if rollout_logp is None:
            raise ValueError(
                f"loss.tis={config.tis!r} needs rollout_logp (the engine's log-probs); "
                "set loss.tis=none when the learner itself sampled"
            )
        weights = tis_weights(
            old_logp, rollout_logp, mask, level=config.tis, mode=config.tis_mode, cap=config.tis_cap
        )
        per_token = per_token * weights
    norm = normaliser(mask, tokens=loss_scale_tokens, seqs=loss_scale_seqs, norm_len=norm_len)
    pg_loss = aggregate(per_token, mask, config.aggregation_used, norm)
    loss = pg_loss
    kl = torch.zeros_like(per_token)
    if ref_logp is not None:
        ref_logp = ref_logp.detach()
        # padding may hold -inf; give it the reference's value so no NaN reaches the gradient
        kl = KL_ESTIMATORS.get(config.kl_estimator)(logp.where(valid, ref_logp), ref_logp)
    if config.kl_coef > 0:
        if ref_logp is None:
            raise ValueError("loss.kl_coef > 0 needs ref_logp (the frozen reference's log-probs)")
        loss = loss + config.kl_coef * aggregate(kl, mask, config.aggregation_used, norm)
    return loss, _stats(loss, pg_loss, surrogate, kl, weights, valid)
