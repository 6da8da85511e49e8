"""Dynamic filtering that refills: more rollout rounds until every trainable agent's batch is
full, bounded by `train.max_rollout_rounds`; a set of weights left with nothing takes no step
(agents that share it are starved together)."""

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


def test_starved_follows_the_shared_learner(tmp_path: Path, caplog: Any) -> None:
    # trees of one node, round robin: the coder writes every node. The debugger trains the
    # coder's weights, which do get samples: nobody is starved and no warning is logged.
    _, step = fit(
        tmp_path / "a",
        "credit.dynamic_filter=false",
        "train.min_samples_per_agent=1",
        "train.max_rollout_rounds=1",
        "search.agent_selection=round_robin",
        "search.budget=1",
        "agents.1.share_with=coder",
    )
    assert (step["train/samples/coder"], step["train/samples/debugger"]) == (2, 0)
    assert step["train/starved/coder"] == step["train/starved/debugger"] == 0.0
    assert "loss/debugger" in step  # the shared step's figures, under both names
    assert "no samples" not in caplog.text

    # no signal at all: the one set of weights is starved, one warning names both agents
    caplog.clear()
    _, step = fit(
        tmp_path / "b",
        "credit.reward=binary",
        "credit.dynamic_filter=true",
        "credit.overlong_buffer=0",
        "train.max_rollout_rounds=1",
        "agents.1.share_with=coder",
    )
    assert step["train/starved/coder"] == step["train/starved/debugger"] == 1.0
    warnings = [r.getMessage() for r in caplog.records if "no samples" in r.getMessage()]
    assert len(warnings) == 1 and "coder and debugger" in warnings[0], warnings
