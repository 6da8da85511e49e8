"""Dynamic filtering that refills: more rollout rounds until every trainable agent's batch is
full, bounded by `train.max_rollout_rounds`; an agent left with nothing takes no step."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mars2.config import load_config
from mars2.training.loop import Trainer

ROOT = Path(__file__).resolve().parents[2]
BASE = [
    "train.steps=1",
    "train.problems_per_step=2",
    "search.budget=2",
    "eval.limit=1",
    "eval.budget=1",
    "train.checkpoint_every=0",
    "output.tensorboard=false",
    "output.save_trees=false",
]


def fit(tmp_path: Path, *overrides: str) -> tuple[Trainer, dict[str, Any]]:
    config = load_config(ROOT / "configs" / "smoke.yaml", [*BASE, *overrides])
    trainer = Trainer(config, tmp_path)
    rows: list[dict[str, Any]] = []
    trainer.fit(rows.append)
    (step,) = [row for row in rows if row["step"] == 1]
    return trainer, step


def test_groups_without_signal_are_refilled_up_to_the_round_limit(tmp_path: Path) -> None:
    # tiny-random passes no test: with the binary reward every group has equal rewards
    trainer, step = fit(
        tmp_path,
        "credit.reward=binary",
        "credit.dynamic_filter=true",
        "credit.overlong_buffer=0",
        "train.min_samples_per_agent=1",
        "train.max_rollout_rounds=3",
    )
    assert step["train/rounds"] == 3
    assert step["train/nodes"] == 3 * 2 * 2  # three rounds of 2 problems x 2 nodes
    assert step["train/samples"] == 0
    for name in ("coder", "debugger"):
        assert step[f"train/starved/{name}"] == 1.0 and step[f"train/samples/{name}"] == 0
        assert f"loss/{name}" not in step
    # the LR schedule counts optimizer steps taken: none were
    for learner in trainer.learners:
        assert learner is not None and learner.scheduler.last_epoch == 0  # type: ignore[attr-defined]


def test_one_round_when_the_batches_are_full(tmp_path: Path) -> None:
    _, step = fit(
        tmp_path,
        "credit.dynamic_filter=false",
        "train.min_samples_per_agent=1",
        "train.max_rollout_rounds=3",
        "search.agent_selection=round_robin",
    )
    assert step["train/rounds"] == 1 and step["train/samples"] == 4
    assert step["train/starved/coder"] == 0.0 and "loss/coder" in step


def test_rounds_continue_while_an_agent_is_short(tmp_path: Path) -> None:
    _, step = fit(
        tmp_path,
        "credit.dynamic_filter=false",
        "train.min_samples_per_agent=3",
        "train.max_rollout_rounds=4",
        "search.agent_selection=round_robin",
    )
    # round robin: each agent writes 2 of the 4 nodes of a round, so 3 samples take 2 rounds
    assert step["train/rounds"] == 2 and step["train/samples/coder"] == 4


def test_agents_sharing_weights_pool_their_samples(tmp_path: Path) -> None:
    # round robin over trees of 3 nodes: the coder writes 2 nodes of a tree, the debugger 1,
    # so one round of 2 problems gives 4 + 2 samples. The debugger trains the coder's
    # weights: the one learner needs 2 x 3 and has them after one round (counted alone, the
    # debugger's 2 would have asked for a second round)
    _, step = fit(
        tmp_path,
        "credit.dynamic_filter=false",
        "train.min_samples_per_agent=3",
        "train.max_rollout_rounds=4",
        "search.agent_selection=round_robin",
        "search.budget=3",
        "agents.1.share_with=coder",
    )
    assert (step["train/samples/coder"], step["train/samples/debugger"]) == (4, 2)
    assert step["train/rounds"] == 1
