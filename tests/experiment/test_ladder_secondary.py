"""scripts/ladder_secondary.py, the powered ladder's descriptive results, on a hand-built
results.json: which comparisons it makes (and leaves out when a row is missing), their values,
the per-seed tables, the runs' precisions and the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from script_modules import SCRIPTS, script_module

PROBLEMS = ["p0", "p1", "p2", "p3"]


@pytest.fixture(scope="module")
def secondary() -> Iterator[ModuleType]:
    yield from script_module("ladder_secondary")


def row(values: list[list[float]], metric: str, seeds: list[int]) -> dict[str, Any]:
    """A results.json row: [runs, problems] values of one metric and their per-seed means."""
    return {
        "seeds": seeds,
        "per_problem": {"seeds": seeds, "problems": PROBLEMS, metric: values},
        "per_seed": {metric: [sum(v) / len(v) for v in values]},
    }


def results() -> dict[str, Any]:
    """Two seeds of base, rs2 and mars2-hetero (team), one of the rest; `alone` rows for base and
    mars2-hetero's agents; HumanEval for base and grpo only (seed 0)."""

    def team(name: str, values: list[list[float]], precision: list[str | None]) -> dict[str, Any]:
        seeds = list(range(len(values)))
        runs = [{"seed": s, "precision": p} for s, p in zip(seeds, precision, strict=True)]
        head = {"name": name, "eval_only": name == "base", "runs": runs}
        return head | row(values, "pass@1_mcts", seeds)

    def alone(arm: str, agent: str, values: list[list[float]]) -> dict[str, Any]:
        return {"arm": arm, "agent": agent} | row(values, "pass@1", list(range(len(values))))

    return {
        "arms": [
            team("base", [[0, 0, 1, 1], [0, 0, 1, 1]], [None, None]),
            team("grpo", [[0, 1, 1, 1]], [None]),
            team("rs2", [[0, 1, 1, 1], [1, 1, 1, 1]], ["bf16", "fp32"]),
            team("mars2", [[1, 1, 1, 1]], ["bf16"]),
            team("mars2-hetero", [[1, 1, 1, 1], [1, 1, 1, 1]], ["bf16", "bf16"]),
        ],
        "final_evals": [
            {
                "name": "alone",
                "rows": [
                    alone("base", "coder", [[0.5, 0, 0, 0], [0.5, 0, 0, 0]]),
                    alone("mars2-hetero", "coder", [[1, 0, 0, 0], [1, 0, 0, 0.5]]),
                    alone("mars2-hetero", "debugger", [[0, 0, 0, 0], [0, 0, 0, 0]]),
                ],
            },
            {
                "name": "humaneval",
                "rows": [
                    {"arm": "base", "agent": None} | row([[0, 0, 0, 0]], "pass@1_mcts", [0]),
                    {"arm": "grpo", "agent": None} | row([[0, 0, 1, 0]], "pass@1_mcts", [0]),
                ],
            },
        ],
    }


def test_comparisons_present_and_values(secondary: ModuleType) -> None:
    found = secondary.analyse(results())
    by = {(d["name"], d["claim"]): d for d in found["differences"]}
    assert sorted(by) == sorted(
        [
            ("S1", "hetero > RS2"),
            ("S2", "hetero > MARS2"),
            ("bundled", "grpo team > base"),
            ("bundled", "rs2 team > base"),
            ("bundled", "mars2 team > base"),
            ("bundled", "mars2-hetero team > base"),
            ("bundled", "mars2-hetero/coder alone > base"),
            ("bundled", "mars2-hetero/debugger alone > base"),
            ("HumanEval", "grpo team > base"),
        ]
    )
    s1 = by["S1", "hetero > RS2"]  # 2 runs each: seed-level; rs2 averages 0.875
    assert s1["seed_level"] and s1["runs"] == (2, 2)
    assert s1["diff"] == pytest.approx(1.0 - 0.875)
    s2 = by["S2", "hetero > MARS2"]  # mars2 has one run: conditional on it
    assert not s2["seed_level"] and s2["diff"] == pytest.approx(0.0)
    coder = by["bundled", "mars2-hetero/coder alone > base"]
    assert coder["diff"] == pytest.approx((1 + 0 + 0 + 0.25) / 4 - 0.5 / 4)
    debugger = by["bundled", "mars2-hetero/debugger alone > base"]
    assert debugger["diff"] == pytest.approx(-0.125) and debugger["lo"] < -0.125 < debugger["hi"]
    he = by["HumanEval", "grpo team > base"]
    assert he["diff"] == pytest.approx(0.25) and not he["seed_level"]


def test_per_seed_and_precision(secondary: ModuleType) -> None:
    found = secondary.analyse(results())
    tables = {(t["evaluation"], t["metric"]): t["rows"] for t in found["per_seed"]}
    assert sorted(tables) == [
        ("alone", "pass@1"),
        ("humaneval", "pass@1_mcts"),
        ("team", "pass@1_mcts"),
    ]
    team = {r["row"]: r["values"] for r in tables["team", "pass@1_mcts"]}
    assert team["rs2"] == {0: 0.75, 1: 1.0} and team["grpo"] == {0: 0.75}
    alone = {r["row"]: r["values"] for r in tables["alone", "pass@1"]}
    assert alone["mars2-hetero/coder"] == {0: 0.25, 1: 0.375}
    assert found["precision"]["base"] == {0: "—", 1: "—"}
    assert found["precision"]["grpo"] == {0: "unrecorded"}
    assert found["precision"]["rs2"] == {0: "bf16", 1: "fp32"}


def test_cli(tmp_path: Path) -> None:
    file = tmp_path / "results.json"
    file.write_text(json.dumps(results()))
    script = str(SCRIPTS / "ladder_secondary.py")
    done = subprocess.run(
        [sys.executable, script, str(file)], capture_output=True, text=True, check=True
    )
    assert "| S1 | hetero > RS2 | pass@1_mcts | +0.125 [" in done.stdout
    assert "| rs2 | 0.750 | 1.000 |" in done.stdout
    assert "| grpo | unrecorded |  |" in done.stdout
    assert "† one run in an arm" in done.stdout
    as_json = subprocess.run(
        [sys.executable, script, str(file), "--json"], capture_output=True, text=True, check=True
    )
    assert len(json.loads(as_json.stdout)["differences"]) == 9
