"""RL math on tensors: GRPO/GSPO losses with TIS, KL and aggregation (docs/algorithms.md).

Pure functions, named in mars2.registry; no model, optimizer or loop state here (the token
log-probs of a forward pass are mars2.engine.logprobs)."""

from __future__ import annotations

from mars2.rl.aggregate import Normaliser, aggregate, normaliser
from mars2.rl.kl import kl_k1, kl_k2, kl_k3
from mars2.rl.losses import Surrogate, grpo_surrogate, gspo_surrogate, policy_loss
from mars2.rl.sft import sft_loss
from mars2.rl.tis import tis_weights

__all__ = [
    "Normaliser",
    "Surrogate",
    "aggregate",
    "grpo_surrogate",
    "gspo_surrogate",
    "kl_k1",
    "kl_k2",
    "kl_k3",
    "normaliser",
    "policy_loss",
    "sft_loss",
    "tis_weights",
]
