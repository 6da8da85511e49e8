"""Synthetic run directories in the formats of docs/training.md ("Run directory") (search and training runs).

A uniquely named module (not conftest.py) so that tests can import it whatever other test
folders' conftest.py files are loaded.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from mars2.config import dump_yaml, load_config
from mars2.evaluation import record
from mars2.evaluation.outcomes import ProblemOutcome
from mars2.evaluation.protocol import protocol
from mars2.rundir import RunDir

AGENTS = ("qwen-coder", "llama-coder")
PROBLEMS = ("sum-evens", "two-sum", "fizzbuzz")
# Code with characters that must be escaped in HTML and must not close a <script> element.
TRICKY_CODE = 'def f(xs):\n    # a < b && "</script><b>bold</b>"\n    return sum(x for x in xs if x % 2 == 0)\n'


def make_tree(
    rng: random.Random, tree_id: str, problem_id: str, budget: int
) -> list[dict[str, Any]]:
    """One tree of `budget` nodes: fresh attempts under the root and refinements of earlier nodes."""
    nodes: list[dict[str, Any]] = []
    for node_id in range(budget):
        parent = None if not nodes or rng.random() < 0.35 else rng.choice(nodes)
        base = parent["score"] if parent else 0.0
        score = min(1.0, round(base + rng.choice((0.0, 0.25, 0.5)), 2))
        passed = score == 1.0 and rng.random() < 0.8
        agent = rng.randrange(len(AGENTS))
        code = (
            TRICKY_CODE
            if node_id == 0
            else f"def {problem_id.replace('-', '_')}(xs):\n    return {node_id}\n"
        )
        feedback = (
            "" if passed else f"test 1 failed: input [[1, 2, 3, 4]]\nexpected 6\ngot {node_id}"
        )
        nodes.append(
            {
                "tree_id": tree_id,
                "problem_id": problem_id,
                "node_id": node_id,
                "parent_id": parent["node_id"] if parent else None,
                "depth": parent["depth"] + 1 if parent else 1,
                "agent_id": agent,
                "score": score,
                "reward": score,
                "passed": passed,
                "response_len": rng.randrange(40, 300),
                "code": code,
                "feedback": feedback,
            }
        )
    return nodes


def write_jsonl(file: Path, records: list[dict[str, Any]]) -> None:
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text("".join(json.dumps(r) + "\n" for r in records))


def write_config(run: Path, *overrides: str) -> None:
    names = [f"agents=[{', '.join('{name: ' + a + '}' for a in AGENTS)}]"]
    run.mkdir(parents=True, exist_ok=True)
    (run / "config.yaml").write_text(dump_yaml(load_config(None, [*names, *overrides])))


def make_search_run(run: Path, seed: int = 0, budget: int = 10) -> Path:
    """A `mars2 search` run: config.yaml, metrics.json, trees/search.jsonl."""
    rng = random.Random(seed)
    write_config(run, f"search.budget={budget}", f"seed={seed}")
    records = []
    for i, problem in enumerate(PROBLEMS):
        records += make_tree(rng, f"t{i}", problem, budget)
    write_jsonl(run / "trees" / "search.jsonl", records)
    summary = {
        "pass@1": 0.33,
        "pass@1_mcts": 0.5 + seed / 10,
        "pass@n": 0.67,
        "n_problems": len(PROBLEMS),
        "budget": budget,
        "algo": "abmcts",
        "agents": {
            a: {"share": 0.5, "mean_score": 0.4, "wins": 1 + i} for i, a in enumerate(AGENTS)
        },
        "wall_s": 12.5,
    }
    (run / "metrics.json").write_text(json.dumps(summary, indent=2))
    return run


def make_train_run(run: Path, seed: int = 0, steps: int = 6, mode: str = "mcts") -> Path:
    """A `mars2 train` run: config.yaml, metrics.jsonl, trees/step_XXXX.jsonl, metrics.json."""
    rng = random.Random(seed)
    write_config(run, f"train.mode={mode}", f"train.steps={steps}", "eval.every=2")
    rows = []
    for step in range(1, steps + 1):
        row: dict[str, Any] = {"step": step, "time_s": 10.0 * step}
        for a in range(len(AGENTS)):
            row |= {
                f"train/reward/agent{a}": 0.2 + 0.05 * step + rng.random() * 0.05,
                f"loss/agent{a}": 0.5 / step + rng.random() * 0.01,
                f"kl/agent{a}": 0.001 * step,
                f"clip_frac/agent{a}": 0.1 * rng.random(),
                f"tis_mean/agent{a}": 1.0 - 0.01 * rng.random(),
                f"tokens/agent{a}": 1000 + 10 * step,
            }
        row["train/reward/mean"] = sum(row[f"train/reward/agent{a}"] for a in range(2)) / 2
        row["train/pass_rate"] = 0.1 + 0.04 * step
        row |= {"time/rollout": 6.0, "time/busy/execute": 2.0, "time/learn": 1.5, "time/sync": 0.5}
        row["note"] = "non-numeric values are ignored"
        if step % 2 == 0:
            row |= {
                "eval/pass@1": 0.2 + 0.03 * step + seed / 20,
                "eval/pass@1_mcts": 0.3 + 0.03 * step,
                "eval/pass@n": 0.5 + 0.02 * step,
            }
            row |= {f"{k}_lo": v - 0.1 for k, v in list(row.items()) if k.startswith("eval/")}
            row |= {f"{k[:-3]}_hi": v + 0.2 for k, v in list(row.items()) if k.endswith("_lo")}
        rows.append(row)
        if step in (1, steps):
            write_jsonl(
                RunDir(run).trees(step),
                [n for i, p in enumerate(PROBLEMS) for n in make_tree(rng, f"s{step}-{i}", p, 8)],
            )
    write_jsonl(run / "metrics.jsonl", rows)
    for step in (0, steps):
        write_eval(RunDir(run).step_eval(step), rng, 0.2 + 0.05 * step)
    return run


def write_eval(file: Path, rng: random.Random, solve_rate: float, *overrides: str) -> Path:
    """An eval.json of 20 problems x 2 trees, each tree solving with probability `solve_rate`."""
    config = load_config(None, ["eval.samples=2", *overrides])
    outcomes = []
    for i in range(20):
        passed = sum(rng.random() < solve_rate for _ in range(2))
        outcomes.append(ProblemOutcome(f"p{i}", 2, 2, passed, passed, passed, 8, 1, 2 - passed, 1))
    rec = record.build(
        label=file.parent.name,
        proto=protocol(config),
        seed=1,
        problems_checksum="sha256:fake",
        members=[{"name": a, "model": "m", "checksum": "sha256:x"} for a in AGENTS],
        outcomes=outcomes,
        resamples=200,
    )
    return record.write(file, rec)
