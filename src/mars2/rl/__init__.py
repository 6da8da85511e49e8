"""RL math on tensors: chunked token log-probs, GRPO/GSPO losses with TIS, KL and aggregation
(docs/algorithms.md). Pure functions, named in mars2.registry; no model, optimizer or loop state here."""

from __future__ import annotations

from mars2.rl.aggregate import Normaliser, aggregate, normaliser
from mars2.rl.kl import kl_k1, kl_k2, kl_k3
from mars2.rl.logprobs import token_logprobs
from mars2.rl.losses import Surrogate, grpo_surrogate, gspo_surrogate, policy_loss
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
    "tis_weights",
    "token_logprobs",
]
