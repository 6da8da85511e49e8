"""bench/gpu_smoke.sh on CPU: its arguments, and its verdict on two runs' metrics (it must fail
when the local and the Ray run differ). The GPU parts themselves need a GPU machine."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "gpu_smoke.sh"
ROWS = [
    {"step": 0, "eval/pass@1": 0.0, "time/eval": 3.0},
    {"step": 1, "loss/coder": 0.125, "train/reward/mean": -0.5, "time/step": 9.0},
]


def smoke(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True, timeout=60)


def run_dir(path: Path, rows: list[dict[str, Any]]) -> str:
    path.mkdir()
    (path / "metrics.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return str(path)


def test_help_describes_usage_and_exit_status() -> None:
    done = smoke("--help")
    assert done.returncode == 0
    assert "Usage: bash bench/gpu_smoke.sh" in done.stdout and "--compare" in done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bogus"], "unknown argument '--bogus'"),
        (["--out"], "--out needs a folder"),
        (["--rtol", "lots"], "--rtol needs a non-negative number"),
        (["--atol"], "--atol needs a non-negative number"),
        (["--compare", "only-one"], "--compare needs LOCAL_RUN RAY_RUN"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(args: list[str], message: str) -> None:
    done = smoke(*args)
    assert done.returncode == 2
    assert message in done.stderr


def test_equal_metrics_pass_and_times_are_ignored(tmp_path: Path) -> None:
    slower = [{**r, **{k: v * 2 for k, v in r.items() if k.startswith("time/")}} for r in ROWS]
    done = smoke("--compare", run_dir(tmp_path / "a", ROWS), run_dir(tmp_path / "b", slower))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "PASS local and ray metrics agree" in done.stdout


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"loss/coder": 0.25}, "step 1 loss/coder: local 0.125 ray 0.25"),
        ({"extra/key": 1.0}, "step 1 extra/key: only in ray"),
    ],
)
def test_different_metrics_fail(tmp_path: Path, change: dict[str, float], message: str) -> None:
    other = [ROWS[0], {**ROWS[1], **change}]
    done = smoke("--compare", run_dir(tmp_path / "a", ROWS), run_dir(tmp_path / "b", other))
    assert done.returncode == 1
    assert "FAIL local and ray metrics differ" in done.stdout and message in done.stdout


def test_tolerances_decide_what_differs(tmp_path: Path) -> None:
    other = [ROWS[0], {**ROWS[1], "loss/coder": 0.126}]
    a, b = run_dir(tmp_path / "a", ROWS), run_dir(tmp_path / "b", other)
    assert smoke("--compare", a, b).returncode == 0  # within the default rtol 0.02
    assert smoke("--compare", a, b, "--rtol", "0", "--atol", "0").returncode == 1


def test_a_run_that_stopped_early_fails(tmp_path: Path) -> None:
    done = smoke("--compare", run_dir(tmp_path / "a", ROWS), run_dir(tmp_path / "b", ROWS[:1]))
    assert done.returncode == 1 and "steps: local [0, 1] ray [0]" in done.stdout
    missing = smoke("--compare", str(tmp_path / "a"), str(tmp_path / "nowhere"))
    assert missing.returncode == 1 and "metrics.jsonl does not exist" in missing.stderr
