"""Per-token log-probabilities of a sequence under a causal LM, computed in chunks of tokens.

With a 49k-token vocabulary the logits are the memory peak of a training step: [B, T, V] in fp32
is 200 kB per token. We run the decoder once to get the final hidden states [B, T, H], pick the
positions whose log-prob is wanted (every real token, or only the response tokens when the caller
passes `positions`: the LM head is then never applied to the prompt), and apply the LM head and
the log-softmax to `chunk_size` of them at a time. Under autograd each chunk is checkpointed, so
only hidden states are kept for backward and a chunk's logits are recomputed there: neither the
forward nor the backward ever holds more than one chunk of logits.

`packed_logprobs` computes the same values for a list of samples without padding and with each
shared prompt, and each long enough shared beginning of prompts, computed once (the learner's
default where `packable(model)`). A pack is one sequence whose attention is block-diagonal (a
position sees only its own run of prompts that begin alike):
`use_block_attention` lets the model attend within each group's block only, instead of over
the whole pack through a mask that hides all but those blocks.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import torch
from torch import Tensor, nn
from torch.utils.checkpoint import checkpoint

DEFAULT_CHUNK = 512  # scored tokens per chunk: 512·V fp32 logits, ~100 MB for V=49k
# A packed sequence's length is rounded up to this: the matrix products of every micro-batch
# then take one of few shapes, and oneDNN (torch's bfloat16 CPU matmul) compiles and caches one
# kernel set per shape: with a new length every micro-batch, the learner paid that compilation
# again and again and the cache's memory grew with every step (docs/performance.md).
PACK_MULTIPLE = 64

# The attention implementation `use_block_attention` registers with transformers: sdpa, run on
# each block of a pack separately when the forward pass is given the blocks (`pack_blocks`).
BLOCK_ATTENTION = "mars2_blocks"
# Each block's attention runs at its length rounded up to this, for the same reason as
# PACK_MULTIPLE: bfloat16 sdpa compiles kernels per length (measured: forward + backward over
# 150 lengths of 100-400 positions grew a process by 940 MB; rounded to 32, by 70 MB).
BLOCK_MULTIPLE = 32
# Distinct prompts in a pack that begin alike (a problem's refinement prompts: system prompt and
# statement) compute their common leading positions once when at least this many: fewer would
# merge blocks of different problems (their system prompts alike) and cost the block attention
# more than they save.
MIN_SHARED_PREFIX = 48

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
    logp = torch.zeros(wanted.shape, dtype=torch.float32, device=states.device)
    if targets.numel() == 0:
        return logp
    return logp.masked_scatter(wanted, _score(fn, picked_states, targets, chunk_size))


def _score(fn: Callable[..., Tensor], states: Tensor, targets: Tensor, chunk_size: int) -> Tensor:
    """`fn` (LM head + log-softmax) over `chunk_size` rows of [N, H] states at a time: [N] fp32.
    Under autograd each chunk is checkpointed: its logits are recomputed in backward."""
    chunks = []
    for start in range(0, targets.shape[0], chunk_size):
        s, t = states[start : start + chunk_size], targets[start : start + chunk_size]
        if torch.is_grad_enabled() and s.requires_grad:
            chunks.append(checkpoint(fn, s, t, use_reentrant=False))
        else:
            chunks.append(fn(s, t))
    return torch.cat(chunks)


def packable(model: nn.Module) -> str | None:
    """Why `packed_logprobs` cannot run `model` (None: it can). Packing hands the decoder a
    custom 4D mask and position ids: the attention must apply the mask as given (sdpa, eager;
    flash-attention kernels take no such mask) to every layer (no sliding-window layers, whose
    own window the mask would override)."""
    parts = _decoder_and_head(model)
    if parts is None:
        return "the logits are not lm_head(hidden states)"
    config = getattr(model, "config", None)
    attention = getattr(config, "_attn_implementation", None)
    if attention not in ("sdpa", "eager", BLOCK_ATTENTION):
        return f"attention implementation {attention!r} (packing needs sdpa or eager)"
    layer_types = set(getattr(config, "layer_types", None) or ["full_attention"])
    sliding = getattr(config, "sliding_window", None) is not None and getattr(
        config, "use_sliding_window", True
    )
    if layer_types != {"full_attention"} or sliding:
        return "sliding-window attention"
    return None


def use_block_attention(model: nn.Module) -> bool:
    """Make `model` (packable, with sdpa attention) compute a pack's attention block by block:
    each prompt group's queries against that group's keys only, through torch's sdpa with the
    group's part of the mask. The pack's mask is block-diagonal, so the values are those of the
    whole-pack attention (masked keys weigh exactly 0) over fewer query-key pairs (a quarter
    with ~250-token groups in a 1,024-token pack; CPU sdpa's time shrinks less: a learner step
    of the main job measured 1.07x faster, docs/performance.md). Forward passes without blocks
    (padded batches, generation) run plain sdpa. The model's config names `BLOCK_ATTENTION`
    afterwards (not saved with it). Returns whether it switched."""
    config = getattr(model, "config", None)
    if packable(model) is not None or getattr(config, "_attn_implementation", None) != "sdpa":
        return False
    _register_block_attention()
    config._attn_implementation = BLOCK_ATTENTION  # type: ignore[union-attr]
    return True


@functools.cache
def _register_block_attention() -> None:
    from transformers import AttentionInterface
    from transformers.masking_utils import AttentionMaskInterface, sdpa_mask

    AttentionInterface.register(BLOCK_ATTENTION, _block_sdpa)
    AttentionMaskInterface.register(BLOCK_ATTENTION, sdpa_mask)  # masks built as for sdpa


def _block_sdpa(
    module: nn.Module,
    query: Tensor,  # [B, heads, N, D]
    key: Tensor,
    value: Tensor,
    attention_mask: Tensor | None,
    *,
    pack_blocks: Sequence[tuple[int, int]] | None = None,
    **kwargs: Any,
) -> tuple[Tensor, None]:
    """transformers' sdpa attention, once per block [start, end) of `pack_blocks` when given,
    each block padded at its end to a multiple of BLOCK_MULTIPLE positions that no real query
    sees (causally after them, and masked out) and whose outputs are dropped."""
    from transformers.integrations.sdpa_attention import sdpa_attention_forward

    if not pack_blocks:
        return sdpa_attention_forward(module, query, key, value, attention_mask, **kwargs)  # type: ignore[no-any-return]
    outs = []
    for a, b in pack_blocks:
        mask = None if attention_mask is None else attention_mask[..., a:b, a:b]
        q, k, v = query[:, :, a:b], key[:, :, a:b], value[:, :, a:b]
        pad = -(b - a) % BLOCK_MULTIPLE
        if pad:
            q, k, v = (nn.functional.pad(t, (0, 0, 0, pad)) for t in (q, k, v))
            mask = None if mask is None else _pad_mask(mask, pad)
        out = sdpa_attention_forward(module, q, k, v, mask, **kwargs)[0]  # [B, n + pad, h, D]
        outs.append(out[:, : b - a])
    return torch.cat(outs, dim=1), None


def _pad_mask(mask: Tensor, pad: int) -> Tensor:
    """[..., n, n] attention mask (bool: True = visible; else additive) grown by `pad`
    positions that see only themselves (no query row fully masked) and that nothing else sees."""
    n = mask.shape[-1]
    boolean = mask.dtype == torch.bool
    hidden = False if boolean else torch.finfo(mask.dtype).min
    out = mask.new_full((*mask.shape[:-2], n + pad, n + pad), hidden)
    out[..., :n, :n] = mask
    extra = torch.arange(n, n + pad, device=mask.device)
    out[..., extra, extra] = True if boolean else 0.0
    return out


def shared_prefixes(prompts: Sequence[Sequence[int]]) -> list[tuple[int, int]]:
    """For distinct prompts in pack order: (the index of the prompt whose leading tokens it
    reuses, how many). A prompt that shares at least MIN_SHARED_PREFIX leading tokens with the
    first prompt of the current run (its leader) reuses them (all but its last token at most:
    that one's output predicts its responses); any other prompt leads a run of its own,
    (itself, 0). `pack` lays the runs out this way and `learner.packed_micro_batches` counts
    their tokens with it."""
    out: list[tuple[int, int]] = []
    leader = -1
    for i, prompt in enumerate(prompts):
        if leader >= 0:
            n = min(_common_prefix(prompts[leader], prompt), len(prompt) - 1)
            if n >= MIN_SHARED_PREFIX:
                out.append((leader, n))
                continue
        leader = i
        out.append((i, 0))
    return out


def _common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def pack(
    prompts: Sequence[Sequence[int]], responses: Sequence[Sequence[int]], multiple: int = 1
) -> Pack:
    """Lay samples out as one packed sequence (see `packed_logprobs`), its length rounded up to
    a `multiple` by a filler group that sees only itself and that nothing sees."""
    groups: dict[tuple[int, ...], list[int]] = {}
    for i, prompt in enumerate(prompts):
        groups.setdefault(tuple(prompt), []).append(i)
    distinct = list(groups)
    p = _Layout(len(prompts))
    for g, (leader, shared) in enumerate(shared_prefixes(distinct)):
        if leader == g:
            p.run += 1
        prompt = distinct[g]
        p.add(prompt[shared:], range(shared, len(prompt)), g, 0, (leader, shared))
        last = len(p.tokens) - 1  # the prompt's last token predicts a response's first
        for i in groups[prompt]:
            start, n = len(p.tokens), len(responses[i])
            p.scorer[i] = [last, *range(start, start + n - 1)] if n else []
            p.add(responses[i], range(len(prompt), len(prompt) + n), g, 1 + i, (leader, shared))
    filler = -len(p.tokens) % multiple
    p.run += 1
    # token 0: any id the model has; nothing reads these positions
    p.add([0] * filler, range(filler), len(distinct), 0, (len(distinct), 0))
    return Pack(
        p.tokens,
        p.positions,
        p.run_of,
        p.response_of,
        [k for row in p.scorer for k in row],
        p.prompt_of,
        p.reused,
    )


class _Layout:
    """A pack being laid out: per position its token, position id, run, response, prompt and
    (the prompt whose leading tokens it sees, how many)."""

    def __init__(self, samples: int) -> None:
        self.tokens: list[int] = []
        self.positions: list[int] = []
        self.run_of: list[int] = []
        self.response_of: list[int] = []
        self.prompt_of: list[int] = []
        self.reused: list[tuple[int, int]] = []
        self.scorer: list[list[int]] = [[] for _ in range(samples)]
        self.run = -1

    def add(
        self,
        tokens: Sequence[int],
        positions: range,
        prompt: int,
        response: int,
        reused: tuple[int, int],
    ) -> None:
        n = len(tokens)
        self.tokens += tokens
        self.positions += positions
        self.run_of += [self.run] * n
        self.response_of += [response] * n
        self.prompt_of += [prompt] * n
        self.reused += [reused] * n


@dataclass(frozen=True)
class Pack:
    """One packed sequence: per position its token, position id, run (prompts that share a
    leading part, their responses; the filler) and response (0 on a prompt, else 1 + the
    sample's index); `scorer`: for each (sample, response token) in sample order, the position
    whose output predicts that token; per position its distinct prompt (`prompt_of`, for a
    response: its sample's prompt) and `reused`: (the prompt whose leading positions it also
    sees, how many of them; a run's leader: itself, 0)."""

    tokens: list[int]
    positions: list[int]
    group_of: list[int]
    response_of: list[int]
    scorer: list[int]
    prompt_of: list[int]
    reused: list[tuple[int, int]]

    def __len__(self) -> int:
        return len(self.tokens)

    def blocks(self) -> list[tuple[int, int]]:
        """[start, end) of each run's positions (and the filler's), in order: nothing outside
        its block is visible to a position."""
        edges = [
            i for i in range(1, len(self.group_of)) if self.group_of[i] != self.group_of[i - 1]
        ]
        return list(zip([0, *edges], [*edges, len(self.group_of)], strict=True))

    def mask(self, device: torch.device) -> Tensor:
        """[N, N] bool, True where query i may attend to key j: causal, within one run, and to
        the query's own prompt, the leading positions of its prompt that its prompt reuses
        from the run's leader, or the query's own response."""
        n = len(self.tokens)
        run = torch.tensor(self.group_of, device=device)
        response = torch.tensor(self.response_of, device=device)
        prompt = torch.tensor(self.prompt_of, device=device)
        leader, reused = torch.tensor(self.reused, device=device).unbind(-1)
        position = torch.tensor(self.positions, device=device)
        index = torch.arange(n, device=device)
        causal = index[:, None] >= index[None, :]
        on_prompt = response[None, :] == 0
        own_prompt = on_prompt & (prompt[:, None] == prompt[None, :])
        shared = (
            on_prompt & (prompt[None, :] == leader[:, None]) & (position[None, :] < reused[:, None])
        )
        own_response = (response[None, :] != 0) & (response[:, None] == response[None, :])
        same_run = run[:, None] == run[None, :]
        return causal & same_run & (own_prompt | shared | own_response)


def packed_logprobs(
    model: nn.Module,
    prompts: Sequence[Sequence[int]],
    responses: Sequence[Sequence[int]],
    *,
    temperature: float = 1.0,
    chunk_size: int = DEFAULT_CHUNK,
) -> Tensor:
    """log p of every response token given its prompt, samples in order: [sum of response
    lengths], fp32. The same values as `token_logprobs` on the padded batch, for less compute:
    samples with one prompt (a GRPO group, a tree's fresh attempts) share one copy of it, and
    everything goes in ONE sequence without padding between samples, [prompt A, response A1,
    response A2, ..., prompt B, ..., filler to a multiple of PACK_MULTIPLE], with a mask that
    lets each response see its prompt and itself (causally) and position ids that continue
    each response from its prompt's end. A distinct prompt that begins like the prompt before
    it (one problem's refinement prompts: the same system prompt and statement, other code and
    feedback) goes in without those leading tokens, at the positions after them, and sees them
    in that earlier prompt (`shared_prefixes`: [prompt A, responses, rest of prompt A', its
    responses, ...]). Keys and values of a position depend only on what it sees, so a shared
    prompt's are exactly those each sample would compute alone; its gradient sums the samples'
    contributions. `packable(model)` says whether the model takes such a mask."""
    if temperature <= 0:
        raise ValueError(f"temperature must be > 0, got {temperature}")
    parts = _decoder_and_head(model)
    assert parts is not None, "packed_logprobs on a model packable() refuses"
    device = next(model.parameters()).device
    packed = pack(prompts, responses, PACK_MULTIPLE)
    if not packed.scorer:
        return torch.zeros(0, dtype=torch.float32, device=device)
    allowed = packed.mask(device)
    if getattr(model.config, "_attn_implementation", None) == "eager":  # an additive mask
        dtype = next(model.parameters()).dtype
        allowed = torch.zeros(allowed.shape, dtype=dtype, device=device).masked_fill(
            ~allowed, torch.finfo(dtype).min
        )
    blocks = getattr(model.config, "_attn_implementation", None) == BLOCK_ATTENTION
    hidden = parts[0](
        input_ids=torch.tensor([packed.tokens], device=device),
        attention_mask=allowed[None, None],  # [1, 1, N, N]: used as given
        position_ids=torch.tensor([packed.positions], device=device),
        use_cache=False,
        **({"pack_blocks": packed.blocks()} if blocks else {}),
    ).last_hidden_state[0]  # [N, H]
    targets = torch.tensor([t for r in responses for t in r], device=device)
    states = hidden[torch.tensor(packed.scorer, device=device)]  # [M, H]
    return _score(_chunk_logprobs(parts[1], temperature), states, targets, chunk_size)
