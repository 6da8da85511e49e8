"""`mars2 train` end to end on tiny-random: the smoke config writes the run directory that
docs/training.md describes (SIGKILL + --resume: test_kill_resume.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mars2.training.logger import run_figures

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
    return [run_figures(row) for row in rows]


@pytest.mark.slow
def test_smoke_run_writes_the_run_directory(tmp_path: Path) -> None:
    out = tmp_path / "run"
    done = train(out, "output.tensorboard=true")
    assert done.returncode == 0, done.stderr[-3000:]
    rows = metrics(out)
    assert [r["step"] for r in rows] == [0, 1, 2, 3]
    assert "eval/pass@1" in rows[0] and "eval/pass@1" in rows[-1]
    assert "loss/coder" in rows[1] and "loss/debugger" in rows[1]
    assert rows[1]["bf16/coder"] == rows[1]["bf16/debugger"] == 0.0  # smoke.yaml: fp32
    (start,) = [json.loads(line) for line in (out / "environment.jsonl").read_text().splitlines()]
    assert start["step"] == 1 and start["mars2"] and start["cores"] >= 1
    assert (out / "config.yaml").is_file()
    assert sorted(p.name for p in (out / "trees").glob("*.jsonl")) == [
        "step_000001.jsonl",
        "step_000002.jsonl",
        "step_000003.jsonl",
    ]
    record = json.loads((out / "trees" / "step_000001.jsonl").read_text().splitlines()[0])
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
    # the summary ends with the paired difference of the first and the last evaluation
    assert "A = step_000000, B = step_000003" in done.stdout
    assert "mars2 compare" in done.stdout and "B - A" in done.stdout


def test_resume_of_a_non_run_directory_is_a_user_error(tmp_path: Path) -> None:
    done = train(tmp_path, resume=True)
    assert done.returncode == 2
    assert "config.yaml" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.slow
def test_a_failing_paired_table_leaves_a_finished_run_at_exit_0(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from mars2.cli import main
    from mars2.evaluation import record

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("no pairing today")

    monkeypatch.setattr(record, "compare", broken)  # a fault in the report, after the run
    out = tmp_path / "run"
    argv = ["train", "--config", SMOKE, "--out", str(out), "train.steps=1", "eval.limit=1",
            "eval.budget=1", "train.problems_per_step=1", "search.budget=1",
            "train.max_rollout_rounds=1", "output.tensorboard=false"]  # fmt: skip
    assert main(argv) == 0
    assert (out / "checkpoints" / "latest").read_text() == "step_000001"
    assert "RuntimeError: no pairing today" in caplog.text
    assert f"mars2 compare {out / 'evals' / 'step_000000'} {out}" in caplog.text


@pytest.mark.slow
def test_without_a_step_0_evaluation_the_summary_report_and_compare_still_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from mars2.cli import main
    from mars2.report import write_report

    out = tmp_path / "run"
    argv = ["train", "--config", SMOKE, "--out", str(out), "train.steps=1", "eval.limit=1",
            "eval.budget=1", "train.problems_per_step=1", "search.budget=1", "eval.before=false",
            "train.max_rollout_rounds=1", "output.tensorboard=false"]  # fmt: skip
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert [r["step"] for r in metrics(out)] == [1]
    assert not (out / "evals" / "step_000000").exists()
    assert (out / "evals" / "step_000001" / "eval.json").is_file()
    row = next(line for line in printed.splitlines() if "eval/pass@1 " in line)
    assert row.count("[") == 1  # only the last value: there was no evaluation before it
    assert "B - A" not in printed  # one evaluation: nothing to pair
    assert main(["compare", str(out), str(out / "evals" / "step_000001")]) == 0
    page = write_report([out], tmp_path / "report").index.read_text()
    assert "step_000001" in page
    assert main(["train", "--resume", str(out)]) == 0  # finished: nothing to do, no evaluation
    assert not (out / "evals" / "step_000000").exists()
