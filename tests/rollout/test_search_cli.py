"""`mars2 search` end to end with tiny-random agents on bundled problems."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def test_search_writes_metrics_and_trees(tmp_path: Path) -> None:
    out = tmp_path / "run"
    cmd = [
        sys.executable, "-m", "mars2", "search",
        "--problems", "bundled:basic-test", "--agents", "tiny-random,tiny-random",
        "--algo", "abmcts", "--budget", "3", "--limit", "2", "--out", str(out),
        "agents.0.max_new_tokens=24", "agents.1.max_new_tokens=24", "sandbox.timeout_s=2",
        "eval.samples=1",  # one tree per problem
    ]  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    metrics = json.loads((out / "metrics.json").read_text())
    for key in ("pass@1", "pass@1_mcts", "pass@n"):
        assert 0.0 <= metrics[key] <= 1.0
    assert metrics["n_problems"] == 2 and metrics["nodes"] == 6
    assert set(metrics["agents"]) == {"coder", "debugger"}  # named by their roles
    records = [
        json.loads(line) for line in (out / "trees" / "search.jsonl").read_text().splitlines()
    ]
    assert len(records) == 6 and len({r["tree_id"] for r in records}) == 2
    assert "pass@1" in done.stdout
    (line,) = (out / "environment.jsonl").read_text().splitlines()
    assert json.loads(line)["seconds"] == round(metrics["wall_s"], 1)  # the search's, and machine


def test_search_unknown_problem_set_is_a_user_error(tmp_path: Path) -> None:
    cmd = [
        sys.executable,
        "-m",
        "mars2",
        "search",
        "--problems",
        "no-such-set",
        "--out",
        str(tmp_path),
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and "Traceback" not in done.stderr
