"""`mars2 train` killed with SIGKILL at four moments of step 2 (the last) — while generating,
between two agents' updates, while writing the checkpoint, while evaluating — then `--resume`d,
reaches the same metrics as the uninterrupted run; and `mars2 eval` of that run loads the trained weights.

The kill is deterministic: the killed run is `mars2 train` started by a small driver (DRIVER
below, test code only) that wraps one function of the product, and at the chosen moment writes a
marker file and blocks; the test waits for the marker and kills the process group. The
uninterrupted reference run is made once per test session and shared by the xdist workers."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from code_reward import ENV, REWARD
from filelock import FileLock

from mars2.training.logger import run_figures

ROOT = Path(__file__).resolve().parents[2]
SMOKE = str(ROOT / "configs" / "smoke.yaml")
# Everything the steps depend on is set here (the defaults may change). The reward is a fixed
# function of the program text (code_reward.py): every step really changes the weights, which
# the eval test needs, whatever the seeds sample.
ARGS = [
    REWARD,
    "train.steps=2",
    "train.checkpoint_every=1",
    "train.eval_every=0",
    "train.max_rollout_rounds=1",
    "train.min_samples_per_agent=0",
    "output.tensorboard=false",
]

DRIVER = r"""
import os, sys, time
from pathlib import Path

moment, marker = sys.argv[1], Path(sys.argv[2])
from mars2.agents.hf import HFPolicy
from mars2.cli import main
from mars2.training import checkpoint, loop
from mars2.training.learner import Learner

now = {"step": 0, "saving": None, "updates": 0}


def hang():
    marker.write_text(moment)
    time.sleep(3600)  # until the test's SIGKILL


train_step = loop.Trainer.train_step


def spy_train_step(self, *args, **kwargs):
    now["step"] = self.step + 1
    return train_step(self, *args, **kwargs)


loop.Trainer.train_step = spy_train_step

if moment == "generation":  # step 2's first request, before any token of it
    generate = HFPolicy.generate

    async def spy_generate(self, *args, **kwargs):
        if now["step"] == 2:
            hang()
        return await generate(self, *args, **kwargs)

    HFPolicy.generate = spy_generate
elif moment == "update":  # step 2: the first agent has updated, the second has not
    update = Learner.update

    def spy_update(self, samples):
        if now["step"] == 2:
            now["updates"] += 1
            if now["updates"] == 2:
                hang()
        return update(self, samples)

    Learner.update = spy_update
elif moment == "checkpoint":  # step 2's checkpoint: written to a temporary name, not yet renamed
    save = checkpoint.save

    def spy_save(run_dir, step, *args, **kwargs):
        now["saving"] = step
        return save(run_dir, step, *args, **kwargs)

    checkpoint.save = spy_save
    for name in ("replace", "rename"):
        real = getattr(os, name)

        def spy_move(src, dst, *args, _real=real, **kwargs):
            if now["saving"] == 2 and "checkpoints" in str(dst):
                hang()
            return _real(src, dst, *args, **kwargs)

        setattr(os, name, spy_move)
elif moment == "evaluation":  # step 2's final evaluation: its checkpoint is written, no line yet
    evaluate = loop.Trainer.evaluate

    def spy_evaluate(self, *args, **kwargs):
        if self.step == 2:
            hang()
        return evaluate(self, *args, **kwargs)

    loop.Trainer.evaluate = spy_evaluate

sys.exit(main(["train", *sys.argv[3:]]))
"""


def train(out: Path, *extra: str, resume: bool = False) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "mars2", "train"]
    cmd += ["--resume", str(out)] if resume else ["--config", SMOKE, "--out", str(out), *ARGS]
    return subprocess.run([*cmd, *extra], capture_output=True, text=True, timeout=900, env=ENV)


def metrics(out: Path) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    return [run_figures(row) for row in rows]


def pointer(out: Path) -> str:
    return (out / "checkpoints" / "latest").read_text().strip()


@pytest.fixture(scope="session")
def reference(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Iterator[Path]:
    """The uninterrupted run, made once for all xdist workers (the pytest-xdist recipe). The
    shared folder is this session's: the workers' base folders' parent under xdist, the base
    folder itself without it (its parent outlives the session and would serve an old run)."""
    shared = tmp_path_factory.getbasetemp()
    if worker_id != "master":
        shared = shared.parent
    out = shared / "kill-resume-reference"
    with FileLock(str(shared / "kill-resume-reference.lock")):
        if not (out / "done").is_file():
            done = train(out)
            assert done.returncode == 0, done.stderr[-3000:]
            (out / "done").touch()
    yield out


@pytest.mark.slow
@pytest.mark.timeout(1200)
@pytest.mark.parametrize("moment", ["generation", "update", "checkpoint", "evaluation"])
def test_sigkill_then_resume_matches_uninterrupted(
    reference: Path, tmp_path: Path, moment: str
) -> None:
    out, marker = tmp_path / "killed", tmp_path / "marker"
    cmd = [sys.executable, "-c", DRIVER, moment, str(marker)]
    cmd += ["--config", SMOKE, "--out", str(out), *ARGS]
    with open(tmp_path / "killed.log", "w") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=log, start_new_session=True, env=ENV)
        deadline = time.monotonic() + 600
        while not marker.is_file() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert marker.is_file(), (tmp_path / "killed.log").read_text()[-3000:]
    # A step's checkpoint comes before its evaluation and its line: killed inside step 2, the
    # run has step 1's line, and step 2's checkpoint only when killed while evaluating.
    assert [r["step"] for r in metrics(out)] == [0, 1]
    assert ("000002" if moment == "evaluation" else "000001") in pointer(out)

    resumed = train(out, resume=True)
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    want, have = metrics(reference), metrics(out)
    assert [r["step"] for r in have] == [r["step"] for r in want] == [0, 1, 2]
    for a, b in zip(want, have, strict=True):
        assert a.keys() == b.keys()
        for key in a:
            assert b[key] == pytest.approx(a[key], rel=1e-4, abs=1e-6), (moment, a["step"], key)
    assert "000002" in pointer(out)


def eval_run(run: Path, out: Path, *extra: str) -> dict[tuple[str, int], str]:
    """The code of every node, by (problem, node): trees are written in the order they finish."""
    cmd = [sys.executable, "-m", "mars2", "eval", str(run), "--limit", "2", "--budget", "2"]
    done = subprocess.run(
        [*cmd, "--out", str(out), *extra], capture_output=True, text=True, timeout=600, env=ENV
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    text = (out / "trees" / "search.jsonl").read_text()
    records = [json.loads(line) for line in text.splitlines()]
    return {(r["problem_id"], r["node_id"]): r["code"] for r in records}


@pytest.mark.slow
def test_eval_of_a_run_loads_its_trained_weights(reference: Path, tmp_path: Path) -> None:
    # precondition (ARGS' reward): the reference run's steps really changed the weights
    assert any(row.get("grad_norm/coder", 0.0) > 0 for row in metrics(reference))
    trained = eval_run(reference, tmp_path / "trained")
    base = eval_run(reference, tmp_path / "base", "--base")
    assert len(trained) == len(base) == 4  # 2 problems x budget 2
    assert (tmp_path / "trained" / "metrics.json").is_file()
    # Same seeds and problems: only the weights differ, so the generated code does too.
    assert trained.keys() == base.keys() and trained != base
    # Reproducible: the latest checkpoint named by its step gives the same trees.
    assert eval_run(reference, tmp_path / "step2", "--step", "2") == trained
