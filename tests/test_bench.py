"""Every benchmark in bench/ runs: its `--smoke --json` mode (tiny-random or the smallest sizes,
seconds) exits cleanly and prints one JSON object, so a bench that breaks fails CI instead of
the next person who runs it. gpu_check.py needs GPU runs and vllm_smoke.py needs vllm: only
their argument parsing is checked here (tests/cluster/test_gpu_smoke_script.py covers more of
gpu_check.py and gpu_smoke.sh). A new bench must support `--smoke` (or be listed below)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCHES = sorted(p.name for p in (ROOT / "bench").glob("*.py"))
HELP_ONLY = {"gpu_check.py", "vllm_smoke.py"}  # need a GPU / vllm to do anything
# several fresh processes, each loading torch + a model (grpo_step.py: also TRL, ~25 s)
SLOW = {"train_step.py", "memory.py", "grpo_step.py"}


def run(bench: str, *args: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]),
    }
    return subprocess.run(
        [sys.executable, str(ROOT / "bench" / bench), *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=600,
        check=False,
    )


def test_every_bench_is_listed() -> None:
    assert {"rollout.py", "generation.py", "gpu_check.py"} <= set(BENCHES)


@pytest.mark.parametrize(
    "bench",
    [
        pytest.param(b, marks=pytest.mark.slow) if b in SLOW else b
        for b in BENCHES
        if b not in HELP_ONLY
    ],
)
def test_bench_smoke_runs(bench: str, tmp_path: Path) -> None:
    done = run(bench, "--smoke", "--json", tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert isinstance(figures, dict) and figures


@pytest.mark.parametrize("bench", sorted(HELP_ONLY & set(BENCHES)))
def test_bench_arguments_parse(bench: str, tmp_path: Path) -> None:
    done = run(bench, "--help", tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "usage:" in done.stdout
