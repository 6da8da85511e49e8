"""Finished trees -> training samples: every sample carries the engine's log-prob of each of its
response tokens; a completion without them stops the step instead of training on zeros."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import pytest

from fakes import SUM_EVENS, WRONG, ScriptedPolicy, fenced
from mars2.config import load_config
from mars2.errors import InfraError
from mars2.rollout import Orchestrator
from mars2.sandbox import Sandbox
from mars2.training.loop import to_samples
from mars2.types import Completion

CONFIG = [
    "agents=[{name: coder, model: tiny-random, role: coder}]",
    "search.algo=sampling",
    "search.budget=3",
    "search.parallel_expansions=1",
    "sandbox.workers=1",
    "credit.reward=fraction",
    "credit.dynamic_filter=false",
]


class CutLogprobs(ScriptedPolicy):
    """A backend that returns `keep` log-probs per completion, whatever its length."""

    def __init__(self, answers: list[str], keep: int) -> None:
        super().__init__(answers)
        self.keep = keep

    async def generate(self, messages: Any, *, seed: int | None = None) -> Completion:
        out = await super().generate(messages, seed=seed)
        return dataclasses.replace(out, logprobs=out.logprobs[: self.keep])


def grow(policy: ScriptedPolicy) -> Any:
    config = load_config(None, CONFIG)
    with Sandbox(config.sandbox) as sandbox:
        orchestrator = Orchestrator(
            [policy], config.agents, sandbox, config.search, reward="fraction"
        )
        return config, asyncio.run(orchestrator.run([SUM_EVENS], seed=1))


def test_samples_carry_the_rollout_logprobs() -> None:
    config, results = grow(ScriptedPolicy([fenced(WRONG)]))
    samples, kept = to_samples(results, config)
    assert kept == len(samples) == 3
    for sample in samples:
        assert sample.rollout_logprobs == [-1.0] * len(sample.response_ids)


@pytest.mark.parametrize("keep", [0, 2])
def test_missing_rollout_logprobs_are_an_error_not_zeros(keep: int) -> None:
    config, results = grow(CutLogprobs([fenced(WRONG)], keep))
    with pytest.raises(InfraError, match=rf"'coder' \(backend 'hf'\) returned {keep} log-probs"):
        to_samples(results, config)
