"""Token sampling with temperature and top-p, one seeded generator per row, and log-probs.

The log-prob returned for a sampled token is under softmax(logits / temperature) BEFORE top-p
truncation: exactly what a learner recomputes from a forward pass at the same temperature.
Sampling inverts the (truncated) CDF with one uniform draw per row from that row's generator,
so a request's tokens do not depend on which other requests share its batch.
"""

from __future__ import annotations

import torch

_FIRST_K = 256  # candidates tried before sorting the whole vocabulary for top-p


def sample_tokens(
    logits: torch.Tensor,  # [B, V]
    temperature: float,
    top_p: float,
    generators: list[torch.Generator],
) -> tuple[torch.Tensor, torch.Tensor]:
    """Sample one token per row; return (tokens [B], log-probs [B]) as float32 log-probs."""
    logp = torch.log_softmax(logits.float() / temperature, dim=-1)  # [B, V]
    probs = logp.exp()
    u = torch.cat([torch.rand(1, generator=g) for g in generators]).to(probs.device)  # [B]
    if top_p < 1.0:
        sorted_p, order = _top_mass(probs, top_p)
        keep = (sorted_p.cumsum(-1) - sorted_p) < top_p  # the top token is always kept
        cdf = (sorted_p * keep).cumsum(-1)
        last = keep.sum(-1, keepdim=True) - 1
        pick = torch.searchsorted(cdf, (u * cdf[:, -1]).unsqueeze(-1), right=True)
        tokens = order.gather(1, torch.minimum(pick, last)).squeeze(-1)
    else:
        cdf = probs.cumsum(-1)
        pick = torch.searchsorted(cdf, (u * cdf[:, -1]).unsqueeze(-1), right=True)
        tokens = pick.clamp(max=probs.shape[-1] - 1).squeeze(-1)
    return tokens, logp.gather(1, tokens.unsqueeze(-1)).squeeze(-1)


def _top_mass(probs: torch.Tensor, top_p: float) -> tuple[torch.Tensor, torch.Tensor]:
    """The tokens of each row sorted by probability, far enough to hold the nucleus.

    LLM distributions are peaked, so the top `_FIRST_K` usually hold `top_p` of the mass in
    every row: then a top-k replaces the sort of the whole vocabulary (exact, up to the order of
    equal probabilities). Otherwise, sort everything.
    """
    if probs.shape[-1] > _FIRST_K:
        top, order = probs.topk(_FIRST_K, dim=-1)  # sorted, descending
        if bool((top.sum(-1) >= top_p).all()):
            return top, order
    return probs.sort(dim=-1, descending=True)


def logits_logprobs(
    logits: torch.Tensor,  # [T, V] logits predicting `tokens`
    tokens: torch.Tensor,  # [T]
    temperature: float,
) -> torch.Tensor:
    """Log-probs of `tokens` under softmax(logits / temperature) (the reference for tests)."""
    logp = torch.log_softmax(logits.float() / temperature, dim=-1)
    return logp.gather(-1, tokens.unsqueeze(-1)).squeeze(-1)
