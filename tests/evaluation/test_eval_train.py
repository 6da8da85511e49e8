"""In-training evaluation vs `mars2 eval` of the same checkpoint (tiny-random, smoke config):
the same eval.json metrics and the same trees; per-agent evaluation; the base evaluation cache."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mars2 import paths

ROOT = Path(__file__).resolve().parents[2]
SMOKE = str(ROOT / "configs" / "smoke.yaml")
SETTINGS = [
    "eval.limit=2",
    "eval.each_agent=true",
    "search.parallel_expansions=1",
    "output.tensorboard=false",
]


def mars2(cache: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, paths.CACHE_ENV: str(cache)}  # evaluations cached for this test only
    cmd = [sys.executable, "-m", "mars2", *argv]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=900, env=env)


def nodes(file: Path) -> list[tuple[str, int, str, float]]:
    rows = [json.loads(line) for line in file.read_text().splitlines()]
    return [(r["tree_id"], r["node_id"], r["code"], r["score"]) for r in rows]


@pytest.mark.slow
def test_training_eval_equals_mars2_eval_and_agents_alone(tmp_path: Path, own_cache: Path) -> None:
    run = tmp_path / "run"
    done = mars2(own_cache, "train", "--config", SMOKE, "--out", str(run), "train.steps=1",
                 "eval.cache=false", *SETTINGS)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    rows = [json.loads(line) for line in (run / "metrics.jsonl").read_text().splitlines()]
    last = rows[-1]
    for key in ("pass@1", "pass@1_mcts", "pass@n"):
        assert last[f"eval/{key}_lo"] <= last[f"eval/{key}"] <= last[f"eval/{key}_hi"]
        assert f"eval/coder/{key}" in last and f"eval/debugger/{key}_hi" in last
    in_training = json.loads((run / "evals" / "step_000001" / "eval.json").read_text())
    assert (run / "evals" / "step_000000" / "eval-coder.json").is_file()

    out = tmp_path / "eval"
    done = mars2(own_cache, "eval", str(run), "--out", str(out), "eval.cache=false")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "95% CI" in done.stdout
    again = json.loads((out / "eval.json").read_text())
    for key in ("protocol", "seed", "problems_checksum", "team", "metrics", "per_problem"):
        assert again[key] == in_training[key], key
    assert nodes(out / "trees" / "search.jsonl") == nodes(
        run / "evals" / "step_000001" / "trees.jsonl"
    )
    alone = json.loads((out / "eval-coder.json").read_text())
    assert (
        alone["metrics"]
        == json.loads((run / "evals" / "step_000001" / "eval-coder.json").read_text())["metrics"]
    )

    # One agent alone, on request.
    coder = tmp_path / "coder"
    done = mars2(own_cache, "eval", str(run), "--agents", "coder", "--out", str(coder))
    assert done.returncode == 0, done.stderr[-3000:]
    record = json.loads((coder / "eval.json").read_text())
    assert [m["name"] for m in record["team"]] == ["coder"]
    assert not (coder / "eval-coder.json").exists()
    bad = mars2(own_cache, "eval", str(run), "--agents", "nobody")
    assert bad.returncode == 2 and "coder, debugger" in bad.stderr

    # The base evaluation is computed once, then read from the cache (the run's config.yaml
    # says eval.cache: false, from the training command above).
    first = mars2(
        own_cache,
        "eval",
        str(run),
        "--base",
        "--out",
        str(tmp_path / "b1"),
        "eval.each_agent=false",
        "eval.cache=true",
    )
    second = mars2(
        own_cache,
        "eval",
        str(run),
        "--base",
        "--out",
        str(tmp_path / "b2"),
        "eval.each_agent=false",
        "eval.cache=true",
    )
    assert first.returncode == 0 and second.returncode == 0, second.stderr[-3000:]
    assert json.loads((tmp_path / "b1" / "metrics.json").read_text())["cached"] is False
    assert json.loads((tmp_path / "b2" / "metrics.json").read_text())["cached"] is True
    b1, b2 = (json.loads((tmp_path / b / "eval.json").read_text()) for b in ("b1", "b2"))
    assert b1["metrics"] == b2["metrics"] and b1["per_problem"] == b2["per_problem"]
    compared = mars2(own_cache, "compare", str(tmp_path / "b1"), str(run), "--json")
    assert compared.returncode == 0, compared.stderr[-3000:]
    assert set(json.loads(compared.stdout)["metrics"]) >= {"pass@1", "pass@1_mcts", "pass@n"}
