"""The Trainer on tiny-random, on paths the CLI smoke test does not take: `train.mode=grpo`, a
frozen (`trainable: false`) agent next to a trained one, several optimizer steps per training
step; and in every mode, a training step changes the trained weights (and only those).

Every number a test relies on is set here, not taken from the defaults. tiny-random passes no
test, so the rewards over tests are all 0 and a step would only move the weights when one of its
responses happened to stop before `max_new_tokens` (the overlong penalty's spread; ~1 response
in 70). The training reward here is a fixed function of the program text instead, so every
group has a spread whatever the seeds sample."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest
import torch

import mars2
from mars2 import machine
from mars2.config import Config, load_config
from mars2.registry import REWARDS
from mars2.training.learner import Learner
from mars2.training.loop import Trainer
from mars2.training.plan import plan_for

SMOKE = Path(__file__).resolve().parents[2] / "configs" / "smoke.yaml"
FAST = [
    "output.tensorboard=false",
    "train.steps=1",
    "train.problems_per_step=2",
    "search.parallel_expansions=2",
    "seed=0",
    "train.max_rollout_rounds=1",
    "train.min_samples_per_agent=0",
    "train.updates_per_step=1",
    "train.checkpoint_every=1",
    "search.budget=4",
    "eval.limit=1",
    "eval.budget=1",
    "credit.dynamic_filter=false",
    "credit.reward=test-text-digest",
]


def text_digest_reward(record: Any) -> float:
    """A reward in {0, 0.5, 1} that depends only on the node's program text."""
    return (sum(map(ord, record.code)) % 3) / 2


@pytest.fixture(autouse=True)
def varied_reward() -> Any:
    mars2.register_reward("test-text-digest", text_digest_reward)
    yield
    REWARDS.unregister("test-text-digest")


def config(*overrides: str) -> Config:
    return load_config(SMOKE, [*FAST, *overrides])


def snapshot(model: Any) -> dict[str, torch.Tensor]:
    return {k: v.detach().clone() for k, v in model.state_dict().items()}


def changed(before: dict[str, torch.Tensor], model: Any) -> list[str]:
    after = model.state_dict()
    return [k for k, v in before.items() if not torch.equal(v, after[k])]


def tree_records(run_dir: Path) -> list[dict[str, Any]]:
    text = (run_dir / "trees" / "step_000001.jsonl").read_text()
    return [json.loads(line) for line in text.splitlines()]


def test_mcts_step_changes_every_agents_weights(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    trainer = Trainer(config(), tmp_path)
    learners = [lr for lr in trainer.learners if isinstance(lr, Learner)]
    assert len(learners) == 2
    before = [snapshot(lr.model) for lr in learners]
    with caplog.at_level(logging.INFO, logger="mars2.training.loop"):
        last = trainer.fit()
    # each evaluation's progress in the run's log (one problem, eval.samples 4 of one node)
    lines = [r.getMessage() for r in caplog.records if "trees" in r.getMessage()]
    assert "eval step_000001: 4 trees to grow" in lines
    assert any(line.startswith("eval step_000001: 4/4 trees (100%)") for line in lines), lines
    for name, learner, weights in zip(("coder", "debugger"), learners, before, strict=True):
        assert last[f"samples/{name}"] > 0
        assert changed(weights, learner.model), f"{name}: no weight changed after a step"
    # The hf engine generates with the learner's own model object: it sees the new weights.
    assert trainer.policies[0].model is learners[0].model  # type: ignore[attr-defined]
    if machine.cpu_times() is not None:  # Linux: the hypervisor's share beside the wall time
        assert 0.0 <= last["machine/steal"] <= 1.0


def test_grpo_mode_trains_on_groups_of_independent_samples(tmp_path: Path) -> None:
    cfg = config(
        "train.mode=grpo",
        "train.samples_per_problem=3",
        "train.problems_per_step=2",
        "agents=[{name: solo, model: tiny-random, max_new_tokens: 32, temperature: 1.0}]",
    )
    trainer = Trainer(cfg, tmp_path)
    # a group's samples go out together, so the engine prefills their shared prompt once
    search = plan_for(cfg).search
    assert (search.algo, search.budget, search.parallel_expansions) == ("sampling", 3, 3)
    learner = trainer.learners[0]
    assert isinstance(learner, Learner)
    before = snapshot(learner.model)
    last = trainer.fit()
    records = tree_records(tmp_path)
    # 2 problems x 3 samples, each a child of its group's root: no refinement in grpo mode.
    assert len(records) == 6 and last["train/nodes"] == 6
    assert all(r["parent_id"] is None for r in records)
    groups = [r["tree_id"] for r in records]
    assert sorted(groups.count(g) for g in set(groups)) == [3, 3]
    assert last["samples/solo"] == 6
    assert "loss/solo" in last and torch.isfinite(torch.tensor(last["loss/solo"]))
    assert changed(before, learner.model)


def test_a_frozen_agent_generates_but_never_trains(tmp_path: Path) -> None:
    cfg = config("agents.1.trainable=false", "train.updates_per_step=2")
    trainer = Trainer(cfg, tmp_path)
    coder, debugger = trainer.learners
    assert isinstance(coder, Learner) and debugger is None
    frozen_model = trainer.policies[1].model  # type: ignore[attr-defined]
    frozen, trained = snapshot(frozen_model), snapshot(coder.model)
    last = trainer.fit()
    assert "loss/coder" in last
    assert not [k for k in last if k.startswith(("loss/", "samples/")) and k.endswith("/debugger")]
    assert coder.scheduler.last_epoch == min(2, int(last["samples/coder"]))  # two steps per step
    assert changed(trained, coder.model)
    assert not changed(frozen, frozen_model)
