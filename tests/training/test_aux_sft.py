"""The supervised repair term in the learner: off at weight 0 (bitwise today's update), and at
weight w it adds exactly w times the gradient of the token-mean NLL of the targets."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import torch

from learner_fixtures import _Tok, agent_batch, make_config, samples, tiny_model
from mars2.config import AgentConfig, LossConfig, TrainConfig
from mars2.rollout import TreeResult
from mars2.training.hindsight import RepairPair
from mars2.training.learner import Learner
from mars2.training.loop import Trainer
from mars2.training.placement import LocalPlacement
from mars2.types import NodeRecord, Sample

PAIR = RepairPair("agent0", "p", "t", 0, 1, 0.5, ({"role": "user", "content": "x"},), "y")


def learner(tokens: int = 0, updates: int = 1) -> Learner:
    train = TrainConfig(
        lr=1e-2,
        micro_batch_size=2,
        micro_batch_tokens=tokens,
        updates_per_step=updates,
        grad_clip=0.0,
    )
    agent = AgentConfig(model="tiny", temperature=0.7)
    return Learner(tiny_model(), _Tok(), agent, train, LossConfig(), total_updates=10, seed=0)


def supervised() -> list[Sample]:
    rows = [([1, 2, 3], [4, 5]), ([6], [7, 8, 9]), ([1, 2, 3], [10])]
    return [Sample(0, p, r, [0.0] * len(r), 0.0) for p, r in rows]


def grads(model: torch.nn.Module) -> dict[str, torch.Tensor]:
    return {n: p.grad.clone() for n, p in model.named_parameters() if p.grad is not None}


def nll_gradient(temperature: float) -> dict[str, torch.Tensor]:
    """∇ of -(1/N) Σ log softmax(logits / T)[target] over the targets of `supervised()`,
    computed from the model's logits directly, at tiny_model()'s initial weights."""
    model = tiny_model()
    total = torch.zeros(())
    n_tokens = sum(len(s.response_ids) for s in supervised())
    for s in supervised():
        ids = torch.tensor([s.prompt_ids + s.response_ids])
        logits = model(ids).logits[0] / temperature
        logp = torch.log_softmax(logits, -1)
        start = len(s.prompt_ids)
        for k, token in enumerate(s.response_ids):
            total = total - logp[start + k - 1, token]
    (total / n_tokens).backward()
    return grads(model)


@pytest.mark.parametrize("tokens", [0, 64])  # padded and packed micro-batches
def test_weight_w_adds_w_times_the_nll_gradient(tokens: int) -> None:
    rl_only, both = learner(tokens), learner(tokens)
    rl_only._update(samples())
    stats = both._update(samples(), supervised(), 0.5)
    expected = nll_gradient(0.7)
    for name, g in grads(both.model).items():
        added = g - grads(rl_only.model)[name]
        assert torch.allclose(added, 0.5 * expected[name], atol=2e-6), name
    assert stats["sft_pairs"] == 3 and stats["sft_tokens"] == 6
    assert stats["sft_nll"] > 0


def test_the_warm_up_step_is_the_nll_alone() -> None:
    alone = learner()
    stats = alone._update([], supervised(), 1.0)
    expected = nll_gradient(0.7)
    for name, g in grads(alone.model).items():
        assert torch.allclose(g, expected[name], atol=2e-6), name
    assert stats["samples"] == 0 and stats["loss"] == pytest.approx(stats["sft_nll"])


def test_weight_zero_is_todays_update_bitwise() -> None:
    today, zero = learner(), learner()
    today.update(samples())
    # the pairs are never even tokenized (the stand-in tokenizer could not)
    zero.update(samples(), [PAIR], 0.0)
    for (n, p), (_, q) in zip(
        today.model.named_parameters(), zero.model.named_parameters(), strict=True
    ):
        assert torch.equal(p, q), n
    assert today.rng.getstate() == zero.rng.getstate()


def test_several_updates_per_step_split_the_pairs_too() -> None:
    split = learner(updates=2)
    stats = split._update(samples(), supervised(), 1.0)
    assert stats["sft_pairs"] == 3 and stats["sft_nll"] > 0


class Spy:
    """A learner that records what each update got (a test spy)."""

    def __init__(self, learner: Any) -> None:
        self.learner = learner
        self.calls: list[tuple[int, list[RepairPair], float | None]] = []

    def update(self, samples: list[Sample], *extra: Any) -> dict[str, float]:
        repairs, weight = extra if extra else ([], None)
        self.calls.append((len(samples), list(repairs), weight))
        return self.learner.update(samples, *extra)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.learner, name)


def step_results(trainer: Trainer) -> list[TreeResult]:
    """One finished tree of a training problem: a failed attempt and a passing refinement."""
    problem = trainer.problems[0]
    records = [
        NodeRecord("s1r0/a", problem.id, 0, None, 1, 0, 0.0, 0.0, False, 3, "x = 1", "bad"),
        NodeRecord("s1r0/a", problem.id, 1, 0, 2, 1, 1.0, 1.0, True, 3, problem.solution or ""),
    ]
    state: Any = None  # the pairs come from the records alone
    return [TreeResult("s1r0/a", problem, state, records)]


@pytest.mark.parametrize("weight", [0.0, 0.5])
def test_the_trainer_hands_each_learner_its_agents_pairs(tmp_path: Path, weight: float) -> None:
    config = make_config("agents.1.share_with=coder", f"train.aux_sft_weight={weight}")
    placement = LocalPlacement(config)
    spy = Spy(placement.learners[0])
    placement.learners = [spy, spy]  # type: ignore[list-item]
    trainer = Trainer(config, tmp_path, placement)
    repairs = trainer._repairs(step_results(trainer))
    metrics: dict[str, Any] = {}
    trainer._update(agent_batch(0) + agent_batch(1), metrics, repairs)
    ((n, got, used),) = spy.calls
    assert n == 6
    if weight == 0:  # nothing built, and the update is called as it always was
        assert repairs == [] and got == [] and used is None
        assert "sft_nll/coder" not in metrics and "train/repair_pairs" not in metrics
    else:  # one pair per role of the shared weights: the coder's and the debugger's prompt
        assert [p.agent for p in got] == ["coder", "debugger"] and used == 0.5
        assert metrics["sft_pairs/coder"] == 2 and metrics["sft_nll/debugger"] > 0
        assert metrics["train/repair_pairs"] == 2
    placement.close()
