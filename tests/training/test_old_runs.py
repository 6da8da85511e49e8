"""A run directory of an older mars2, with five-digit tree files (`trees/step_00001.jsonl`),
resumes: the redone step's old file is replaced by its six-digit one (mars2.rundir), never
kept beside it, and the report reads the mixed run in step order."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mars2.config import dump_yaml, load_config
from mars2.report import load_run
from mars2.rundir import RunDir
from mars2.training import checkpoint
from mars2.training.loop import Trainer

SMOKE = Path(__file__).resolve().parents[2] / "configs" / "smoke.yaml"
FAST = [
    "output.tensorboard=false",
    "train.problems_per_step=1",
    "search.budget=2",
    "seed=0",
    "train.max_rollout_rounds=1",
    "train.min_samples_per_agent=0",
    "train.checkpoint_every=1",
    "eval.limit=1",
    "eval.budget=1",
    "eval.every=0",
    "credit.dynamic_filter=false",
]


@pytest.mark.slow
def test_an_older_run_resumes_and_its_redone_step_is_written_once(tmp_path: Path) -> None:
    run = RunDir(tmp_path / "run")
    run.root.mkdir()
    Trainer(load_config(SMOKE, [*FAST, "train.steps=1"]), run.root).fit()
    # What an older mars2 left: step 1's trees in five digits, and step 2's trees written
    # before it was killed (no checkpoint of step 2, no metrics line).
    run.trees(1).rename(run.trees_dir / "step_00001.jsonl")
    (run.trees_dir / "step_00002.jsonl").write_text(
        (run.trees_dir / "step_00001.jsonl").read_text()
    )
    config = load_config(SMOKE, [*FAST, "train.steps=2"])
    run.config.write_text(dump_yaml(config))
    trainer = Trainer(config, run.root)
    latest = checkpoint.latest(run.root)
    assert latest == run.checkpoint(1)
    trainer.load_state_dict(checkpoint.load(latest))
    trainer.fit()
    assert [p.name for p in run.tree_files()] == ["step_00001.jsonl", "step_000002.jsonl"]
    steps = [json.loads(line)["step"] for line in run.metrics.read_text().splitlines()]
    assert steps == [0, 1, 2]
    report = load_run(run.root)
    assert list(dict.fromkeys(t.source for t in report.trees)) == ["step_00001", "step_000002"]
