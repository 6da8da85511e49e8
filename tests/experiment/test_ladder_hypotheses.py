"""scripts/ladder_hypotheses.py, the pre-registered analysis of the powered ladder, on
hand-built results.json objects: which rows each hypothesis compares, H4's margin, Holm over the
five tests, the verdicts, and the conditional fallback for one run per arm."""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from script_modules import script_module

PROBLEMS = [f"p{i}" for i in range(40)]


@pytest.fixture(scope="module")
def analysis() -> Iterator[ModuleType]:
    yield from script_module("ladder_hypotheses")


def block(level: float, runs: int, metric: str, seed: int) -> dict[str, Any]:
    """[runs, problems] values around `level`: per-problem spread, small run shifts."""
    rng = np.random.default_rng(seed)
    base = np.linspace(0.1, 0.6, len(PROBLEMS)) + level
    values = base[None, :] + 0.003 * rng.standard_normal((runs, 1))
    values = values + 0.01 * rng.standard_normal(values.shape)
    return {"seeds": list(range(runs)), "problems": PROBLEMS, metric: values.tolist()}


def results(levels: dict[str, float], runs: int = 3) -> dict[str, Any]:
    """Team rows (pass@1_mcts) and `alone` rows (pass@1) at the given offsets."""
    team = [
        {"name": arm, "per_problem": block(levels[arm], runs, "pass@1_mcts", i)}
        for i, arm in enumerate(["base", "grpo", "rs2", "mars2"])
    ]
    alone = [
        {
            "arm": arm,
            "agent": agent,
            "per_problem": block(levels[f"{arm}/{agent}"], runs, "pass@1", 10 + i),
        }
        for i, (arm, agent) in enumerate(
            [("base", "coder"), ("grpo", "coder"), ("mars2", "coder"), ("mars2", "debugger")]
        )
    ]
    return {"arms": team, "final_evals": [{"name": "alone", "rows": alone}]}


CLEAR = {
    "base": 0.0,
    "grpo": 0.0,
    "rs2": 0.1,
    "mars2": 0.2,
    "base/coder": 0.0,
    "grpo/coder": 0.1,
    "mars2/coder": 0.1,
    "mars2/debugger": 0.12,
}


def test_clear_effects_are_supported(analysis: ModuleType) -> None:
    found = {r.name: r for r in analysis.analyse(results(CLEAR))}
    assert [r for r in found] == ["H1", "H2", "H3", "H4-coder", "H4-debugger"]
    assert found["H1"].diff == pytest.approx(0.1, abs=0.02)  # grpo - base, alone
    assert found["H2"].diff == pytest.approx(0.1, abs=0.02)  # rs2 - grpo, team
    assert found["H3"].diff == pytest.approx(0.1, abs=0.02)  # mars2 - rs2, team
    assert found["H4-debugger"].diff == pytest.approx(0.02, abs=0.02)
    assert all(r.seed_level and r.runs == (3, 3) for r in found.values())
    assert {r.verdict for r in found.values()} == {"supported"}
    assert all(r.p_holm >= r.p for r in found.values())


def test_h4_fails_below_the_margin_and_a_reversal_is_refuted(analysis: ModuleType) -> None:
    levels = {**CLEAR, "mars2/coder": 0.0, "mars2": 0.0}  # coder 0.1 below grpo; mars2 < rs2
    found = {r.name: r for r in analysis.analyse(results(levels))}
    assert found["H4-coder"].hi < -0.03 and found["H4-coder"].verdict == "refuted"
    assert found["H3"].verdict == "refuted"
    assert found["H4-debugger"].verdict == "supported"


def test_one_run_per_arm_is_conditional(analysis: ModuleType) -> None:
    found = analysis.analyse(results(CLEAR, runs=1))
    assert not any(r.seed_level for r in found)
    assert found[0].lo < found[0].diff < found[0].hi


def test_a_missing_row_is_named(analysis: ModuleType) -> None:
    data = results(CLEAR)
    data["arms"] = [row for row in data["arms"] if row["name"] != "rs2"]
    with pytest.raises(SystemExit, match="no row rs2 in the team results"):
        analysis.analyse(data)


def test_dropping_seeds_leaves_their_runs_out(analysis: ModuleType) -> None:
    data = results(CLEAR)
    kept = analysis.without_seeds(data, {1})
    block, before = kept["arms"][0]["per_problem"], data["arms"][0]["per_problem"]
    assert block["seeds"] == [0, 2] and block["problems"] == PROBLEMS
    assert block["pass@1_mcts"] == [before["pass@1_mcts"][0], before["pass@1_mcts"][2]]
    assert data["arms"][0]["per_problem"]["seeds"] == [0, 1, 2]  # the input is not changed
    assert all(r.runs == (2, 2) for r in analysis.analyse(kept))
    alone = analysis.without_seeds(data, {0, 1})["final_evals"][0]["rows"][0]["per_problem"]
    assert alone["seeds"] == [2] and len(alone["pass@1"]) == 1
    assert not any(r.seed_level for r in analysis.analyse(analysis.without_seeds(data, {0, 1})))
