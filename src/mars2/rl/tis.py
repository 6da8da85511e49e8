"""Truncated importance sampling weights that correct the rollout-engine/learner mismatch once.

The rollout engine (vLLM, a quantised or differently-batched HF model) samples from π_rollout,
which differs slightly from the learner's π_old on the same weights. The policy ratio is taken
against π_old; this weight, w = min(π_old/π_rollout, C), is the only place π_rollout enters.
"""

from __future__ import annotations

import math
from typing import Literal

import torch
from torch import Tensor

TisLevel = Literal["token", "sequence"]
TisMode = Literal["truncate", "mask"]


@torch.no_grad()
def tis_weights(
    old_logp: Tensor,
    rollout_logp: Tensor,
    mask: Tensor,
    *,
    level: TisLevel,
    mode: TisMode,
    cap: float,
) -> Tensor:
    """Detached weights [B, T]. token: w_t = π_old/π_rollout per token; sequence: w = Π_t of the
    token ratios over the response, the same for every token. `truncate` gives min(w, C), `mask`
    gives w where w <= C and 0 above. Padding positions get 1 (they are masked later anyway)."""
    valid = mask.bool()
    log_w = torch.where(valid, old_logp.float() - rollout_logp.float(), 0.0)  # [B, T]
    if level == "sequence":
        log_w = log_w.sum(-1, keepdim=True).expand_as(log_w)
    elif level != "token":
        raise ValueError(f"unknown TIS level {level!r}; expected 'token' or 'sequence'")
    log_cap = math.log(cap)
    w = torch.exp(log_w.clamp(max=log_cap))
    if mode == "mask":
        w = torch.where(log_w > log_cap, 0.0, w)
    elif mode != "truncate":
        raise ValueError(f"unknown TIS mode {mode!r}; expected 'truncate' or 'mask'")
    return torch.where(valid, w, 1.0)
