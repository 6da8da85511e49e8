"""The lean decoder's cache of recent prompts (`engine.llama.LlamaBatch`): their keys, values and
next-token logits by token ids, so a later prompt computes only the positions after the longest
prefix it shares with one of them (a keys/values position depends only on the tokens up to it).
"""

from __future__ import annotations

from collections import OrderedDict

import torch

# A PromptCache's default budget: ~23k SmolLM2 positions in bf16 (~11k in fp32). An evaluation
# of 100 problems comes back to a problem's prompt after the 99 others (~12k positions): with
# less, least-recently-used eviction would drop every prompt just before its reuse. A training
# step fills only what its rollout uses (every weight sync empties the cache).
PROMPT_CACHE_BYTES = 512 * 2**20


class PromptCache:
    """Keys, values and next-token logits of recently prefilled prompts, by token ids; the least
    recently used go first when the entries outgrow `max_bytes`. Valid for one set of weights:
    a batch owns one, and a new snapshot of the weights gets a new batch."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        # ids -> (keys [L, n_kv, len, D], values, logits [V] after the last position)
        self.entries: OrderedDict[tuple[int, ...], tuple[torch.Tensor, ...]] = OrderedDict()

    def match(self, prompt: tuple[int, ...]) -> tuple[int, tuple[torch.Tensor, ...] | None]:
        """(positions shared, entry) for the entry sharing the longest prefix with `prompt`."""
        best, key = 0, None
        for ids in self.entries:
            n = _common_prefix(ids, prompt)
            if n > best:
                best, key = n, ids
        if key is None:
            return 0, None
        self.entries.move_to_end(key)
        return best, self.entries[key]

    def add(self, prompt: tuple[int, ...], entry: tuple[torch.Tensor, ...]) -> None:
        size = sum(x.numel() * x.element_size() for x in entry)
        if prompt in self.entries or size > self.max_bytes:
            return
        while self.bytes + size > self.max_bytes:
            _, old = self.entries.popitem(last=False)
            self.bytes -= sum(x.numel() * x.element_size() for x in old)
        self.entries[prompt] = entry
        self.bytes += size


def _common_prefix(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    """Length of the common prefix of `a` and `b` (binary search over C-speed slice compares)."""
    lo, hi = 0, min(len(a), len(b))
    if a[:hi] == b[:hi]:
        return hi
    while lo < hi - 1:  # a[:lo] == b[:lo], a[:hi] != b[:hi]
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if a[:mid] == b[:mid] else (lo, mid)
    return lo
