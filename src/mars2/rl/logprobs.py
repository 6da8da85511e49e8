"""Per-token log-probabilities of a sequence under a causal LM, computed in chunks of tokens.

With a 49k-token vocabulary the logits are the memory peak of a training step: [B, T, V] in fp32
is 200 kB per token. We run the decoder once to get the final hidden states [B, T, H], pick the
positions whose log-prob is wanted (every real token, or only the response tokens when the caller
passes `positions`: the LM head is then never applied to the prompt), and apply the LM head and
the log-softmax to `chunk_size` of them at a time. Under autograd each chunk is checkpointed, so
only hidden states are kept for backward and a chunk's logits are recomputed there: neither the
forward nor the backward ever holds more than one chunk of logits.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch
from torch import Tensor, nn
from torch.utils.checkpoint import checkpoint

DEFAULT_CHUNK = 512  # scored tokens per chunk: 512·V fp32 logits, ~100 MB for V=49k

# Configs whose logits are not just `lm_head(hidden)`: these take the full-logits path.
_LOGIT_TRANSFORMS = (
    "final_logit_softcapping",
    "logit_scale",
    "logits_scaling",
    "output_multiplier",
)


def _chunk_logprobs(head: Callable[[Tensor], Tensor], temperature: float) -> Callable[..., Tensor]:
    def fn(states: Tensor, targets: Tensor) -> Tensor:
        logits = head(states).float() / temperature  # [c, V], one chunk at a time
        picked = logits.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
        return picked - logits.logsumexp(-1)  # [c]

    return fn


def _decoder_and_head(model: nn.Module) -> tuple[nn.Module, nn.Module] | None:
    """The decoder body and LM head of an HF causal LM (peft-wrapped or not), or None when the
    logits are more than `head(hidden)` or the model does not expose them."""
    config = getattr(model, "config", None)
    if any(getattr(config, name, None) not in (None, 1.0) for name in _LOGIT_TRANSFORMS):
        return None
    get_decoder = getattr(model, "get_decoder", None)
    get_head = getattr(model, "get_output_embeddings", None)
    if get_decoder is None or get_head is None:
        return None
    try:
        decoder, head = get_decoder(), get_head()
    except (AttributeError, NotImplementedError, ValueError):  # exotic models: no decoder rule
        return None
    if decoder is model or not isinstance(decoder, nn.Module) or not isinstance(head, nn.Module):
        return None
    return decoder, head


def token_logprobs(
    model: nn.Module,
    input_ids: Tensor,
    attention_mask: Tensor,
    *,
    temperature: float = 1.0,
    chunk_size: int = DEFAULT_CHUNK,
    positions: Tensor | None = None,
) -> Tensor:
    """log p(input_ids[:, t+1] | input_ids[:, :t+1]) from logits / temperature: [B, T-1], fp32.

    `input_ids` [B, T] is prompt + response, padded on either side; positions follow the
    attention mask, and entries whose target is padding are 0. `positions` [B, T-1] (optional)
    marks the entries wanted (e.g. the response mask): the others are 0 and cost no LM head.
    The caller slices out the response positions. Gradients flow to the model when autograd is
    enabled."""
    if temperature <= 0:
        raise ValueError(f"temperature must be > 0, got {temperature}")
    position_ids = (attention_mask.long().cumsum(-1) - 1).clamp(min=0)
    parts = _decoder_and_head(model)
    inputs: dict[str, Any] = {
        "input_ids": input_ids,
        "attention_mask": attention_mask,
        "position_ids": position_ids,
        "use_cache": False,
    }
    hidden = None
    if parts is not None:
        hidden = getattr(parts[0](**inputs), "last_hidden_state", None)
    if parts is not None and hidden is not None:
        states = hidden[:, :-1]  # [B, T-1, H]
        fn = _chunk_logprobs(parts[1], temperature)
    else:  # full logits in the model's dtype; the fp32 log-softmax is still chunked
        states = model(**inputs).logits[:, :-1]  # [B, T-1, V]
        fn = _chunk_logprobs(lambda x: x, temperature)
    wanted = attention_mask[:, 1:].bool()  # [B, T-1]
    if positions is not None:
        wanted = wanted & positions.bool()
    picked_states, targets = states[wanted], input_ids[:, 1:][wanted]  # [N, H], [N]
    chunks = []
    for start in range(0, targets.shape[0], chunk_size):
        s, t = picked_states[start : start + chunk_size], targets[start : start + chunk_size]
        if torch.is_grad_enabled() and s.requires_grad:
            chunks.append(checkpoint(fn, s, t, use_reentrant=False))
        else:
            chunks.append(fn(s, t))
    logp = torch.zeros(wanted.shape, dtype=torch.float32, device=states.device)
    if not chunks:
        return logp
    return logp.masked_scatter(wanted, torch.cat(chunks))
