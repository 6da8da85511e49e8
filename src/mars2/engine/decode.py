"""Batched sampling over a transformers causal LM with a KV cache, rows joining and leaving.

`Decoder` holds the rows being generated together: their next-token logits, per-row seeded
generators and what they sampled; a batch object holds their KV cache and runs the model
(`HFBatch` here for any transformers model, `mars2.engine.llama.LlamaBatch` for Llama models).
`admit` prefills new requests and merges them into the running batch (continuous batching;
requests with the same prompt share one prefill, and `LlamaBatch` also reuses the prefills of
recent prompts);
`step` samples one token for every row, retires the rows that hit EOS, their token limit or
(with `piece`) the end of their code block, and runs one forward pass for the rest.
Every log-prob is under softmax(logits / temperature) before top-p truncation.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import torch

from mars2.engine.sampling import sample_tokens
from mars2.engine.wrapped import base_model


@dataclass
class Row:
    """One request in flight: its prompt, seeded generator and what it has sampled so far."""

    key: Any  # the caller's handle for this request
    prompt_ids: list[int]
    generator: torch.Generator
    ids: list[int] = field(default_factory=list)
    logprobs: list[float] = field(default_factory=list)
    stopped: bool = False  # ended on EOS
    fenced: bool = False  # ended on the fence that closes its code block
    fences_left: int = 0  # code fences still to come before the block is closed
    text: str = ""  # the response's text, kept only while watching for fences


FENCE = "```"


def fences_to_close(prompt_text: str) -> int:
    """Code fences a response must write to open and close one code block: 1 when the prompt
    ends by opening the block (its last line is a fence, as a plain-text prompt that opens the
    answer), else 2."""
    lines = prompt_text.rstrip().splitlines()
    return 1 if lines and lines[-1].lstrip().startswith(FENCE) else 2


class Decoder:
    """The rows decoded together by one model (not thread-safe: one thread drives it).

    `batch` holds the rows' KV cache and runs the model: `HFBatch` (any transformers causal
    LM) or `mars2.engine.llama.LlamaBatch` (the fast path for Llama models). Row i of the
    decoder is row i of the batch."""

    def __init__(
        self,
        batch: Any,
        *,
        eos_ids: list[int],
        temperature: float,
        top_p: float,
        max_new_tokens: int,
        piece: Callable[[int], str] | None = None,
    ) -> None:
        """`piece` (a token id -> its text): stop a row as soon as its first code block closes
        (what comes after it is never used); None: only EOS and `max_new_tokens` stop a row."""
        self.batch = batch
        self.piece = piece
        self.temperature = temperature
        self.top_p = top_p
        self.max_new_tokens = max_new_tokens
        self.eos = torch.tensor(eos_ids, device=batch.device)
        self.rows: list[Row] = []
        self.joining: list[Row] = []  # admitted, prefilled by the next step
        self.logits: torch.Tensor | None = None  # [B, V] for each row's next token

    @property
    def can_merge(self) -> bool:
        """Whether new rows can join the running batch."""
        return not self.rows or bool(self.batch.can_merge)

    @property
    def in_flight(self) -> int:
        """Rows being generated, those joining at the next step included."""
        return len(self.rows) + len(self.joining)

    @torch.no_grad()
    def admit(self, key_prompt_seed: list[tuple[Any, list[int], int]]) -> None:
        """Add requests (key, prompt ids, seed). Without rows in flight, or on a batch that
        prefills apart (`HFBatch`), they are prefilled now; otherwise they join at the next
        `step`, whose forward pass computes their prompts beside the rows' new tokens
        (`LlamaBatch.step(tokens, prompts)`: the weights stream once for both), and sample from
        the step after. The batch counts the prompt positions it computed:
        `batch.prefill_tokens`."""
        assert self.can_merge
        rows = [
            Row(key, prompt, torch.Generator().manual_seed(seed))
            for key, prompt, seed in key_prompt_seed
        ]
        if self.piece is not None:
            for row in rows:
                row.fences_left = fences_to_close("".join(map(self.piece, row.prompt_ids)))
        if self.rows and self.batch.prefills_in_step:
            self.joining.extend(rows)
            return
        self._join(rows, self.batch.prefill([r.prompt_ids for r in rows]))

    def _join(self, rows: list[Row], logits: torch.Tensor) -> None:
        self.logits = logits if self.logits is None else torch.cat([self.logits, logits])
        self.rows.extend(rows)

    @torch.no_grad()
    def step(self) -> list[Row]:
        """Sample one token per row; return the rows that finished (and leave the batch); the
        rows joining (`admit`) are prefilled in the same forward pass as the others' tokens."""
        assert self.logits is not None and self.rows
        tokens, logps = sample_tokens(
            self.logits, self.temperature, self.top_p, [r.generator for r in self.rows]
        )
        stopped = torch.isin(tokens, self.eos).tolist()
        done, keep = [], []
        for i, (row, tok, lp) in enumerate(
            zip(self.rows, tokens.tolist(), logps.tolist(), strict=True)
        ):
            row.ids.append(tok)
            row.logprobs.append(lp)
            row.stopped = stopped[i]
            if self.piece is not None and not row.stopped:
                row.text += self.piece(tok)
                row.fenced = row.text.count(FENCE) >= row.fences_left
            if row.stopped or row.fenced or len(row.ids) >= self.max_new_tokens:
                done.append(row)
            else:
                keep.append(i)
        joining, self.joining = self.joining, []
        prompts = [r.prompt_ids for r in joining]
        if not keep:
            self.rows, self.logits = [], None
            self.batch.reset()
            if joining:
                self._join(joining, self.batch.prefill(prompts))
            return done
        if done:
            keep = compact(keep, len(self.rows))
            self.batch.keep(keep)
            tokens = tokens[torch.tensor(keep, device=tokens.device)]
            self.rows = [self.rows[i] for i in keep]
        self.logits = self.batch.step(tokens, prompts) if joining else self.batch.step(tokens)
        self.rows.extend(joining)
        return done


def compact(alive: list[int], size: int) -> list[int]:
    """The rows `alive` (ascending, of rows 0..size-1) in their new order: each slot a row left
    below len(alive) takes one of the alive rows beyond it, so only those move (keeping the
    order would move every row after the first that left: a KV cache copy per row)."""
    n, kept = len(alive), set(alive)
    movers = iter(i for i in alive if i >= n)
    assert all(0 <= i < size for i in alive)
    return [i if i in kept else next(movers) for i in range(n)]


class HFBatch:
    """The rows of a transformers causal LM: a left-padded KV cache, attention mask and
    positions. New rows are prefilled and merged in (plain dynamic cache layers only); left
    padding no row needs any more is cropped, so the cache stays as short as its longest row.
    Requests with the same prompt in one `prefill` share its computation (the model may change
    between calls, so nothing is kept across them)."""

    prefills_in_step = False  # new rows are prefilled in a pass of their own (`Decoder.admit`)

    def __init__(self, model: Any, pad_id: int) -> None:
        self.model = model
        self.pad_id = pad_id
        self.prompt_tokens = 0  # prompt positions admitted
        self.prefill_tokens = 0  # of which computed
        self.device = next(model.parameters()).device
        self.cache: Any = None
        self.mask = torch.zeros((0, 0), dtype=torch.long, device=self.device)  # [B, T]
        self.next_pos = torch.zeros((0, 1), dtype=torch.long, device=self.device)  # [B, 1]

    @property
    def can_merge(self) -> bool:
        if self.cache is None:
            return True
        layers = getattr(self.cache, "layers", None)
        return layers is not None and all(type(x).__name__ == "DynamicLayer" for x in layers)

    def prefill(self, prompts: list[list[int]]) -> torch.Tensor:
        """Add rows for `prompts`; return their next-token logits [n, V] (float32). Each
        distinct prompt is computed once and its cache rows repeated."""
        first: dict[tuple[int, ...], int] = {}
        row_of = [first.setdefault(tuple(p), len(first)) for p in prompts]  # index into unique
        self.prompt_tokens += sum(map(len, prompts))
        prompts = [list(p) for p in first]
        self.prefill_tokens += sum(map(len, prompts))
        width = max(len(p) for p in prompts)
        ids = torch.full((len(prompts), width), self.pad_id, dtype=torch.long)
        mask = torch.zeros((len(prompts), width), dtype=torch.long)
        for i, p in enumerate(prompts):  # left padding
            ids[i, width - len(p) :] = torch.tensor(p)
            mask[i, width - len(p) :] = 1
        ids, mask = ids.to(self.device), mask.to(self.device)
        positions = (mask.cumsum(-1) - 1).clamp(min=0)
        out = self.model(
            input_ids=ids,
            attention_mask=mask,
            position_ids=positions,
            use_cache=True,
            logits_to_keep=1,
        )
        cache, logits = _cache_of(out), out.logits[:, -1].float()
        if len(prompts) < len(row_of):  # repeat each shared prompt's rows
            index = torch.tensor(row_of, device=self.device)
            cache.batch_select_indices(index)
            mask, positions, logits = mask[index], positions[index], logits[index]
        if self.cache is None:
            self.cache, self.mask, self.next_pos = cache, mask, positions[:, -1:] + 1
        else:
            _merge_caches(self.cache, cache, self.mask.shape[1], width)
            self.mask = _cat_left_padded(self.mask, mask)
            self.next_pos = torch.cat([self.next_pos, positions[:, -1:] + 1])
        return logits  # type: ignore[no-any-return]

    def keep(self, index: list[int]) -> None:
        """Retain rows `index` (any order) as rows 0..len(index)-1."""
        rows = torch.tensor(index, device=self.device)
        self.cache.batch_select_indices(rows)
        self.mask, self.next_pos = self.mask[rows], self.next_pos[rows]
        start = int(self.mask.any(0).long().argmax())  # leading columns padding for every row
        if start > 0 and self.can_merge:
            for layer in self.cache.layers:
                layer.keys = layer.keys[:, :, start:]
                layer.values = layer.values[:, :, start:]
            self.mask = self.mask[:, start:]

    def step(self, tokens: torch.Tensor) -> torch.Tensor:
        """Append one token to every row; return the next-token logits [B, V] (float32)."""
        self.mask = torch.cat([self.mask, self.mask.new_ones((self.mask.shape[0], 1))], dim=-1)
        out = self.model(
            input_ids=tokens.unsqueeze(-1),
            attention_mask=self.mask,
            position_ids=self.next_pos,
            use_cache=True,
            **{_cache_kwarg(self.model): self.cache},
        )
        self.cache = _cache_of(out)
        self.next_pos = self.next_pos + 1
        return out.logits[:, -1].float()  # type: ignore[no-any-return]

    def reset(self) -> None:
        self.cache = None
        self.mask = self.mask[:0, :0]
        self.next_pos = self.next_pos[:0]


def _merge_caches(cache: Any, new: Any, old_len: int, new_len: int) -> None:
    """Append the rows of cache `new` to `cache`, left-padding the shorter one in time."""
    width = max(old_len, new_len)
    for layer, extra in zip(cache.layers, new.layers, strict=True):
        for name in ("keys", "values"):
            a, b = getattr(layer, name), getattr(extra, name)  # [B, H, T, D]
            setattr(layer, name, torch.cat([_pad_time(a, width), _pad_time(b, width)]))


def _pad_time(x: torch.Tensor, width: int) -> torch.Tensor:
    if x.shape[2] == width:
        return x
    pad = x.new_zeros((x.shape[0], x.shape[1], width - x.shape[2], x.shape[3]))
    return torch.cat([pad, x], dim=2)


def _cat_left_padded(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    width = max(a.shape[1], b.shape[1])
    pad_a = a.new_zeros((a.shape[0], width - a.shape[1]))
    pad_b = b.new_zeros((b.shape[0], width - b.shape[1]))
    return torch.cat([torch.cat([pad_a, a], 1), torch.cat([pad_b, b], 1)])


@functools.cache
def _cache_kwarg_of(model_cls: Any) -> str:
    params = inspect.signature(model_cls.forward).parameters
    return "cache" if "cache" in params else "past_key_values"  # transformers >= 5.20: `cache`


def _cache_kwarg(model: Any) -> str:
    base = base_model(model)
    return _cache_kwarg_of(type(base))  # type: ignore[arg-type]


def _cache_of(out: Any) -> Any:
    cache = getattr(out, "cache", None)
    return cache if cache is not None else out.past_key_values
