"""`mars2 sft` end to end on tiny-random: pairs from hand-made trees of training problems, the
supervised steps, and a resume that reaches the uninterrupted run's weights."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from mars2 import jsonl
from mars2.api import sft
from mars2.config import load_config
from mars2.errors import UserError
from mars2.problems import load_problems
from mars2.training import checkpoint
from mars2.training.warmup import PAIRS_FILE
from mars2.types import NodeRecord

ROOT = Path(__file__).resolve().parents[2]
SMOKE = str(ROOT / "configs" / "smoke.yaml")
ARGS = [
    "output.tensorboard=false",
    "eval.before=false",
    "eval.limit=1",
    "eval.samples=1",
    "eval.budget=1",
    "train.sft_pairs_per_step=3",
    "train.checkpoint_every=1",
]


def trees(path: Path, problem_ids: list[str]) -> Path:
    """One tree per problem: a failed fresh attempt, its failed refinement and a passing one."""
    config = load_config(SMOKE, [])
    solutions = {
        p.id: p.solution or ""
        for p in load_problems(config.data.train, split=config.data.train_split, warn=False)
    }
    rows = []
    for pid in problem_ids:
        nodes = [
            (0, None, "def f():\n    return None\n", False, "f(): expected 1, got None"),
            (1, 0, "def f():\n    return 2\n", False, "f(): expected 1, got 2"),
            (2, 0, solutions[pid], True, ""),
        ]
        for node_id, parent, code, passed, feedback in nodes:
            record = NodeRecord(
                tree_id=f"s1r0/{pid}",
                problem_id=pid,
                node_id=node_id,
                parent_id=parent,
                depth=1 if parent is None else 2,
                agent_id=0,
                score=float(passed),
                reward=float(passed),
                passed=passed,
                code=code,
                feedback=feedback,
            )
            rows.append(record.to_json())
    jsonl.write(path, rows)
    return path


def train_ids(k: int) -> list[str]:
    config = load_config(SMOKE, [])
    found = load_problems(config.data.train, split=config.data.train_split, limit=k, warn=False)
    return [p.id for p in found]


def weights(run: Path, step: int) -> dict[str, torch.Tensor]:
    folder = checkpoint.weights_folder(run / "checkpoints" / f"step_{step:06d}", "coder")
    return checkpoint.read_weights(folder)[0]


@pytest.mark.slow
def test_warm_up_runs_and_resumes_to_the_same_weights(tmp_path: Path) -> None:
    source = trees(tmp_path / "base" / "trees" / "search.jsonl", train_ids(2))
    whole = tmp_path / "whole"
    last = sft([tmp_path / "base"], SMOKE, out=whole, overrides=[*ARGS, "train.steps=2"])
    # 2 problems x 2 failed nodes x 2 agents (coder, debugger: two role prompts)
    pairs = [json.loads(line) for line in (whole / PAIRS_FILE).read_text().splitlines()]
    assert len(pairs) == 8 and {p["agent"] for p in pairs} == {"coder", "debugger"}
    rows = [json.loads(line) for line in (whole / "metrics.jsonl").read_text().splitlines()]
    assert [r["step"] for r in rows] == [1, 2]
    assert rows[0]["sft/pairs"] == 3 and rows[0]["sft_nll/coder"] > 0
    assert "eval/pass@1" in last

    cut = tmp_path / "cut"
    sft([source], SMOKE, out=cut, overrides=[*ARGS, "train.steps=1"])
    sft(resume=cut, overrides=["train.steps=2"])
    rows = [json.loads(line) for line in (cut / "metrics.jsonl").read_text().splitlines()]
    assert [r["step"] for r in rows] == [1, 2]
    a, b = weights(whole, 2), weights(cut, 2)
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)
    assert not all(torch.equal(a[k], weights(whole, 1)[k]) for k in a)  # the step moved them


def test_trees_of_evaluation_problems_are_refused(tmp_path: Path) -> None:
    config = load_config(SMOKE, [])
    held_out = load_problems(config.eval.problems, limit=1, warn=False)[0].id
    source = trees(tmp_path / "trees.jsonl", train_ids(1))
    text = source.read_text().replace(train_ids(1)[0], held_out)
    source.write_text(text)
    with pytest.raises(UserError, match="evaluation problem"):
        sft([source], SMOKE, out=tmp_path / "run", overrides=ARGS)
    assert not (tmp_path / "run").exists()  # refused before the run directory or any model
