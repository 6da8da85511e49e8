"""A lean decoder for Llama and Gemma 3 text models (SmolLM2, Gemma-3-270M): the engine's fast
path.

transformers' forward pass is general: per step it builds attention masks, walks cache objects
and concatenates every layer's keys and values onto the cache. At batch 16 on a CPU that
overhead is as large as the matrix multiplies themselves. `LlamaBatch` runs the same
arithmetic on a frozen snapshot of the weights, with what a rollout needs only:

- q/k/v and gate/up projections fused into one matrix multiply each, on a `LlamaWeights`
  snapshot (mars2.engine.llama_weights: prepacked for oneDNN in bfloat16 on a CPU);
- a preallocated KV cache, one slot per row: a new token's keys and values are written in
  place, and rows are not padded: each row's prompt starts at position 0 of its slot;
- rows that finish leave by moving the last rows into their slots (a copy of the moved rows
  only, `decode.compact`); new rows are prefilled together (right-padded, causal) into free slots;
- shared prefills: requests with the same prompt (a GRPO group, an evaluation's attempts, a
  tree's fresh children) prefill it once and copy its keys and values into each row, and a
  `PromptCache` keeps the keys and values of recent prompts, so a later prompt computes only
  the positions after the longest prefix it shares with one of them (a keys/values position
  depends only on the tokens up to it). Each row still samples with its own generator.

It computes what `LlamaForCausalLM` computes (RMSNorm in float32, rotary embeddings of the
default type, grouped-query attention, SiLU-gated MLP), and what `Gemma3ForCausalLM` adds
(`LlamaWeights.gemma`: scaled embedding, 1 + w norms, q/k and block-output norms, GELU,
sliding-window layers), to float32 rounding: the tests compare its logits with the transformers
model's. `llama_weights.unsupported(model)` names what it lacks for other models (rope scaling, a
Linear with a bias, ...); the engine then uses transformers' forward.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F

from mars2.engine.llama_weights import Layer, LlamaWeights
from mars2.engine.prompt_cache import PROMPT_CACHE_BYTES, PromptCache

# The cache's time capacity is the longest row's need rounded up to this, not doubled: a 32-row
# cache of SmolLM2 in bfloat16 holds 0.75 MB per position, and doubling it from 512 to 1,024
# positions mid-decode costs +0.37 GB resident and +0.72 GB while both copies live, enough to
# set a training job's memory peak.
SLOTS_MULTIPLE = 64
# A prefill's width (positions per row) is rounded up to this, so its matrix products take one
# of few shapes: bfloat16 matmuls on a CPU run oneDNN kernels compiled and cached per shape, and
# a new prompt length each prefill would compile again and grow that cache (docs/performance.md).
# The extra positions are right padding like the shorter rows' (cached, never attended to).
PREFILL_MULTIPLE = 32
# The grouped decode attention (`_grouped_attention`) runs on rows rounded up to this and on
# the cache's positions (a multiple of SLOTS_MULTIPLE; CACHE_SLACK), for the same reason: a
# decode step's rows and length change nearly every step, and every [rows, positions] pair
# compiled its own bfloat16 kernels (~1 MB each; +0.9 GB in a main job, docs/performance.md).
# The extra rows and positions are masked or dropped.
DECODE_ROWS_MULTIPLE = 8
# The grouped decode attention reads all of the cache's positions, the rows' unused ones masked:
# a batched product reads a prefix of the cache's rows in place, but copies a slice of its
# positions first (the slice's batch stride is not dense), which cost 6x the product itself in
# bfloat16 and made a decode step 1.4-1.8x slower (docs/performance.md). So the cache is cut
# back when it holds more than this many positions beyond what its rows can still need (a long
# prompt's rows retired), which bounds what the masked positions cost.
CACHE_SLACK = 2 * SLOTS_MULTIPLE
_MIN_SHARED = 8  # shared positions worth copying from the cache rather than recomputing


def _additive(visible: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """A boolean attention mask as the additive one sdpa would build from it (0 / -inf)."""
    return torch.zeros(visible.shape, dtype=dtype, device=visible.device).masked_fill_(
        ~visible, float("-inf")
    )


def _grouped_attention(
    q: torch.Tensor, keys: torch.Tensor, values: torch.Tensor, mask: torch.Tensor, scale: float
) -> torch.Tensor:
    """Attention of one new token per row: q [B, h, 1, D] against keys and values
    [R, kv, T, D] (R >= B: rows past B are padding, their output dropped), each key/value head
    serving its group of h / kv consecutive query heads (as sdpa's `enable_gqa`) without
    copying it per head; `mask` [R, 1, 1, T] additive, float32; `scale` the scores'. Scores and
    softmax in float32, the products in the inputs' dtype."""
    b, h, _, d = q.shape
    r, kv = keys.shape[:2]
    grouped = q.reshape(b, kv, h // kv, d)  # [B, kv, g, D]
    if r > b:
        grouped = torch.cat([grouped, grouped.new_zeros(r - b, *grouped.shape[1:])])
    # mask + scale * scores, in float32 (the type promotion of one add: fewer operations)
    scores = torch.add(mask, torch.matmul(grouped, keys.transpose(-1, -2)), alpha=scale)
    weights = torch.softmax(scores, dim=-1).to(values.dtype)  # [R, kv, g, T]
    return torch.matmul(weights, values)[:b].reshape(b, h, 1, d)


def _cat(parts: list[torch.Tensor]) -> torch.Tensor:
    """torch.cat of `parts`, or the one part itself (no copy)."""
    return torch.cat(parts) if len(parts) > 1 else parts[0]


def _rotate(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """Rotary embedding of x [..., D] with `LlamaWeights.rope`'s cos and signed sin."""
    half = x.shape[-1] // 2
    return x * cos + torch.cat([x[..., half:], x[..., :half]], dim=-1) * sin


@dataclass
class _Admission:
    """Rows being added (`LlamaBatch._plan`): the first one's slot, their prompts, each one's
    first row with the same prompt, the logits known so far (a cached prompt's), the positions
    copied from the prompt cache, and the rows whose prompt is computed."""

    start: int
    keys: list[tuple[int, ...]]
    leader: list[int]
    logits: list[torch.Tensor | None]
    shared: list[int]
    todo: list[int]


@dataclass
class _Prefill:
    """The prompt positions a forward pass computes: token ids and position ids [n, width]
    (right-padded), each row's slot and its last real position + 1 (`ends`), the positions its
    attention reads (`t`), and its mask [n, 1, width, t] (None: fresh prompts in consecutive
    slots, plain causal attention); `local`, the sliding-window layers' mask where the window
    hides positions (else None: theirs is `mask`)."""

    ids: torch.Tensor
    pos: torch.Tensor
    slots: torch.Tensor
    ends: torch.Tensor
    t: int
    mask: torch.Tensor | None
    local: torch.Tensor | None = None


@dataclass
class _Decode:
    """A decode step's rows [B] and their new tokens' positions [B], the (rows, positions) its
    attention runs on, its additive mask, and the sliding-window layers' (`mask` itself where
    the window hides nothing)."""

    rows: torch.Tensor
    pos: torch.Tensor
    span: tuple[int, int]
    mask: torch.Tensor
    local: torch.Tensor


class LlamaBatch:
    """The rows of one decoding batch: their KV cache slots and lengths. Row i of every call is
    slot i; `prefill` appends rows, `keep` retains some (in the given order).

    `prompt_cache_bytes` bounds the `PromptCache` of recent prompts (0: no cache; requests with
    the same prompt in one `prefill` still share its computation). `headroom`: positions
    reserved past each prompt when it is prefilled (the decoder's `max_new_tokens`: its rows
    then never outgrow the cache mid-decode, which would copy every row's keys and values)."""

    can_merge = True
    prefills_in_step = True  # `step(tokens, prompts)`: rows join in a decode step's pass

    def __init__(
        self,
        weights: LlamaWeights,
        prompt_cache_bytes: int = PROMPT_CACHE_BYTES,
        headroom: int = 0,
    ) -> None:
        self.w = weights
        self.headroom = headroom
        # one [slots, n_kv, T, D] tensor per layer: the cache grows a layer at a time, so only
        # one layer's old and new copies live together (a single [L, ...] tensor held both
        # whole: bench/kv_cache.py)
        self.k: list[torch.Tensor] = []
        self.v: list[torch.Tensor] = []
        self.lens = torch.zeros(0, dtype=torch.long, device=weights.device)  # tokens cached
        self.prompts = PromptCache(prompt_cache_bytes)
        self.prompt_tokens = 0  # prompt positions admitted
        self.prefill_tokens = 0  # of which computed (the rest: copied from a shared prefill)

    @property
    def size(self) -> int:
        return int(self.lens.shape[0])

    @property
    def device(self) -> torch.device:
        return self.w.device

    def reset(self) -> None:
        """Drop every row (the cache's memory is kept for the next rows)."""
        self.lens = self.lens[:0]

    @property
    def capacity(self) -> tuple[int, int]:
        """(slots, positions) the KV cache holds now."""
        return (self.k[0].shape[0], self.k[0].shape[2]) if self.k else (0, 0)

    def _reserve(self, rows: int, length: int) -> None:
        """Make room for `rows` slots of `length` positions, keeping the cached rows."""
        w = self.w
        have_rows, have_t = self.capacity
        if rows <= have_rows and length <= have_t:
            return
        new_rows, new_t = max(rows, have_rows), max(length, have_t)
        new_t += -new_t % SLOTS_MULTIPLE
        shape = (new_rows, w.n_kv, new_t, w.head_dim)
        for cache in (self.k, self.v):
            for layer in range(len(w.layers)):
                new = torch.zeros(shape, dtype=w.dtype, device=w.device)
                if layer < len(cache):  # rows being prefilled too: copy all
                    new[:have_rows, :, :have_t] = cache[layer]
                    cache[layer] = new
                else:
                    cache.append(new)

    def _trim(self, need: int) -> None:
        """Cut the cache's positions to `need` rounded up to SLOTS_MULTIPLE when it holds more
        than CACHE_SLACK beyond that (`need`: at least every row's final length)."""
        length = need + -need % SLOTS_MULTIPLE
        if self.capacity[1] <= length + CACHE_SLACK:
            return
        for cache in (self.k, self.v):
            for layer, x in enumerate(cache):  # a layer at a time: one old and one new copy
                cache[layer] = x[:, :, :length].contiguous()

    def prefill(self, prompts: list[list[int]]) -> torch.Tensor:
        """Add rows for `prompts`; return their next-token logits [n, V] (float32).

        Each distinct prompt is computed once, from the end of the longest prefix it shares with
        a cached prompt; rows with a prompt seen before (here or in the cache) copy its keys and
        values."""
        admission = self._plan(prompts)
        computed = self._forward(None, admission)[1] if admission.todo else None
        return self._admit(admission, computed)

    def step(self, tokens: torch.Tensor, prompts: list[list[int]] | None = None) -> torch.Tensor:
        """Append one token to every row; return the next-token logits [B, V] (float32). With
        `prompts`, also add their rows as `prefill` does, in the same forward pass (the weights
        stream once for both), and return [B + len(prompts), V]: the rows', then the new ones'."""
        if self.w.grouped_decode:  # the cache kept near what its rows can still need (CACHE_SLACK)
            longest = max([int(self.lens.max()), *map(len, prompts or [])])
            self._trim(longest + max(self.headroom, 1))
        admission = self._plan(prompts) if prompts else None
        computing = admission if admission is not None and admission.todo else None
        logits, computed = self._forward(tokens, computing)
        assert logits is not None
        self.lens = self.lens + 1
        if admission is None:
            return logits
        return torch.cat([logits, self._admit(admission, computed)])

    def _plan(self, prompts: list[list[int]]) -> _Admission:
        """Make room for rows of `prompts` after the current ones and fill what they can take
        from the prompt cache or from each other: the admission `_forward` computes the rest of
        and `_admit` completes."""
        start, n = self.size, len(prompts)
        keys = [tuple(p) for p in prompts]
        first: dict[tuple[int, ...], int] = {}
        leader = [first.setdefault(key, i) for i, key in enumerate(keys)]
        self._reserve(start + n, max(map(len, keys)) + max(self.headroom, 1))
        plan = _Admission(start, keys, leader, [None] * n, [0] * n, [])
        for i in first.values():
            hit, entry = self.prompts.match(keys[i])
            if entry is not None and hit == len(keys[i]) == entry[0].shape[2]:
                plan.logits[i] = entry[2]  # the very prompt: nothing to compute
            else:
                hit = min(hit, len(keys[i]) - 1)  # the last position gives the logits
                plan.todo.append(i)
                if entry is None or hit < _MIN_SHARED:
                    continue
                plan.shared[i] = hit
            for cache, saved in zip((self.k, self.v), entry[:2], strict=True):
                for layer, x in enumerate(cache):
                    x[start + i, :, :hit] = saved[layer, :, :hit]
        return plan

    def _admit(self, plan: _Admission, computed: torch.Tensor | None) -> torch.Tensor:
        """Complete `plan` with the logits `_forward` computed for its `todo` rows: cache those
        prompts, copy each repeated prompt's keys and values from its first row, append the
        rows; return their next-token logits [n, V]."""
        start, keys, logits = plan.start, plan.keys, plan.logits
        if computed is not None:
            for i, row_logits in zip(plan.todo, computed, strict=True):
                logits[i] = row_logits
                n_i = len(keys[i])
                k, v = (torch.stack([x[start + i, :, :n_i] for x in c]) for c in (self.k, self.v))
                self.prompts.add(keys[i], (k, v, row_logits.clone()))
        for i, j in enumerate(plan.leader):
            if j != i:  # the same prompt as row j
                n_i = len(keys[i])
                for x in (*self.k, *self.v):
                    x[start + i, :, :n_i] = x[start + j, :, :n_i]
                logits[i] = logits[j]
        lens = torch.tensor(list(map(len, keys)), device=self.w.device)
        self.lens = torch.cat([self.lens, lens])
        self.prompt_tokens += sum(map(len, keys))
        self.prefill_tokens += sum(len(keys[i]) - plan.shared[i] for i in plan.todo)
        return torch.stack([x for x in logits if x is not None])

    # long: one pass over the layers for both kinds of positions; split, the loop body would
    # hand a dozen tensors to its parts
    def _forward(
        self, tokens: torch.Tensor | None, plan: _Admission | None
    ) -> tuple[torch.Tensor | None, torch.Tensor | None]:
        """One pass of the model over a decode step's new tokens (`tokens` [B], one per row) and
        the prompt positions `plan.todo` computes, either or both: the projections and MLPs run
        on all the positions at once, the attention apart for each kind. Returns the rows'
        next-token logits [B, V] and the computed prompts' [len(todo), V] (None for an absent
        kind). Writes the positions' keys and values into the cache."""
        w = self.w
        b = 0 if tokens is None else self.size
        pre = None if plan is None else self._prefill_layout(plan)
        dec = self._decode_layout(b) if tokens is not None else None
        r = 0 if dec is None else dec.span[0]  # the rows, with the grouped attention's padding
        ids: list[torch.Tensor] = []
        pos: list[torch.Tensor] = []
        if tokens is not None and dec is not None:
            ids.append(tokens)
            pos.append(dec.pos)
            if r > b:  # padding rows here too (token 0 at position 0, dropped): few shapes
                ids.append(tokens.new_zeros(r - b))
                pos.append(dec.pos.new_zeros(r - b))
        if pre is not None:
            ids.append(pre.ids.view(-1))
            pos.append(pre.pos.view(-1))
        positions = _cat(pos)
        # cos and sin [M, 1, D] against [M, heads, D]: the global layers', Gemma's local ones'
        ropes = [
            tuple(x.unsqueeze(1) for x in w.rope(positions, local))
            for local in (False, True)[: len(w.inv_freqs)]
        ]
        x = w.embed[_cat(ids)]  # [M, H]
        if w.embed_scale is not None:
            x = x * w.embed_scale
        for i, layer in enumerate(w.layers):
            q, k, v = self._qkv(w.rms(x, layer.attn_norm), layer, *ropes[layer.local])
            parts = []
            if dec is not None:
                parts.append(self._decode_attention(i, layer.local, dec, q[:r], k[:b], v[:b]))
            if pre is not None:
                span = slice(r, r + pre.ids.numel())
                parts.append(
                    self._prefill_attention(i, layer.local, pre, q[span], k[span], v[span])
                )
            x = x + _maybe_norm(w, layer.o(_cat(parts)), layer.attn_out_norm)
            h = layer.down(self._mlp(w, layer.gate_up(w.rms(x, layer.mlp_norm))))
            x = x + _maybe_norm(w, h, layer.mlp_out_norm)
        logits = None if dec is None else self._logits(x[:b])
        if pre is None:
            return logits, None
        n, width = pre.ids.shape
        states = x[r : r + n * width].view(n, width, -1)
        return logits, self._logits(states[torch.arange(n, device=w.device), pre.ends - 1])

    def _prefill_layout(self, plan: _Admission) -> _Prefill:
        """The positions of `plan.todo`'s prompts after their shared prefixes, right-padded to
        one width, and where their keys and values go."""
        w, rows = self.w, plan.todo
        starts = [plan.shared[i] for i in rows]
        suffixes = [plan.keys[i][plan.shared[i] :] for i in rows]
        n, width = len(rows), max(map(len, suffixes))
        width += -width % PREFILL_MULTIPLE  # few shapes: oneDNN compiles and caches one per shape
        ids = torch.zeros((n, width), dtype=torch.long)
        for r, suffix in enumerate(suffixes):  # right padding
            ids[r, : len(suffix)] = torch.tensor(suffix)
        ends = torch.tensor(list(map(len, suffixes)), device=w.device)
        slots = torch.tensor([plan.start + i for i in rows], device=w.device)
        pos = torch.tensor(starts, device=w.device).unsqueeze(-1) + torch.arange(
            width, device=w.device
        )
        t = int(pos.max()) + 1  # positions attended to
        self._reserve(plan.start + len(plan.keys), t)
        mask = local = None  # fresh prompts in consecutive slots: plain causal attention
        keys = torch.arange(t, device=w.device)
        if rows != list(range(rows[0], rows[0] + n)) or any(starts):
            mask = (keys <= pos.unsqueeze(-1)).unsqueeze(1)
        if w.window is not None and t > w.window:  # the window hides some positions
            seen = pos if mask is not None else pos[:1]  # [n or 1, width]: causal, the same rows
            local = (keys <= seen.unsqueeze(-1)) & (keys > seen.unsqueeze(-1) - w.window)
            local = local.unsqueeze(1)
        return _Prefill(ids.to(w.device), pos, slots, ends, t, mask, local)

    def _prefill_attention(
        self,
        layer: int,
        local: bool,
        pre: _Prefill,
        q: torch.Tensor,
        k: torch.Tensor,
        v: torch.Tensor,
    ) -> torch.Tensor:
        """The prompts' attention in `layer` (q/k/v [n * width, heads, D]; `local`: a
        sliding-window layer), their keys and values written into their slots:
        [n * width, heads * D]."""
        n, width = pre.ids.shape
        q, k, v = (x.view(n, width, *x.shape[1:]) for x in (q, k, v))  # [n, S, heads, D]
        keys, values = self.k[layer], self.v[layer]
        mask = pre.local if local and pre.local is not None else pre.mask
        if pre.mask is None:  # fresh prompts in consecutive slots
            s0 = int(pre.slots[0])
            keys[s0 : s0 + n, :, :width] = k.transpose(1, 2)
            values[s0 : s0 + n, :, :width] = v.transpose(1, 2)
            attn = F.scaled_dot_product_attention(
                q.transpose(1, 2),
                k.transpose(1, 2),
                v.transpose(1, 2),
                attn_mask=mask,
                is_causal=mask is None,
                scale=self.w.scale,
                enable_gqa=True,
            )
        else:  # suffixes after a cached prefix, or rows apart: attend to the slots
            keys[pre.slots.unsqueeze(-1), :, pre.pos] = k
            values[pre.slots.unsqueeze(-1), :, pre.pos] = v
            attn = F.scaled_dot_product_attention(
                q.transpose(1, 2),
                keys[pre.slots, :, : pre.t],
                values[pre.slots, :, : pre.t],
                attn_mask=mask,
                scale=self.w.scale,
                enable_gqa=True,
            )
        return attn.transpose(1, 2).reshape(n * width, -1)  # [n, h, S, D] -> [n * S, h * D]

    def _decode_layout(self, b: int) -> _Decode:
        """The decode attention's rows, positions and mask for the `b` rows' new tokens."""
        w = self.w
        pos = self.lens[:b]  # where each row's new token goes
        t = int(pos.max()) + 1  # positions attended to, the new token's included
        rows_n = b + -b % DECODE_ROWS_MULTIPLE if w.grouped_decode else b
        self._reserve(rows_n, t)
        # the rows and positions the attention runs on: the grouped one, all the cache's
        span = (rows_n, self.capacity[1] if w.grouped_decode else t)
        keys = torch.arange(span[1], device=w.device)
        visible = keys <= pos.unsqueeze(-1)
        masks = [visible]
        if w.window is not None and t > w.window:  # the window hides some positions
            masks.append(visible & (keys > pos.unsqueeze(-1) - w.window))
        dtype = torch.float32 if w.grouped_decode else w.dtype
        # once per step, not once per layer inside the attention
        additive = [_additive(m[:, None, None, :], dtype) for m in masks]
        if span[0] > b:  # padding rows: see everything (finite), dropped after
            additive = [torch.cat([m, m.new_zeros(span[0] - b, *m.shape[1:])]) for m in additive]
        return _Decode(torch.arange(b, device=w.device), pos, span, additive[0], additive[-1])

    def _decode_attention(
        self,
        layer: int,
        local: bool,
        dec: _Decode,
        q: torch.Tensor,
        k: torch.Tensor,
        v: torch.Tensor,
    ) -> torch.Tensor:
        """The new tokens' attention in `layer` (`local`: a sliding-window layer): q
        [R, heads, D] of the rows and the padding rows after them (`dec.span`), k and v
        [B, kv, D] of the rows, written into the cache. Returns [R, heads * D] (the padding
        rows' outputs: finite, unused)."""
        w, keys, values = self.w, self.k[layer], self.v[layer]
        keys[dec.rows, :, dec.pos] = k
        values[dec.rows, :, dec.pos] = v
        r, n = dec.span
        q = q.unsqueeze(2)  # [R, h, 1, D]
        mask = dec.local if local else dec.mask
        if w.grouped_decode:
            attn = _grouped_attention(q, keys[:r, :, :n], values[:r, :, :n], mask, w.scale)
        else:  # no padding rows
            attn = F.scaled_dot_product_attention(
                q,
                keys[:r, :, :n],
                values[:r, :, :n],
                attn_mask=mask,
                scale=w.scale,
                enable_gqa=True,
            )
        return attn.reshape(r, -1)  # [R, h, 1, D] -> [R, h * D]

    def keep(self, index: list[int]) -> None:
        """Retain rows `index` (any order, distinct), as rows 0..len(index)-1: only rows that
        change slot are copied (`decode.compact` orders them so that few do)."""
        moves = [(new, old) for new, old in enumerate(index) if new != old]
        if moves:
            new, old = (torch.tensor(x, device=self.w.device) for x in zip(*moves, strict=True))
            t = int(self.lens[old].max())
            for x in (*self.k, *self.v):
                x[new, :, :t] = x[old, :, :t]
        self.lens = self.lens[torch.tensor(index, dtype=torch.long, device=self.w.device)]

    def _qkv(
        self, h: torch.Tensor, layer: Layer, cos: torch.Tensor, sin: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """q, k, v [M, heads, D] of positions h [M, H], q and k normed (Gemma) and rotated (cos,
        sin [M, 1, D])."""
        w = self.w
        out = layer.qkv(h).view(h.shape[0], w.n_heads + 2 * w.n_kv, w.head_dim)
        qk = out[:, : w.n_heads + w.n_kv]
        if layer.qk_norm is not None:  # Gemma's per-head q and k norms, in one
            normed = F.rms_norm(qk.float(), (w.head_dim,), None, w.eps) * layer.qk_norm
            qk = normed.to(qk.dtype)
        qk = _rotate(qk, cos, sin)  # q and k in one rotation
        q, k = torch.split(qk, [w.n_heads, w.n_kv], dim=1)
        return q, k, out[:, w.n_heads + w.n_kv :]

    @staticmethod
    def _mlp(w: LlamaWeights, gate_up: torch.Tensor) -> torch.Tensor:
        """The gated MLP's product before its down projection, from gate_up [M, 2 * I]."""
        gate, up = gate_up.chunk(2, dim=-1)
        return w.act(gate) * up

    def _logits(self, hidden: torch.Tensor) -> torch.Tensor:
        w = self.w
        return w.head(w.rms(hidden, w.norm)).float()


def _maybe_norm(w: LlamaWeights, x: torch.Tensor, weight: torch.Tensor | None) -> torch.Tensor:
    """x normed by `weight` (Gemma's norm of a block's output), or x itself (None)."""
    return x if weight is None else w.rms(x, weight)
