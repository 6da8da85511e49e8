"""Per-token losses [B, T] to one number, so that splitting a batch into micro-batches changes nothing.

Each aggregation is a sum over this micro-batch divided by a normaliser of the WHOLE batch (the
rows of one optimizer step, across micro-batches and data-parallel ranks):

    token-mean               Σ_b Σ_t m·ℓ / N_tok              N_tok = response tokens in the batch
    seq-mean-token-mean      Σ_b (Σ_t m·ℓ / Σ_t m) / N_seq    N_seq = sequences in the batch
    seq-mean-token-sum-norm  Σ_b Σ_t m·ℓ / (N_seq · L)        L = a fixed length (Dr. GRPO), e.g. L_max

Because the normaliser is global, the losses of the micro-batches add up to the loss of the
whole batch, and so do their gradients: call backward on each and step once. When the
normalisers are not given they default to this micro-batch's own, which is the full-batch loss
only when there is a single micro-batch.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from torch import Tensor

from mars2.registry import AGGREGATIONS


@dataclass(frozen=True)
class Normaliser:
    """Whole-batch sizes: response tokens, sequences, and L for seq-mean-token-sum-norm."""

    tokens: float
    seqs: float
    norm_len: float


def _masked(per_token: Tensor, mask: Tensor) -> Tensor:
    return per_token.where(mask.bool(), 0.0)


def token_mean(per_token: Tensor, mask: Tensor, norm: Normaliser) -> Tensor:
    return _masked(per_token, mask).sum() / max(norm.tokens, 1.0)


def seq_mean_token_mean(per_token: Tensor, mask: Tensor, norm: Normaliser) -> Tensor:
    lengths = mask.sum(-1).clamp(min=1)  # a sequence without tokens contributes 0
    return (_masked(per_token, mask).sum(-1) / lengths).sum() / max(norm.seqs, 1.0)


def seq_mean_token_sum_norm(per_token: Tensor, mask: Tensor, norm: Normaliser) -> Tensor:
    return _masked(per_token, mask).sum() / max(norm.seqs * norm.norm_len, 1.0)


def normaliser(
    mask: Tensor,
    *,
    tokens: int | None = None,
    seqs: int | None = None,
    norm_len: int | None = None,
) -> Normaliser:
    """Whole-batch sizes; each one not given is taken from this micro-batch's `mask` [B, T]
    (norm_len: its width T)."""
    return Normaliser(
        tokens=float(mask.sum().item()) if tokens is None else float(tokens),
        seqs=float(mask.shape[0]) if seqs is None else float(seqs),
        norm_len=float(mask.shape[1]) if norm_len is None else float(norm_len),
    )


def aggregate(per_token: Tensor, mask: Tensor, aggregation: str, norm: Normaliser) -> Tensor:
    """One scalar from per-token losses [B, T] with response mask [B, T] (see module doc)."""
    aggregate_fn: Callable[[Tensor, Tensor, Normaliser], Tensor] = AGGREGATIONS.get(aggregation)
    return aggregate_fn(per_token, mask, norm)
