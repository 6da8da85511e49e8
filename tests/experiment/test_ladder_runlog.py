"""scripts/ladder_runlog.py, the powered ladder's run log, on hand-built run folders: starts with
their commits, training and evaluation minutes summed from the files, the learner's precision,
the arm order of results.json, and `—` where a run did not record a field."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from script_modules import script_module


@pytest.fixture(scope="module")
def runlog() -> Iterator[ModuleType]:
    yield from script_module("ladder_runlog")


def write(path: Path, lines: list[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


START = {"cpu": "AMD EPYC", "amx": False}


@pytest.fixture
def ladder(tmp_path: Path) -> Path:
    """`zeta` (listed first by results.json): trained, resumed once, with a final evaluation
    recorded twice; `base`: eval-only, its team evaluation timed, nothing else recorded."""
    run = tmp_path / "zeta" / "seed1"
    write(
        run / "environment.jsonl",
        [
            {"step": 1, "time": "2026-12-04T13:22:04+00:00", "source": "abcdef0123" * 4, **START},
            {"step": 3, "time": "2026-12-04T14:00:00+00:00", "source": "0123456" + "+dirty"},
        ],
    )
    steps = [{"step": k, "time/step": 60.0 * k, "bf16/coder": 1.0} for k in (1, 2, 3)]
    write(run / "metrics.jsonl", [*steps, {"step": 3, "time/eval": 90.0}])
    (run / "evals" / "step_000003").mkdir(parents=True)
    (run / "evals" / "step_000003" / "eval.json").write_text("{}")
    alone = run / "evals" / "alone" / "coder"
    alone.mkdir(parents=True)
    (alone / "eval.json").write_text("{}")
    write(alone / "environment.jsonl", [{"seconds": 30.0}, {"seconds": 90.0}])
    base = tmp_path / "base" / "seed0" / "evals" / "step_000000"
    base.mkdir(parents=True)
    (base / "eval.json").write_text("{}")
    write(base / "environment.jsonl", [{"seconds": 600.0}])
    mcts = tmp_path / "base" / "seed0" / "evals" / "mcts-4"
    mcts.mkdir(parents=True)
    (mcts / "eval.json").write_text("{}")
    (tmp_path / "results.json").write_text(json.dumps({"arms": [{"name": "zeta"}]}))
    return tmp_path


def test_each_run_is_re_derived_from_its_files(runlog: ModuleType, ladder: Path) -> None:
    zeta = runlog.run_facts(ladder / "zeta" / "seed1")
    assert zeta["starts"] == [
        "2026-12-04 13:22 (step 1) AMD EPYC, no AMX, abcdef0",
        "2026-12-04 14:00 (step 3) ?, no AMX, 0123456+dirty",
    ]
    assert (zeta["arm"], zeta["seed"], zeta["steps"], zeta["learner"]) == ("zeta", 1, 3, "bf16")
    assert zeta["training_s"] == 360.0 and zeta["team_eval_s"] == 90.0
    assert zeta["final_evals_s"] == {"alone/coder": 120.0}  # step folders are the run's own
    base = runlog.run_facts(ladder / "base" / "seed0")
    assert base["starts"] == [] and base["learner"] is None and base["training_s"] is None
    assert base["team_eval_s"] == 600.0 and base["final_evals_s"] == {"mcts-4": None}


def test_the_table_follows_results_json_and_dashes_what_is_missing(
    runlog: ModuleType, ladder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert runlog.main([str(ladder)]) == 0
    rows = capsys.readouterr().out.splitlines()[2:]
    assert rows[0].startswith("| zeta | 1 |") and "| 6.0 | 1.5 | alone/coder 2.0 |" in rows[0]
    assert rows[1] == "| base | 0 | — | — | 0 | — | 10.0 | mcts-4 — |"
    assert runlog.main([str(ladder / "zeta")]) == 2  # no ARM/seedK folders below it
