"""scripts/ladder_scaling.py, the powered ladder's scaling curve, on a hand-built results.json:
which evaluation gives each point, the 8-node point restricted to the scaling subset, seed 0
only, missing points left out, and the plot and CLI."""

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


@pytest.fixture(scope="module")
def scaling() -> Iterator[ModuleType]:
    yield from script_module("ladder_scaling")


def block(seeds: list[int], problems: list[str], rows: list[list[float]]) -> dict[str, Any]:
    return {"seeds": seeds, "problems": problems, "pass@1_mcts": rows}


def results() -> dict[str, Any]:
    """Arm `a`: every point (team on 4 problems, the scaling subset is the first 2); `b`: no
    16-node point; `c`: only a seed-1 run (nothing of seed 0)."""
    four = ["p0", "p1", "p2", "p3"]
    return {
        "arms": [
            {"name": "a", "per_problem": block([0], four, [[1.0, 0.5, 0.0, 0.0]])},
            {"name": "b", "per_problem": block([0, 1], four, [[0.0, 0.5, 1, 1], [1, 1, 1, 1]])},
            {"name": "c", "per_problem": block([1], four, [[1.0, 1.0, 1.0, 1.0]])},
        ],
        "final_evals": [
            {
                "name": "mcts-4",
                "rows": [
                    {"arm": "a", "agent": None, "per_problem": block([0], four[:2], [[0, 1]])},
                    {"arm": "b", "agent": None, "per_problem": block([0], four[:2], [[0, 0]])},
                    {"arm": "a", "agent": "coder", "per_problem": block([0], four, [[1] * 4])},
                ],
            },
            {
                "name": "mcts-16",
                "rows": [
                    {"arm": "a", "agent": None, "per_problem": block([0], four[:2], [[1, 1]])},
                ],
            },
        ],
    }


def test_points_and_subset(scaling: ModuleType) -> None:
    points = {(p["arm"], p["nodes"]): p for p in scaling.curve(results())}
    assert sorted(points) == [("a", 4), ("a", 8), ("a", 16), ("b", 4), ("b", 8)]
    assert points["a", 4]["value"] == pytest.approx(0.5)  # the team row, not the coder's
    assert points["a", 8]["value"] == pytest.approx(0.75)  # (1.0 + 0.5) / 2: p0, p1 only
    assert points["a", 16]["value"] == pytest.approx(1.0)
    assert points["b", 8]["value"] == pytest.approx(0.25)  # seed 0's (0.0 + 0.5) / 2
    assert {p["problems"] for p in points.values()} == {2}
    assert points["a", 8]["lo"] <= 0.75 <= points["a", 8]["hi"]


def test_plot_and_cli(tmp_path: Path) -> None:
    file = tmp_path / "results.json"
    file.write_text(json.dumps(results()))
    png = tmp_path / "plots" / "scaling.png"
    script = str(SCRIPTS / "ladder_scaling.py")
    done = subprocess.run(
        [sys.executable, script, str(file), "--plot", str(png), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert len(json.loads(done.stdout)) == 5
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    empty = tmp_path / "empty.json"
    empty.write_text(json.dumps({"arms": [results()["arms"][2]]}))
    failed = subprocess.run([sys.executable, script, str(empty)], capture_output=True, text=True)
    assert failed.returncode != 0 and "no arm has a scaling point" in failed.stderr
