"""Agents of one frozen model that sample alike share one engine (one batch), each keeping its
own prompts and seeds; agents that differ get engines of their own over the same weights."""

from __future__ import annotations

import asyncio
import copy
import dataclasses
from typing import Any

import pytest

from mars2.agents.chat import SharedEngineAgent
from mars2.agents.hf import HFPolicy
from mars2.config import AgentConfig
from mars2.rollout.engines import load_policies
from mars2.types import Completion

CODER = AgentConfig(model="tiny-random", max_new_tokens=10, max_batch_size=16, temperature=0.7)
DEBUGGER = dataclasses.replace(CODER, role="debugger")


def chat(agent: int, i: int) -> list[dict[str, str]]:
    return [
        {"role": "system", "content": f"You are agent {agent}."},
        {"role": "user", "content": f"Problem {i}: sort the list" + " x" * i},
    ]


def together(policies: list[Any], n: int) -> list[list[Completion]]:
    """n unseeded requests per policy, all made at once."""

    async def main() -> list[Completion]:
        calls = [p.generate(chat(a, i)) for a, p in enumerate(policies) for i in range(n)]
        return await asyncio.gather(*calls)

    outs = asyncio.run(main())
    return [outs[a * n : (a + 1) * n] for a in range(len(policies))]


def test_alike_agents_share_one_engine_and_keep_their_own_completions(
    tiny: tuple[Any, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    from mars2.rollout import engines

    monkeypatch.setattr(engines, "load_model", lambda *_a, **_k: tiny)
    coder, debugger = load_policies([CODER, DEBUGGER], seed=5)
    assert isinstance(coder, HFPolicy) and isinstance(debugger, SharedEngineAgent)
    shared = together([coder, debugger], 3)
    stats = coder.stats()
    assert stats["batches"] == 1 and stats["mean_batch_size"] == 6  # both agents, one batch
    assert debugger.stats()["requests"] == 3 and stats["requests"] == 3
    # Each agent alone on an engine of its own (the seeds load_policies gives: seed + index).
    alone = [HFPolicy(CODER, *tiny, seed=5), HFPolicy(DEBUGGER, *tiny, seed=6)]
    solo = [together([alone[0]], 3)[0], together([alone[0], alone[1]], 3)[1]]
    for mine, theirs in zip(shared, solo, strict=True):
        assert [c.response_ids for c in mine] == [c.response_ids for c in theirs]
    for policy in (*alone, debugger, coder):
        policy.close()


def test_agents_that_sample_differently_get_their_own_engine_over_shared_weights(
    tiny: tuple[Any, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    from mars2.rollout import engines

    loads: list[str] = []
    monkeypatch.setattr(engines, "load_model", lambda name, **_k: loads.append(name) or tiny)
    hot = dataclasses.replace(CODER, temperature=1.2)
    policies = load_policies([CODER, hot, DEBUGGER])
    assert loads == ["tiny-random"]  # the weights are loaded once
    assert isinstance(policies[1], HFPolicy) and policies[1] is not policies[0]
    assert policies[1].model is policies[0].model  # type: ignore[attr-defined]
    assert isinstance(policies[2], SharedEngineAgent)
    with pytest.raises(ValueError, match="frozen"):
        policies[2].sync_weights({"w": 0})  # type: ignore[attr-defined]
    for policy in policies:
        policy.close()


def test_a_trainable_model_is_never_shared(tiny: tuple[Any, Any]) -> None:
    model, tokenizer = tiny
    other = (copy.deepcopy(model), tokenizer)  # two learners' models
    policies = load_policies([CODER, DEBUGGER], models={0: tiny, 1: other})
    assert all(isinstance(p, HFPolicy) for p in policies) and policies[0] is not policies[1]
    for policy in policies:
        policy.close()


def test_agents_given_one_model_object_share_its_engine(tiny: tuple[Any, Any]) -> None:
    """Agents on one set of trained weights (`share_with`) that sample alike: one batch."""
    policies = load_policies([CODER, DEBUGGER], models={0: tiny, 1: tiny})
    assert isinstance(policies[0], HFPolicy) and policies[0].model is tiny[0]
    assert isinstance(policies[1], SharedEngineAgent) and policies[1]._engine is policies[0]
    policies[0].close()
