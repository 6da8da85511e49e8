"""Reading run directories: the formats of docs/training.md ("Run directory") and a clear error for each bad file."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from report_fakes import AGENTS, make_tree, write_config, write_jsonl

from mars2.errors import UserError
from mars2.report import load_runs
from mars2.report.runs import load_run
from mars2.treesearch import metrics


def test_reads_a_training_run(train_run: Path) -> None:
    run = load_run(train_run)
    assert run.name == "mcts" and run.agent_names == AGENTS
    assert len(run.steps) == 6 and run.steps[0]["step"] == 1.0
    assert "note" not in run.steps[0]  # non-numeric values are dropped
    assert "eval/pass@1" in run.steps[1] and "eval/pass@1" not in run.steps[0]
    assert [t.key for t in run.trees][:2] == ["step_000001/s1-0", "step_000001/s1-1"]
    assert run.config["train"]["steps"] == 6 and run.summary is None


def test_reads_a_search_run(search_run: Path) -> None:
    run = load_run(search_run)
    assert run.summary is not None and run.summary["algo"] == "abmcts"
    assert [t.problem_id for t in run.trees] == ["sum-evens", "two-sum", "fizzbuzz"]
    assert all(len(t.nodes) == 10 for t in run.trees) and run.steps == ()


def test_best_node_ties_go_to_the_later_node(tmp_path: Path) -> None:
    run_dir = tmp_path / "r"
    write_config(run_dir)
    nodes = [
        {**n, "score": s}
        for n, s in zip(make_tree(random.Random(0), "t", "p", 3), (1.0, 0.5, 1.0), strict=True)
    ]
    write_jsonl(run_dir / "trees" / "x.jsonl", nodes)
    (tree,) = load_run(run_dir).trees
    best = metrics.best(tree.nodes)
    assert best is not None and best.node_id == 2


def test_duplicate_directory_names_are_told_apart(tmp_path: Path) -> None:
    from report_fakes import make_search_run

    a = make_search_run(tmp_path / "a" / "run")
    b = make_search_run(tmp_path / "b" / "run")
    assert [r.name for r in load_runs([a, b])] == ["a/run", "b/run"]


def _run(tmp_path: Path) -> Path:
    run_dir = tmp_path / "r"
    write_config(run_dir)
    return run_dir


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        (
            "metrics.jsonl",
            '{"step": 1}\n{"step": 2,\n{"step": 3}\n',
            "metrics.jsonl:2: not valid JSON",
        ),
        ("metrics.jsonl", '{"step": 1}\n[1, 2]\n', "metrics.jsonl:2: expected a JSON object"),
        ("metrics.jsonl", '{"loss": 1}\n', "metrics.jsonl:1: field 'step' should be a number"),
        ("metrics.json", '{"pass@1": 0.5,\n "x": }', "metrics.json:2: not valid JSON"),
        ("metrics.json", "[0.5]", "metrics.json: expected a JSON object"),
        ("metrics.jsonl", b"\xff\xfe", "metrics.jsonl: not UTF-8"),
    ],
)
def test_corrupt_metrics_name_file_and_line(
    tmp_path: Path, name: str, text: str | bytes, message: str
) -> None:
    run_dir = _run(tmp_path)
    file = run_dir / name
    file.write_bytes(text if isinstance(text, bytes) else text.encode())
    with pytest.raises(UserError, match=re.escape(message)):
        load_run(run_dir)


def test_an_incomplete_last_line_is_skipped(tmp_path: Path) -> None:
    """A run still writing may leave a cut-off last line; the report shows the rest."""
    run_dir = _run(tmp_path)
    (run_dir / "metrics.jsonl").write_text('{"step": 1, "loss/agent0": 0.5}\n{"step": 2, "lo')
    assert [r["step"] for r in load_run(run_dir).steps] == [1.0]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"node_id": "3"}, "field 'node_id' must be an integer, got '3'"),
        ({"passed": 1}, "field 'passed' must be true or false"),
        ({"score": True}, "field 'score' must be a number"),
        ({"score": float("nan")}, "field 'score' must be finite"),
        ({"parent_id": 99}, "parent_id 99 is not a node of tree t"),
        ({"node_id": 0}, "node_id 0 repeats in tree t"),
        ({"code": None}, "field 'code' must be a string"),
    ],
)
def test_bad_node_records_name_file_and_line(tmp_path: Path, change: dict, message: str) -> None:  # type: ignore[type-arg]
    run_dir = _run(tmp_path)
    nodes = make_tree(random.Random(0), "t", "p", 3)
    nodes[1].update(change)
    write_jsonl(run_dir / "trees" / "search.jsonl", nodes)
    with pytest.raises(UserError, match=re.escape(f"search.jsonl:2: {message}")):
        load_run(run_dir)


def test_missing_node_field(tmp_path: Path) -> None:
    run_dir = _run(tmp_path)
    nodes = make_tree(random.Random(0), "t", "p", 2)
    del nodes[0]["score"]
    write_jsonl(run_dir / "trees" / "search.jsonl", nodes)
    with pytest.raises(UserError, match=re.escape("search.jsonl:1: missing field 'score'")):
        load_run(run_dir)


def test_missing_directory_config_or_content(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="run directory not found"):
        load_run(tmp_path / "nope")
    (tmp_path / "empty").mkdir()
    with pytest.raises(UserError, match=re.escape("config.yaml: missing")):
        load_run(tmp_path / "empty")
    with pytest.raises(UserError, match="nothing to report"):
        load_run(_run(tmp_path))


def test_bad_yaml_names_the_file(tmp_path: Path) -> None:
    run_dir = tmp_path / "r"
    run_dir.mkdir()
    (run_dir / "config.yaml").write_text("seed: [1,\n")
    (run_dir / "metrics.json").write_text(json.dumps({"pass@1": 0.5}))
    with pytest.raises(UserError, match=r"config\.yaml.*not valid YAML"):
        load_run(run_dir)


def test_config_from_another_version_is_shown_as_written(tmp_path: Path) -> None:
    run_dir = tmp_path / "r"
    run_dir.mkdir()
    (run_dir / "config.yaml").write_text("agents: [{name: a}, {model: m}]\nfuture_key: 1\n")
    (run_dir / "metrics.json").write_text(json.dumps({"pass@1": 0.5}))
    run = load_run(run_dir)
    assert run.agent_names == ("a", "agent1") and run.config["future_key"] == 1


def test_a_run_with_older_five_digit_tree_files_still_reads(tmp_path: Path) -> None:
    """Runs written before the one step format have `trees/step_00003.jsonl`; a resumed one has
    both spellings. The report reads them all, in step order, and plots each step once."""
    from mars2.report.curves import _tree_points, tree_curves

    run_dir = tmp_path / "old"
    write_config(run_dir)
    rng = random.Random(0)
    for name, step in (("step_00009", 9), ("step_000010", 10), ("step_00003", 3)):
        write_jsonl(run_dir / "trees" / f"{name}.jsonl", make_tree(rng, f"s{step}", "p", 4))
    run = load_run(run_dir)
    assert [t.source for t in run.trees] == ["step_00003", "step_00009", "step_000010"]
    assert sorted(_tree_points(run)) == [3, 9, 10]
    (chart,) = tree_curves([run])
    assert chart.name == "curve-trees"
