"""RL math on tensors: chunked token log-probs, GRPO/GSPO losses with TIS, KL and aggregation
(docs/algorithms.md). Pure functions, registered by name; no model, optimizer or loop state here."""

from __future__ import annotations

from mars2.rl.aggregate import AGGREGATIONS, Normaliser, aggregate, normaliser
from mars2.rl.kl import KL_ESTIMATORS, kl_k1, kl_k2, kl_k3
from mars2.rl.logprobs import token_logprobs
from mars2.rl.losses import LOSSES, Surrogate, grpo_surrogate, gspo_surrogate, policy_loss
from mars2.rl.tis import tis_weights

__all__ = [
    "AGGREGATIONS",
    "KL_ESTIMATORS",
    "LOSSES",
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
