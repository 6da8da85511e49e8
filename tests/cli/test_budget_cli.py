"""`mars2 budget` end to end on tiny-random (2 problems, budgets 1 2, two algorithms): budget.json
with the protocol and per-problem outcomes, budget.png, `--json`, the evaluation cache on a
repeat, `--trees` on a tree file, and bad input that exits 2 with one clear message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mars2 import seeds
from mars2.cli import main
from mars2.evaluation import budget

ROOT = Path(__file__).resolve().parents[2]
ARGS = ["budget", "--config", str(ROOT / "configs" / "smoke.yaml"), "--problems", "bundled:basic",
        "--limit", "2", "--budgets", "2", "1", "--algos", "abmcts,best_first"]  # fmt: skip


def test_budget_end_to_end_and_read_back_from_the_cache(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main([*ARGS, "--out", str(tmp_path / "a")]) == 0
    record = json.loads((tmp_path / "a" / "budget.json").read_text())
    assert (tmp_path / "a" / "budget.png").stat().st_size > 0
    assert record["seed"] == seeds.budget(0) and not record["cached"]
    assert record["protocol"]["budgets"] == [1, 2]
    assert record["protocol"]["algos"] == ["abmcts", "best_first"]
    assert record["protocol"]["max_new_tokens"] == 32 and "engines" in record["protocol"]
    assert [m["name"] for m in record["team"]] == ["coder", "debugger"]
    assert all(m["checksum"].startswith("sha256:") for m in record["team"])
    problems = budget.problems_of(record)
    assert len(problems) == 2
    for problem in problems:
        assert set(problem.arms) == {budget.INDEPENDENT, "abmcts", "best_first"}
        independent = problem.arms[budget.INDEPENDENT]
        assert [independent[b].counts.fresh for b in (1, 2)] == [1, 2]  # a prefix of one draw
        assert all(problem.arms["abmcts"][b].counts.nodes == b for b in (1, 2))
    head = record["headline"]
    assert head["arms"]["abmcts"]["2"]["pick_vs_independent"]["n"] == 2
    out = capsys.readouterr().out
    assert "equal budgets: 2 problems" in out and "how the nodes were spent" in out

    assert main([*ARGS, "--out", str(tmp_path / "b"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == head
    assert json.loads((tmp_path / "b" / "budget.json").read_text())["cached"]


def test_trees_mode_reads_tree_files(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    nodes = [
        {"tree_id": "t", "problem_id": "p", "node_id": 0, "parent_id": None, "depth": 1,
         "agent_id": 0, "score": 0.5, "reward": 0.0, "passed": False, "code": "x = 1"},
        {"tree_id": "t", "problem_id": "p", "node_id": 1, "parent_id": 0, "depth": 2,
         "agent_id": 1, "score": 1.0, "reward": 1.0, "passed": True, "code": "x = 2"},
    ]  # fmt: skip
    file = tmp_path / "step_000001.jsonl"
    file.write_text("".join(json.dumps(n) + "\n" for n in nodes))
    assert main(["budget", "--trees", str(file), "--json"]) == 0
    head = json.loads(capsys.readouterr().out)
    entry = head["arms"]["trees"]["2"]
    assert entry["pick"]["value"] == 1.0
    assert entry["nodes"]["refine_pass_after_fail"]["value"] == 1.0
    assert entry["agents"]["agent1"]["refine_pass_after_fail"]["count"] == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--budgets", "0"], "a budget is a number of nodes >= 1, got 0"),
        (["--algos", "nosuch"], "unknown search algorithm 'nosuch'"),
        (["--step", "3"], "--step and --base choose a checkpoint of --run DIR"),
        (["--trees", "missing.jsonl"], "tree file not found: missing.jsonl"),
        (["--run", "no-such-run"], "no-such-run"),
    ],
)
def test_bad_input_exits_2_with_one_message(argv: list[str], message: str, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["budget", *argv]) == 2
    err = capsys.readouterr().err.replace("\n", "")
    assert message in err and "Traceback" not in err


def test_a_run_directory_base_agents_one_of_them(tmp_path: Path) -> None:
    from mars2.config import dump_yaml, load_config

    run = tmp_path / "run"
    run.mkdir()
    config = load_config(ROOT / "configs" / "smoke.yaml", ["output.tensorboard=false"])
    (run / "config.yaml").write_text(dump_yaml(config))
    argv = ["budget", "--run", str(run), "--base", "--agents", "debugger", "--problems",
            "bundled:basic", "--limit", "1", "--budgets", "1"]  # fmt: skip
    assert main(argv) == 0
    record = json.loads((run / "budget" / "budget.json").read_text())
    assert [m["name"] for m in record["team"]] == ["debugger"]
    assert record["agent_names"] == ["debugger"] and record["protocol"]["algos"] == ["abmcts"]


def test_the_tree_file_figures_in_docs_search_md_are_re_derived() -> None:
    from mars2.cli.budget import RATE_COLUMNS, _rate
    from mars2.evaluation.budget_run import compare_tree_files

    text = (ROOT / "docs" / "search.md").read_text()
    pattern = "results/ladder-powered/mars2/seed1/trees/step_*.jsonl"
    assert f"$ mars2 budget --trees {pattern}" in text
    files = sorted(ROOT.glob(pattern))
    assert len(files) == 16
    entry = compare_tree_files(files)["headline"]["arms"]["trees"]["8"]
    for rates in (entry["nodes"], *entry["agents"].values()):
        for name in RATE_COLUMNS:
            assert _rate(rates[name]) in text, name
