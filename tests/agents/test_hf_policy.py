"""The hf backend on tiny-random: batching, exact log-probs, seeding, EOS, lengths, weight sync,
and the bfloat16 / int8 rollout copies; every test runs with both decoders (`llama`, the lean
one, and `transformers`)."""

from __future__ import annotations

import asyncio
import dataclasses
import sys
from typing import Any

import pytest
import torch

from mars2.agents.hf import HFPolicy
from mars2.config import AgentConfig
from mars2.engine.sampling import logits_logprobs
from mars2.errors import ConfigError
from mars2.types import Completion

# `model`: the engine generates with the model's own weights, so log-probs are exact
AGENT = AgentConfig(
    model="tiny-random",
    max_new_tokens=12,
    max_batch_size=8,
    temperature=0.7,
    rollout_dtype="model",
)


@pytest.fixture(params=["llama", "transformers"], autouse=True)
def decoder(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run the test with `AGENT.decoder` set to each decoder."""
    agent = dataclasses.replace(AGENT, decoder=request.param)
    monkeypatch.setattr(sys.modules[__name__], "AGENT", agent)
    return str(request.param)


def chat(i: int) -> list[dict[str, str]]:
    return [
        {"role": "system", "content": "You are a coder."},
        {"role": "user", "content": f"Problem {i}: return the sum of the even numbers" + " x" * i},
    ]


def run_many(policy: HFPolicy, n: int, seeds: list[int | None] | None = None) -> list[Completion]:
    seeds = seeds or [None] * n

    async def main() -> list[Completion]:
        return await asyncio.gather(
            *(policy.generate(chat(i), seed=s) for i, s in enumerate(seeds))
        )

    return asyncio.run(main())


def test_concurrent_requests_share_batches(tiny: tuple[Any, Any]) -> None:
    policy = HFPolicy(AGENT, *tiny)
    outs = run_many(policy, 8)
    stats = policy.stats()
    assert len(outs) == 8 and all(o.response_ids for o in outs)
    assert stats["batches"] == 1 and stats["mean_batch_size"] == 8
    assert stats["requests"] == 8
    assert stats["tokens_generated"] == sum(o.response_len for o in outs)
    policy.close()


def test_batches_are_capped_at_max_batch_size(tiny: tuple[Any, Any]) -> None:
    policy = HFPolicy(dataclasses.replace(AGENT, max_batch_size=3), *tiny)
    outs = run_many(policy, 7)
    assert len(outs) == 7 and 1 < policy.stats()["mean_batch_size"] <= 3
    policy.close()


def test_requests_join_a_running_batch_with_exact_logprobs(tiny: tuple[Any, Any]) -> None:
    model, tokenizer = tiny
    policy = HFPolicy(dataclasses.replace(AGENT, max_new_tokens=24), model, tokenizer)
    short = [{"role": "user", "content": "hi"}]
    long = [{"role": "user", "content": "a much longer prompt " * 12}]

    async def main() -> list[Completion]:
        first = asyncio.ensure_future(policy.generate(short, seed=1))
        while policy.stats()["steps"] < 4:  # the first request is decoding
            await asyncio.sleep(0.005)
        # one prompt longer than the running cache, one shorter: both paddings are exercised
        later = asyncio.gather(policy.generate(long, seed=2), policy.generate(short, seed=4))
        return [await first, *await later]

    outs = asyncio.run(main())
    stats = policy.stats()
    assert [o.response_len > 4 for o in outs] == [True] * 3
    assert stats["batches"] == 2 and stats["mean_batch_size"] > 1.5
    assert stats["steps"] < 2 * 24  # the later requests did not wait for the first to finish
    for out in outs:
        ids = torch.tensor([*out.prompt_ids, *out.response_ids])
        with torch.no_grad():
            logits = model(input_ids=ids[None]).logits[0]
        n = len(out.prompt_ids)
        ref = logits_logprobs(logits[n - 1 : -1], ids[n:], AGENT.temperature)
        assert torch.allclose(torch.tensor(out.logprobs), ref, atol=1e-4)
    alone = asyncio.run(policy.generate(short, seed=4))  # same request, run on its own
    policy.close()
    assert alone.response_ids == outs[2].response_ids


def test_generate_ids_without_an_event_loop(tiny: tuple[Any, Any]) -> None:
    model, tokenizer = tiny
    policy = HFPolicy(AGENT, model, tokenizer)
    prompt = tokenizer("<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n")["input_ids"]
    outs = policy.generate_ids([prompt, prompt], [5, 5])
    assert outs[0].response_ids == outs[1].response_ids and outs[0].prompt_ids == tuple(prompt)


@pytest.mark.parametrize("top_p", [1.0, 0.8])
def test_logprobs_match_a_plain_forward_pass(tiny: tuple[Any, Any], top_p: float) -> None:
    model, tokenizer = tiny
    policy = HFPolicy(dataclasses.replace(AGENT, top_p=top_p), model, tokenizer)
    outs = run_many(policy, 4)  # prompts of different lengths: left padding is exercised
    for out in outs:
        ids = torch.tensor([*out.prompt_ids, *out.response_ids])
        with torch.no_grad():
            logits = model(input_ids=ids[None]).logits[0]
        n = len(out.prompt_ids)
        ref = logits_logprobs(logits[n - 1 : -1], ids[n:], AGENT.temperature)
        assert torch.allclose(torch.tensor(out.logprobs), ref, atol=1e-4)
    policy.close()


def test_same_seed_same_output_whatever_the_batch(tiny: tuple[Any, Any]) -> None:
    policy = HFPolicy(AGENT, *tiny)
    alone = run_many(policy, 1, [7])[0]
    in_batch = run_many(policy, 3, [7, 8, 9])
    assert in_batch[0].response_ids == alone.response_ids
    assert in_batch[1].response_ids != in_batch[0].response_ids
    policy.close()


def test_unseeded_requests_repeat_in_the_same_order(tiny: tuple[Any, Any]) -> None:
    first, second = HFPolicy(AGENT, *tiny, seed=3), HFPolicy(AGENT, *tiny, seed=3)
    assert [o.response_ids for o in run_many(first, 4)] == [
        o.response_ids for o in run_many(second, 4)
    ]
    other = HFPolicy(AGENT, *tiny, seed=4)
    assert (
        run_many(other, 1)[0].response_ids
        != run_many(HFPolicy(AGENT, *tiny, seed=3), 1)[0].response_ids
    )


def test_max_new_tokens_is_respected(tiny: tuple[Any, Any]) -> None:
    policy = HFPolicy(dataclasses.replace(AGENT, max_new_tokens=5), *tiny)
    for out in run_many(policy, 4):
        assert out.response_len <= 5
        assert (out.finish_reason == "length") == (
            out.response_len == 5 and out.response_ids[-1] != 2
        )
    policy.close()


def test_stops_on_eos(tiny: tuple[Any, Any]) -> None:
    model, tokenizer = tiny
    eos = tokenizer.eos_token_id
    biased = torch.nn.Linear(model.lm_head.in_features, model.lm_head.out_features, bias=True)
    with torch.no_grad():
        biased.weight.copy_(model.lm_head.weight)
        biased.bias.zero_()
        biased.bias[eos] = 4.5  # about half of the steps end on EOS
    original = model.lm_head
    model.lm_head = biased
    try:
        agent = dataclasses.replace(AGENT, max_new_tokens=30, decoder="auto")  # a biased head
        policy = HFPolicy(agent, model, tokenizer)
        outs = run_many(policy, 8)
    finally:
        model.lm_head = original
    for out in outs:
        assert out.finish_reason == "stop"
        assert out.response_ids[-1] == eos and eos not in out.response_ids[:-1]
        assert len(out.logprobs) == out.response_len
        assert "<|im_end|>" not in out.text
    assert max(o.response_len for o in outs) > 1  # rows finished at different steps


def test_sync_weights_copies_a_state_dict(tiny: tuple[Any, Any]) -> None:
    model, tokenizer = tiny
    policy = HFPolicy(AGENT, model, tokenizer)
    before = run_many(policy, 1, [11])[0]
    policy.sync_weights(None)  # shared model object: nothing to do
    saved = {k: v.clone() for k, v in model.state_dict().items()}
    changed = {k: v * 1.5 if k.endswith("q_proj.weight") else v for k, v in saved.items()}
    try:
        policy.sync_weights(changed)
        after = run_many(policy, 1, [11])[0]
    finally:
        model.load_state_dict(saved)
    assert after.logprobs != before.logprobs
    with pytest.raises(ValueError, match="unknown parameter"):
        policy.sync_weights({"no.such.weight": torch.zeros(1)})
    policy.close()


def test_generation_leaves_training_mode_alone(tiny: tuple[Any, Any]) -> None:
    model, tokenizer = tiny
    policy = HFPolicy(AGENT, model, tokenizer)
    model.train()
    try:
        run_many(policy, 1)
        assert model.training
    finally:
        model.eval()
    policy.close()


def test_only_an_engine_on_the_model_itself_switches_its_mode(
    tiny: tuple[Any, Any], decoder: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The `llama` decoder runs a frozen snapshot, so a model in training mode is left alone
    (walking a peft model's modules twice a decode step cost ~18% of an evaluation); the
    `transformers` decoder on the model's own weights still switches dropout off per turn."""
    model, tokenizer = tiny
    policy = HFPolicy(AGENT, model, tokenizer)
    switches: list[bool] = []
    original = model.train
    monkeypatch.setattr(model, "train", lambda mode=True: switches.append(mode) or original(mode))
    model.train()
    switches.clear()
    try:
        run_many(policy, 2)
        assert model.training
        seen = list(switches)
    finally:
        model.eval()
    policy.close()
    if decoder == "llama":
        assert seen == []
    else:  # eval() is train(False): off and on again around every turn
        assert seen[:2] == [False, True] and len(seen) >= 4


def test_a_failing_step_fails_its_callers_and_the_engine_recovers(
    tiny: tuple[Any, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    from mars2.engine.decode import Decoder

    original = Decoder.admit
    calls: list[int] = []

    def admit_once_broken(self: Decoder, requests: Any) -> None:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("boom")
        original(self, requests)

    monkeypatch.setattr(Decoder, "admit", admit_once_broken)
    policy = HFPolicy(AGENT, *tiny)
    with pytest.raises(RuntimeError, match="boom"):
        run_many(policy, 2)
    assert all(o.response_len > 0 for o in run_many(policy, 2))
    policy.close()


def test_close_stops_the_engine_thread(tiny: tuple[Any, Any]) -> None:
    policy = HFPolicy(AGENT, *tiny)
    run_many(policy, 1)
    thread = policy._thread
    assert thread is not None and thread.is_alive()
    policy.close()
    assert not thread.is_alive()


def with_copy(dtype: str) -> AgentConfig:
    """AGENT generating with a `dtype` copy (on the transformers decoder for int8, which the
    llama decoder has not)."""
    decoder = "transformers" if dtype == "int8" else AGENT.decoder
    return dataclasses.replace(AGENT, rollout_dtype=dtype, decoder=decoder)


def learner_gap(model: Any, outs: list[Completion]) -> float:
    """Mean |rollout log-prob - fp32 learner log-prob| over the response tokens of `outs`."""
    gaps = []
    for out in outs:
        ids = torch.tensor([*out.prompt_ids, *out.response_ids])
        with torch.no_grad():
            logits = model(input_ids=ids[None]).logits[0]
        n = len(out.prompt_ids)
        ref = logits_logprobs(logits[n - 1 : -1], ids[n:], AGENT.temperature)
        gaps.append((torch.tensor(out.logprobs) - ref).abs())
    return float(torch.cat(gaps).mean())


@pytest.mark.parametrize(("dtype", "tolerance"), [("bfloat16", 0.05), ("int8", 0.3)])
def test_fast_copies_give_valid_completions_close_to_the_learner(
    tiny: tuple[Any, Any], dtype: str, tolerance: float
) -> None:
    model, tokenizer = tiny
    policy = HFPolicy(with_copy(dtype), model, tokenizer)
    assert policy._rollout is not model and next(model.parameters()).dtype == torch.float32
    outs = run_many(policy, 4, [1, 2, 3, 4])
    again = run_many(policy, 4, [1, 2, 3, 4])
    policy.close()
    assert [o.response_ids for o in outs] == [o.response_ids for o in again]  # seeds reproduce
    for out in outs:
        assert out.response_len > 0 and len(out.logprobs) == out.response_len
        assert all(lp <= 0 and lp == lp for lp in out.logprobs)
    gap = learner_gap(model, outs)
    assert 0 < gap < tolerance, gap  # a copy, not the model itself, and a close one


@pytest.mark.parametrize("dtype", ["bfloat16", "int8"])
def test_weight_sync_refreshes_the_copy(tiny: tuple[Any, Any], dtype: str) -> None:
    """A learner trains the shared model in place (or a checkpoint is restored into it): the copy
    follows at sync_weights, and at the next rollout even without one."""
    model, tokenizer = tiny
    policy = HFPolicy(with_copy(dtype), model, tokenizer)
    tolerance = 0.05 if dtype == "bfloat16" else 0.3
    before = run_many(policy, 2, [11, 12])
    saved = {k: v.clone() for k, v in model.state_dict().items()}
    try:
        with torch.no_grad():
            for name, param in model.named_parameters():
                if name.endswith("q_proj.weight") or name.endswith("up_proj.weight"):
                    param.mul_(3.0)
        unsynced = run_many(policy, 2, [11, 12])
        gap_unsynced = learner_gap(model, unsynced)
        policy.sync_weights()
        after = run_many(policy, 2, [11, 12])
        gap = learner_gap(model, after)
    finally:
        model.load_state_dict(saved)
    restored = run_many(policy, 2, [11, 12])
    policy.close()
    assert [o.logprobs for o in after] != [o.logprobs for o in before]
    assert [o.logprobs for o in after] == [o.logprobs for o in unsynced]
    assert gap < tolerance and gap_unsynced < tolerance  # copies of the NEW weights
    assert [o.logprobs for o in restored] == [o.logprobs for o in before]


def test_auto_keeps_the_model_and_int8_is_cpu_only(tiny: tuple[Any, Any]) -> None:
    from mars2.agents.hf import resolve_rollout_dtype

    model, _ = tiny
    assert resolve_rollout_dtype("auto", model) == "model"
    assert resolve_rollout_dtype("bfloat16", model) == "bfloat16"
    assert resolve_rollout_dtype("model", model) == "model"
    with pytest.raises(ConfigError, match="rollout_dtype"):
        AgentConfig(rollout_dtype="int8", device="cuda")


def test_fences_to_close_reads_the_end_of_the_prompt() -> None:
    from mars2.engine.decode import fences_to_close

    # a chat prompt that mentions a fence in its instruction still needs an open and a close
    assert fences_to_close("Answer in one ```python block.<|im_start|>assistant\n") == 2
    assert fences_to_close("```python\ndef f(x):\n```\nAnswer.") == 2
    assert fences_to_close("Example ...\n\nAnswer:\n```python\n") == 1  # plain prompt opens it
    assert fences_to_close("") == 2


@pytest.mark.parametrize("stop_at_fence", [True, False])
def test_stops_when_the_code_block_closes(tiny: tuple[Any, Any], stop_at_fence: bool) -> None:
    model, tokenizer = tiny
    pieces = tokenizer.encode("```", add_special_tokens=False)  # e.g. "``" and "`"
    biased = torch.nn.Linear(model.lm_head.in_features, model.lm_head.out_features, bias=True)
    with torch.no_grad():
        biased.weight.copy_(model.lm_head.weight)
        biased.bias.zero_()
        biased.bias[pieces] = 6.0  # fences come often, a few tokens apart
    original = model.lm_head
    model.lm_head = biased
    agent = dataclasses.replace(
        AGENT,
        max_new_tokens=40,
        stop_at_fence=stop_at_fence,
        decoder="auto",  # a biased head
    )
    try:
        policy = HFPolicy(agent, model, tokenizer)
        outs = run_many(policy, 6)
        policy.close()
    finally:
        model.lm_head = original
    fences = [tokenizer.decode(list(o.response_ids)).count("```") for o in outs]
    if stop_at_fence:  # the chat prompt opens nothing: the second fence closes the block
        assert max(fences) == 2 and fences.count(2) >= len(outs) // 2
        for out, n in zip(outs, fences, strict=True):
            assert len(out.logprobs) == out.response_len
            if n == 2:  # ended on the closing fence, kept in the text
                assert out.finish_reason == "stop" and out.text.endswith("`")
            else:  # never closed: ran to the token limit (or EOS)
                assert out.response_len == 40 or out.response_ids[-1] == tokenizer.eos_token_id
    else:
        assert max(fences) > 2  # generation ran on past the block
