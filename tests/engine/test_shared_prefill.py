"""Shared prefills: requests at the same prompt prefill it once, and the llama decoder reuses the
keys and values of a recent prompt's longest shared prefix. The logits, sampled tokens and
rollout log-probs equal those of prefilling every request alone (float32, to ATOL)."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import pytest
import torch

from mars2.agents.hf import HFPolicy
from mars2.config import AgentConfig
from mars2.engine import llama
from mars2.engine.decode import Decoder, Row
from mars2.engine.llama import LlamaBatch
from mars2.engine.llama_weights import LlamaWeights
from mars2.engine.prompt_cache import PromptCache

ATOL = 1e-4  # float32 rounding: shared and unshared prefills sum in different orders


def reference(model: Any, ids: list[int]) -> torch.Tensor:
    with torch.no_grad():
        return model(input_ids=torch.tensor([ids])).logits[0, -1].float()  # type: ignore[no-any-return]


def ids(n: int, seed: int) -> list[int]:
    return torch.randint(3, 500, (n,), generator=torch.Generator().manual_seed(seed)).tolist()


def test_llama_batch_shares_prefills_and_matches_transformers(
    lean: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(llama, "SLOTS_MULTIPLE", 8)  # the cache also grows while rows share
    model = lean
    batch = LlamaBatch(LlamaWeights(model))
    stem = ids(24, 0)  # a system prompt and statement, say
    a, b = stem + ids(6, 1), stem + ids(11, 2)
    c, d = ids(9, 3), a[:20] + ids(40, 4)
    rows = [a, a, b]
    with torch.no_grad():
        logits = batch.prefill(rows)  # a once, b alone: nothing is cached yet
        assert (batch.prompt_tokens, batch.prefill_tokens) == (95, 65)
        logits = torch.cat([logits, batch.prefill([b, c, a, d, a[:15]])])
        # b and a from the cache; d after a's first 20 positions; c alone; a[:15] is a prefix
        # of a: its last position is computed for its logits
        rows += [b, c, a, d, a[:15]]
        assert (batch.prompt_tokens, batch.prefill_tokens) == (95 + 149, 65 + 9 + 40 + 1)
        for step in range(6):
            for row, got in zip(rows, logits, strict=True):
                assert torch.allclose(got, reference(model, row), atol=ATOL), step
            if step == 2:
                batch.keep([1, 3, 4, 6, 7])
                rows, logits = [rows[i] for i in (1, 3, 4, 6, 7)], logits[[1, 3, 4, 6, 7]]
            tokens = logits.argmax(-1)
            rows = [[*row, int(t)] for row, t in zip(rows, tokens, strict=True)]
            logits = batch.step(tokens)


def test_prompts_prefilled_inside_a_decode_step_match_transformers(
    lean: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`step(tokens, prompts)`: the rows' next tokens and new rows' prompts in one forward pass
    (a fresh prompt twice, one after a cached prefix, one the cache holds whole): every row's
    logits are transformers' for its sequence, and so are the steps after."""
    monkeypatch.setattr(llama, "SLOTS_MULTIPLE", 8)  # the joining rows grow the cache
    model = lean
    batch = LlamaBatch(LlamaWeights(model))
    stem = ids(20, 7)
    a, b = stem + ids(5, 8), ids(9, 9)
    rows = [a, b]
    with torch.no_grad():
        logits = batch.prefill(rows)
        tokens = logits.argmax(-1)
        rows = [[*row, int(t)] for row, t in zip(rows, tokens, strict=True)]
        fresh, after_stem = ids(40, 10), stem + ids(13, 11)
        joining = [fresh, after_stem, fresh, a]
        before = batch.prefill_tokens
        logits = batch.step(tokens, joining)
        assert batch.prefill_tokens - before == 40 + 13  # fresh once, a from the cache
        rows += joining
        assert batch.size == 6 and logits.shape[0] == 6
        for step in range(4):
            for row, got in zip(rows, logits, strict=True):
                assert torch.allclose(got, reference(model, row), atol=ATOL), step
            tokens = logits.argmax(-1)
            rows = [[*row, int(t)] for row, t in zip(rows, tokens, strict=True)]
            logits = batch.step(tokens)
    assert batch.lens.tolist() == [len(r) for r in rows]


@pytest.mark.parametrize("grouped", [True, False])
def test_a_fused_step_computes_what_a_step_and_a_prefill_do_in_bfloat16(
    lean: Any, grouped: bool
) -> None:
    """In bfloat16, with either decode attention: the fused pass (rows padded to few shapes)
    gives the logits of a step followed by a prefill, to bfloat16 rounding."""
    model = lean
    weights = LlamaWeights(model, torch.bfloat16)
    weights.grouped_decode = grouped
    fused, apart = LlamaBatch(weights), LlamaBatch(weights)
    first, joining = [ids(11, 1), ids(30, 2), ids(7, 3)], [ids(50, 4), ids(17, 5)]
    with torch.no_grad():
        tokens = fused.prefill(first).argmax(-1)
        apart.prefill(first)
        got = fused.step(tokens, joining)
        want = torch.cat([apart.step(tokens), apart.prefill(joining)])
        for _ in range(3):
            gap = (torch.log_softmax(got, -1) - torch.log_softmax(want, -1)).abs().mean()
            assert gap < 0.005, gap
            tokens = want.argmax(-1)
            got, want = fused.step(tokens), apart.step(tokens)
    assert fused.lens.tolist() == apart.lens.tolist()


def test_requests_joining_a_running_decoder_sample_as_if_alone(tiny: tuple[Any, Any]) -> None:
    """Requests admitted while rows decode wait for the next step, which prefills them in its
    forward pass: each request's tokens and log-probs are those it gets alone."""
    model, _ = tiny
    weights = LlamaWeights(model)

    def decoder() -> Decoder:
        return Decoder(
            LlamaBatch(weights), eos_ids=[0], temperature=1.0, top_p=1.0, max_new_tokens=10
        )

    requests = [("a", ids(12, 1), 1), ("b", ids(30, 2), 2), ("c", ids(12, 1), 3)]
    running = decoder()
    finished: dict[str, Row] = {}
    with torch.no_grad():
        running.admit(requests[:1])  # no rows yet: prefilled at once
        assert len(running.rows) == 1 and not running.joining
        finished.update((r.key, r) for r in running.step())
        running.admit(requests[1:])  # joins at the next step
        assert len(running.rows) == 1 and running.in_flight == 3
        while running.in_flight:
            finished.update((r.key, r) for r in running.step())
        for key, prompt, seed in requests:
            alone = decoder()
            alone.admit([(key, prompt, seed)])
            done: list[Row] = []
            while alone.rows:
                done += alone.step()
            (want,), got = done, finished[key]
            assert got.ids == want.ids, key
            assert torch.allclose(
                torch.tensor(got.logprobs), torch.tensor(want.logprobs), atol=ATOL
            )


def test_duplicate_prompts_share_without_a_cache(tiny: tuple[Any, Any]) -> None:
    model, _ = tiny
    batch = LlamaBatch(LlamaWeights(model), prompt_cache_bytes=0)
    a = ids(12, 5)
    with torch.no_grad():
        first = batch.prefill([a, ids(7, 6), a])
        second = batch.prefill([a])
    assert (batch.prompt_tokens, batch.prefill_tokens) == (43, 31)  # no cache: a again
    for got in (first[0], first[2], second[0]):
        assert torch.allclose(got, reference(model, a), atol=ATOL)
    assert not batch.prompts.entries


def test_prompt_cache_evicts_least_recently_used() -> None:
    entry = (torch.zeros(10), torch.zeros(10), torch.zeros(5))  # 100 bytes
    cache = PromptCache(max_bytes=250)
    cache.add((1, 2, 3), entry)
    cache.add((4, 5), entry)
    assert cache.match((1, 2, 9))[0] == 2  # (1, 2, 3) is now the most recently used
    cache.add((6,), entry)  # over budget: (4, 5) goes
    assert list(cache.entries) == [(1, 2, 3), (6,)] and cache.bytes == 200
    assert cache.match((7, 8)) == (0, None)
    PromptCache(max_bytes=50).add((1,), entry)  # larger than the budget: not kept


@pytest.mark.parametrize("decoder", ["llama", "transformers"])
def test_a_group_of_attempts_samples_as_if_prefilled_alone(
    tiny: tuple[Any, Any], decoder: str
) -> None:
    """A GRPO group (4 attempts at one prompt, its own seed each) generated together, then two
    more attempts later (from the llama decoder's cache): the same tokens and rollout log-probs
    as each attempt generated alone on a fresh engine."""
    model, tokenizer = tiny
    agent = AgentConfig(
        model="tiny-random",
        max_new_tokens=12,
        temperature=1.0,
        top_p=0.95,
        rollout_dtype="model",
        decoder=decoder,
        stop_at_fence=False,
    )
    chat = [{"role": "user", "content": "Write fib(n) in Python."}]
    seeds = [11, 12, 13, 14, 15, 16]
    shared = HFPolicy(agent, model, tokenizer)

    async def group(policy: HFPolicy, seeds: list[int]) -> list[Any]:
        return list(await asyncio.gather(*(policy.generate(chat, seed=s) for s in seeds)))

    try:
        got = asyncio.run(group(shared, seeds[:4])) + asyncio.run(group(shared, seeds[4:]))
        stats = shared.stats()
    finally:
        shared.close()
    n_prompt = len(got[0].prompt_ids)
    computed = n_prompt * (1 if decoder == "llama" else 2)  # no cache across batches
    assert (stats["prompt_tokens"], stats["prefill_tokens"]) == (6 * n_prompt, computed)
    alone = HFPolicy(dataclasses.replace(agent), model, tokenizer, prompt_cache_bytes=0)
    try:
        for seed, completion in zip(seeds, got, strict=True):
            (want,) = alone.generate_ids([list(completion.prompt_ids)], [seed])
            assert completion.response_ids == want.response_ids
            assert torch.allclose(
                torch.tensor(completion.logprobs), torch.tensor(want.logprobs), atol=ATOL
            )
    finally:
        alone.close()
    assert len({c.response_ids for c in got}) > 1  # each attempt kept its own randomness


def test_free_rollout_memory_drops_the_caches_not_the_samples(tiny: tuple[Any, Any]) -> None:
    """Before a learner update the engine gives back its KV slots, prompt cache and weight
    snapshot; the next rollout builds them again and samples what it would have (same seeds,
    same tokens)."""
    model, tokenizer = tiny
    agent = AgentConfig(
        model="tiny-random", max_new_tokens=8, rollout_dtype="model", stop_at_fence=False
    )
    chat = [{"role": "user", "content": "Write fib(n) in Python."}]
    policy = HFPolicy(agent, model, tokenizer)
    try:
        first = asyncio.run(policy.generate(chat, seed=3))
        batch = policy._decoder.batch
        assert batch.k and batch.prompts.entries  # slots and a cached prompt
        snapshot = policy._rollout
        assert isinstance(snapshot, LlamaWeights)
        policy.free_rollout_memory()
        assert policy._decoder is None and policy._rollout is None  # nothing left to hold
        again = asyncio.run(policy.generate(chat, seed=3))
        assert policy._decoder is not None and policy._decoder.batch is not batch
        assert isinstance(policy._rollout, LlamaWeights) and policy._rollout is not snapshot
        (batch_of_ids,) = policy.generate_ids([list(first.prompt_ids)], [3])
    finally:
        policy.close()
    assert again.response_ids == first.response_ids == batch_of_ids.response_ids
