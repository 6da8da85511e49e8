"""The supervised term on repair pairs: token-level negative log-likelihood of a target given its
prompt (docs/algorithms.md, "Supervised repair term").

L_sft = -(1/N) Σ_pairs Σ_{t in target} log π_θ(y_t | prompt, y_<t), N = the target tokens of
the whole mini-batch: prompt positions are masked out and every target token weighs the same
(token-mean, as the default policy-loss aggregation), so the value does not depend on how the
mini-batch is cut into micro-batches.
"""

from __future__ import annotations

from torch import Tensor


def sft_loss(logp: Tensor, mask: Tensor, n_tokens: int) -> Tensor:
    """One micro-batch's share of L_sft: -Σ logp·mask / n_tokens, with `logp` and `mask` [B, T]
    (mask 1 on target tokens, 0 on prompt and padding) and `n_tokens` the target tokens of the
    whole mini-batch (summing the micro-batches' shares gives L_sft)."""
    assert n_tokens > 0, "the supervised term needs at least one target token"
    return -(logp * mask).sum() / n_tokens
