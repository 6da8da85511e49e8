"""`mars2.train` is the one front door: it resumes a run stopped after a checkpoint, as
`mars2 train --resume` does (the CLI calls it), and checks what it is given."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import mars2
from mars2.api import TrainStart, run_directory
from mars2.errors import UserError
from mars2.training.logger import run_figures

ROOT = Path(__file__).resolve().parents[1]
SMOKE = ROOT / "configs" / "smoke.yaml"
# two short steps on tiny-random; a checkpoint after each
ARGS = [
    "train.steps=2",
    "train.checkpoint_every=1",
    "train.problems_per_step=1",
    "train.max_rollout_rounds=1",
    "search.budget=2",
    "eval.limit=1",
    "eval.budget=2",
    "output.tensorboard=false",
]


class Stop(Exception):
    """Injected after step 1 (its checkpoint is written before `on_step` sees the step)."""


def stop_after_step_1(row: dict[str, Any]) -> None:
    if row["step"] == 1:
        raise Stop


def rows(run: Path) -> list[dict[str, Any]]:
    lines = (run / "metrics.jsonl").read_text().splitlines()
    return [run_figures(json.loads(line)) for line in lines]


@pytest.mark.slow
def test_train_resumes_a_stopped_run_as_the_uninterrupted_one(tmp_path: Path) -> None:
    config = mars2.load_config(SMOKE, ARGS)
    whole = mars2.train(config, out=tmp_path / "whole")

    run = tmp_path / "stopped"
    with pytest.raises(Stop):
        mars2.train(config, out=run, on_step=stop_after_step_1)
    assert [r["step"] for r in rows(run)] == [0, 1]
    assert (run / "checkpoints" / "latest").read_text() == "step_000001"

    starts: list[TrainStart] = []
    last = mars2.train(config, resume=run, on_start=starts.append)
    (start,) = starts
    assert (start.step, start.out) == (1, run)
    assert start.resumed_from == run / "checkpoints" / "step_000001"
    assert (run / "checkpoints" / "latest").read_text() == "step_000002"
    # the step count and every metric continue where the stopped run left off
    assert [r["step"] for r in rows(run)] == [0, 1, 2]
    for want, have in zip(rows(tmp_path / "whole"), rows(run), strict=True):
        assert want.keys() == have.keys()
        for key in want:
            assert have[key] == pytest.approx(want[key], rel=1e-4, abs=1e-6), (want["step"], key)
    assert last["step"] == whole["step"] == 2
    # each start recorded its machine: the fresh start ran from step 1, the resume from step 2
    starts_seen = [
        json.loads(line) for line in (run / "environment.jsonl").read_text().splitlines()
    ]
    assert [e["step"] for e in starts_seen] == [1, 2]
    assert all(e["torch"] and e["amx"] is False for e in starts_seen)  # conftest: no AMX


def test_resume_checks_its_run_directory_and_config(tmp_path: Path) -> None:
    with pytest.raises(UserError, match=r"resume=.*no config.yaml there"):
        mars2.train(resume=tmp_path)
    run = tmp_path / "run"
    run.mkdir()
    config = mars2.load_config(SMOKE, ARGS)
    run_directory(mars2.load_config(SMOKE, [*ARGS, f"output.out={run}"]), "train")
    longer = mars2.load_config(SMOKE, [*ARGS, "train.steps=3"])
    with pytest.raises(UserError, match=r"differs from the run's config.yaml in train.steps;"):
        mars2.train(longer, resume=run)
    with pytest.raises(UserError, match="continues in that run directory; drop out"):
        mars2.train(resume=run, out=tmp_path / "elsewhere")
    (run / "metrics.jsonl").write_text('{"step": 0}\nnot json\n{"step": 1}\n')
    with pytest.raises(UserError, match=r"metrics.jsonl:2: not valid JSON"):
        mars2.train(config, resume=run)  # before any model loads
