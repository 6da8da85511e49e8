"""`train.update: per_agent` on tiny-random: every update is one full batch of samples within the
staleness bound, every node records its writer's weights version, a resumed run restores the
buffers exactly and takes the same next update, and `mars2 train` runs the mode end to end.

The training reward is a fixed function of the program text (as in test_trainer_paths.py), so
every group has a spread and every update moves the weights."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from code_reward import ENV, REWARD

from fakes import DeferredLearner
from mars2.config import Config, load_config
from mars2.errors import ConfigError
from mars2.training import checkpoint
from mars2.training.buffers import SampleBuffers
from mars2.training.loop import Trainer
from mars2.training.placement import LearnerLike, LocalPlacement
from mars2.types import Sample

ROOT = Path(__file__).resolve().parents[2]
SMOKE = ROOT / "configs" / "smoke.yaml"
NAMES = ("coder", "debugger")
ARGS = [
    REWARD,
    "output.tensorboard=false",
    "train.update=per_agent",
    "train.agent_batch=3",
    "train.max_staleness=1",
    "train.problems_per_step=2",
    "search.budget=4",
    "search.parallel_expansions=2",
    "credit.dynamic_filter=false",
    "eval.limit=1",
    "eval.budget=1",
    "eval.before=false",
    "train.checkpoint_every=1",
]


@pytest.fixture(autouse=True)
def code_reward_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(Path(__file__).parent))


def config(*overrides: str) -> Config:
    return load_config(SMOKE, [*ARGS, *overrides])


class Recorder:
    """A learner that notes each batch with the weights version it was trained at."""

    def __init__(self, learner: LearnerLike, buffers: SampleBuffers, owner: str) -> None:
        self.learner, self.buffers, self.owner = learner, buffers, owner
        self.batches: list[tuple[int, list[Sample]]] = []

    def update(self, samples: list[Sample]) -> dict[str, float]:
        self.batches.append((self.buffers.versions[self.owner], list(samples)))
        return self.learner.update(samples)

    def state_dict(self) -> dict[str, Any]:
        return self.learner.state_dict()

    def load_state_dict(self, state: dict[str, Any]) -> None:
        self.learner.load_state_dict(state)


def test_updates_take_full_fresh_batches_and_nodes_record_versions(tmp_path: Path) -> None:
    trainer = Trainer(config("train.steps=3"), tmp_path)
    recorders = []
    for i, learner in enumerate(trainer.learners):
        assert learner is not None
        recorders.append(Recorder(learner, trainer.buffers, NAMES[i]))
        trainer.learners[i] = recorders[-1]
    rows: dict[int, dict[str, Any]] = {}
    trainer.fit(lambda row: rows.update({row["step"]: row}))
    assert sorted(rows) == [1, 2, 3]
    for i, name in enumerate(NAMES):
        batches = recorders[i].batches
        assert batches, f"{name} never updated"
        for version, batch in batches:
            assert len(batch) == 3 and {s.agent_id for s in batch} == {i}
            assert all(0 <= version - s.version <= 1 for s in batch)
        # every sample written is trained, waiting or dropped as stale
        written = sum(rows[k][f"train/samples/{name}"] for k in rows)
        dropped = sum(rows[k][f"stale_dropped/{name}"] for k in rows)
        assert written == 3 * len(batches) + rows[3][f"buffer/{name}"] + dropped
        assert rows[3][f"version/{name}"] == len(batches) == trainer.buffers.versions[name]
        assert sum(rows[k][f"updates/{name}"] for k in rows) == len(batches)
    # the refill is off: one round a step
    assert all(rows[k]["train/rounds"] == 1 for k in rows)
    # step 2's nodes were written by the weights as step 1 left them
    step2 = [json.loads(line) for line in (tmp_path / "trees" / "step_000002.jsonl").open()]
    for record in step2:
        assert record["version"] == rows[1][f"version/{NAMES[record['agent_id']]}"]


class Interrupt(Exception):
    pass


def without_logprobs(state: dict[str, Any]) -> dict[str, Any]:
    """Buffers' state with the rollout log-probs left out: two runs in one process sample the
    same tokens, but their fp32 log-probs may differ in the last bit (batching)."""
    out = copy.deepcopy(state)
    for samples in out["waiting"].values():
        for sample in samples:
            sample.pop("rollout_logprobs")
    return out


def test_resume_mid_buffer_restores_buffers_and_the_next_update(tmp_path: Path) -> None:
    cfg = config("train.steps=2", "train.agent_batch=5")
    reference = Trainer(cfg, tmp_path / "reference")
    rows: dict[int, dict[str, Any]] = {}
    reference.fit(lambda row: rows.update({row["step"]: row}))

    killed = Trainer(cfg, tmp_path / "run")
    at_kill: dict[str, Any] = {}

    def kill_after_step_one(row: dict[str, Any]) -> None:
        at_kill.update(copy.deepcopy(killed.buffers.state_dict()))
        raise Interrupt

    with pytest.raises(Interrupt):
        killed.fit(kill_after_step_one)
    assert any(at_kill["waiting"].values()), "the buffers should hold samples after step 1"

    resumed = Trainer(cfg, tmp_path / "run")
    path = checkpoint.latest(tmp_path / "run")
    assert path is not None and path.name == "step_000001"
    resumed.load_state_dict(checkpoint.load(path))
    assert resumed.buffers.state_dict() == at_kill  # exactly, log-probs included
    recorders = []
    for i, learner in enumerate(resumed.learners):
        assert learner is not None
        recorders.append(Recorder(learner, resumed.buffers, NAMES[i]))
        resumed.learners[i] = recorders[-1]
    again: dict[int, dict[str, Any]] = {}
    resumed.fit(lambda row: again.update({row["step"]: row}))

    # the next update of each agent starts with the samples that waited across the kill
    restored = SampleBuffers({name: 5 for name in NAMES}, 1)
    restored.load_state_dict(at_kill)
    checked = 0
    for i, name in enumerate(NAMES):
        waiting = restored.waiting[name]
        if again[2][f"updates/{name}"]:
            first = recorders[i].batches[0][1]
            assert first[: len(waiting)] == waiting
            checked += bool(waiting)
    assert checked, "no agent updated on samples that waited across the kill"
    # and the step goes as in the run that was never stopped
    assert without_logprobs(resumed.buffers.state_dict()) == without_logprobs(
        reference.buffers.state_dict()
    )
    for name in NAMES:
        for key in ("updates", "buffer", "version", "stale_dropped", "samples"):
            assert again[2].get(f"{key}/{name}") == rows[2].get(f"{key}/{name}"), (key, name)
        if f"loss/{name}" in rows[2]:
            assert again[2][f"loss/{name}"] == pytest.approx(rows[2][f"loss/{name}"], rel=1e-4)
    assert any(f"loss/{name}" in rows[2] for name in NAMES)


@pytest.mark.slow
def test_mars2_train_per_agent_end_to_end(tmp_path: Path) -> None:
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "mars2", "train", "--config", str(SMOKE), "--out", str(out)]
    done = subprocess.run(
        [*cmd, *ARGS, "train.steps=2"], capture_output=True, text=True, timeout=600, env=ENV
    )
    assert done.returncode == 0, done.stderr[-3000:]
    rows = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    assert [row["step"] for row in rows] == [1, 2]
    for name in NAMES:
        assert sum(row[f"updates/{name}"] for row in rows) >= 1
        assert rows[-1][f"version/{name}"] == sum(row[f"updates/{name}"] for row in rows)
    assert "eval/pass@1" in rows[-1]


def test_overlap_rolls_out_before_the_update_lands_and_drains_at_the_end(tmp_path: Path) -> None:
    # `train.overlap` with learners that submit (as Ray learner actors do), in one process: the
    # update of step k's batches is collected only after step k+1's rollout, whose nodes are
    # written by the weights before that update; the last step (checkpoint and evaluation)
    # waits for every update, so the checkpoint holds none in flight.
    cfg = config("train.steps=3", "train.checkpoint_every=0", "train.agent_batch=2")
    placement = LocalPlacement(cfg)
    events: list[tuple[str, int]] = []
    placement.learners = [
        None if lrn is None else DeferredLearner(lrn, events) for lrn in placement.learners
    ]
    trainer = Trainer(cfg, tmp_path, placement)
    assert trainer.in_flight == []
    rollout = trainer._rollout

    def noted_rollout(*args: Any) -> Any:
        events.append(("rollout", trainer.step + 1))
        return rollout(*args)

    trainer._rollout = noted_rollout  # type: ignore[method-assign]
    rows: dict[int, dict[str, Any]] = {}
    trainer.fit(lambda row: rows.update({row["step"]: row}))

    assert [e for e in events if e[0] == "rollout"] == [("rollout", k) for k in (1, 2, 3)]
    started = sum(rows[1][f"updates/{name}"] for name in NAMES)
    assert started >= 1, "no agent filled a batch in step 1"
    # every update started in step 1 trains after step 2's rollout began
    step2 = events.index(("rollout", 2))
    assert [e[0] for e in events[:step2]] == ["rollout"] + ["submit"] * int(started)
    for i, name in enumerate(NAMES):
        row = rows[1]
        assert row[f"in_flight/{name}"] == row[f"updates/{name}"]
        assert f"loss/{name}" not in row  # nothing finished in step 1
        # step 2's nodes come from the weights before step 1's updates landed
        trees = tmp_path / "trees" / "step_000002.jsonl"
        versions = {
            json.loads(line)["version"]
            for line in trees.open()
            if json.loads(line)["agent_id"] == i
        }
        assert versions <= {row[f"version/{name}"] - row[f"in_flight/{name}"]}
        assert rows[3][f"in_flight/{name}"] == 0
        if f"staleness/{name}" in rows[3]:
            assert 0 <= rows[3][f"staleness/{name}"] <= 1
    assert trainer.in_flight == []
    assert any(f"loss/{name}" in rows[2] for name in NAMES)
    saved = checkpoint.load(checkpoint.latest(tmp_path))  # type: ignore[arg-type]
    assert saved["buffers"]["versions"] == trainer.buffers.versions


def test_overlap_with_staleness_zero_on_ray_is_refused() -> None:
    with pytest.raises(ConfigError, match="max_staleness"):
        config("cluster.backend=ray", "train.max_staleness=0")
    assert config("cluster.backend=ray", "train.max_staleness=0", "train.overlap=false")
