"""`mars2 train` end to end on tiny-random: the smoke config, SIGKILL + --resume reproduces the
uninterrupted run, and the run directory holds what design.md §10 promises."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SMOKE = str(ROOT / "configs" / "smoke.yaml")
ARGS = ["train.steps=3", "train.checkpoint_every=1", "output.tensorboard=false"]


def train(out: Path, *extra: str, resume: bool = False) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "mars2", "train"]
    cmd += (
        ["--resume", str(out), *extra]
        if resume
        else ["--config", SMOKE, "--out", str(out), *ARGS, *extra]
    )
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600)


def metrics(out: Path) -> list[dict[str, float]]:
    rows = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    return [{k: v for k, v in row.items() if not k.startswith("time/")} for row in rows]


@pytest.mark.slow
def test_smoke_run_writes_the_run_directory(tmp_path: Path) -> None:
    out = tmp_path / "run"
    done = train(out, "output.tensorboard=true")
    assert done.returncode == 0, done.stderr[-3000:]
    rows = metrics(out)
    assert [r["step"] for r in rows] == [0, 1, 2, 3]
    assert "eval/pass@1" in rows[0] and "eval/pass@1" in rows[-1]
    assert "loss/coder" in rows[1] and "loss/debugger" in rows[1]
    assert (out / "config.yaml").is_file()
    assert sorted(p.name for p in (out / "trees").glob("*.jsonl")) == [
        "step_00001.jsonl",
        "step_00002.jsonl",
        "step_00003.jsonl",
    ]
    record = json.loads((out / "trees" / "step_00001.jsonl").read_text().splitlines()[0])
    for key in (
        "tree_id",
        "problem_id",
        "node_id",
        "parent_id",
        "depth",
        "agent_id",
        "score",
        "reward",
        "passed",
        "response_len",
        "code",
        "feedback",
    ):
        assert key in record
    assert list((out / "tensorboard").iterdir())
    assert (out / "checkpoints" / "latest").read_text() == "step_000003"


@pytest.mark.slow
def test_sigkill_then_resume_matches_uninterrupted(tmp_path: Path) -> None:
    reference = tmp_path / "reference"
    assert train(reference).returncode == 0
    killed = tmp_path / "killed"
    cmd = [sys.executable, "-m", "mars2", "train", "--config", SMOKE, "--out", str(killed), *ARGS]
    proc = subprocess.Popen(
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    pointer = killed / "checkpoints" / "latest"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and proc.poll() is None:
        if pointer.is_file() and pointer.read_text() == "step_000001":
            break
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert pointer.read_text() in ("step_000001", "step_000002")
    resumed = train(killed, resume=True)
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    expected, got = metrics(reference), metrics(killed)
    assert [r["step"] for r in got] == [0, 1, 2, 3]
    for want, have in zip(expected, got, strict=True):
        assert want.keys() == have.keys()
        for key in want:
            assert have[key] == pytest.approx(want[key], rel=1e-4, abs=1e-6), (want["step"], key)


def test_resume_of_a_non_run_directory_is_a_user_error(tmp_path: Path) -> None:
    done = train(tmp_path, resume=True)
    assert done.returncode == 2
    assert "config.yaml" in done.stderr and "Traceback" not in done.stderr
