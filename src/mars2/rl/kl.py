"""Per-token estimators of KL(π_θ ‖ π_ref) from sampled tokens (Schulman's k1, k2, k3)."""

from __future__ import annotations

import torch
from torch import Tensor

_MAX_LOG_RATIO = 20.0  # keeps exp() finite; reached only by a policy that has diverged


def kl_k1(logp: Tensor, ref_logp: Tensor) -> Tensor:
    """k1 = log π_θ - log π_ref (unbiased, high variance, can be negative)."""
    return logp - ref_logp


def kl_k2(logp: Tensor, ref_logp: Tensor) -> Tensor:
    """k2 = ½ (log π_θ - log π_ref)² (biased, low variance, >= 0)."""
    return 0.5 * (logp - ref_logp) ** 2


def kl_k3(logp: Tensor, ref_logp: Tensor) -> Tensor:
    """k3 = exp(d) - d - 1 with d = log π_ref - log π_θ (unbiased, >= 0)."""
    d = (ref_logp - logp).clamp(-_MAX_LOG_RATIO, _MAX_LOG_RATIO)
    return torch.exp(d) - d - 1
