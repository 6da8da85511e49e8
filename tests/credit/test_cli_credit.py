"""`mars2 credit`: per-node table and JSON, flags over config, errors that name file and line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from credit_records import node

from mars2.cli import err_console, main
from mars2.config import CreditConfig
from mars2.credit import assign_credit, read_node_records
from mars2.types import NodeRecord


def two_agent_tree() -> list[NodeRecord]:
    return [
        node(0, None, 0.0, agent=0),
        node(1, 0, 0.5, agent=1),
        node(2, 1, 1.0, agent=0),
        node(3, None, 0.25, agent=1),
    ]


@pytest.fixture(autouse=True)
def wide_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rich wraps messages at the terminal width (80 under pytest); long tmp paths would wrap."""
    monkeypatch.setattr(err_console, "width", 10_000)


def flat(text: str) -> str:
    return " ".join(text.split())


def write(path: Path, records: list[NodeRecord]) -> Path:
    path.write_text("".join(json.dumps(r.to_json()) + "\n" for r in records))
    return path


def test_json_output_matches_the_library(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = write(tmp_path / "t.jsonl", two_agent_tree())
    assert main(["credit", str(file), "--json", "--gamma", "1", "--group", "tree_agent"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    cfg = CreditConfig(gamma=1.0, group="tree_agent")
    expected = [c.to_json() for c in assign_credit(two_agent_tree(), cfg)]
    assert lines == expected
    assert set(lines[0]) >= {"tree_id", "node_id", "reward", "shaped", "value", "advantage"}
    # the hand-computed shaped reward of node 0 with γ = 1: 0 + 1·(0 - 0.25) = -0.25
    assert lines[0]["shaped"] == -0.25


def test_table_output_and_config_overrides(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = write(tmp_path / "t.jsonl", two_agent_tree())
    assert main(["credit", str(file), "credit.eta=0", "--reward", "binary"]) == 0
    out = capsys.readouterr().out
    assert "advantage" in out and "η=0.0" in out and "reward=binary" in out


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "t.jsonl:2: not valid JSON"),
        ('{"tree_id": "t", "node_id": 5}', "t.jsonl:2: missing field 'problem_id'"),
        ("[1, 2]", "t.jsonl:2: expected a JSON object"),
    ],
)
def test_bad_lines_exit_2_naming_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, message: str
) -> None:
    file = tmp_path / "t.jsonl"
    file.write_text(json.dumps(node(0, None, 1.0).to_json()) + "\n" + line + "\n")
    assert main(["credit", str(file)]) == 2
    assert message in flat(capsys.readouterr().err)


def test_wrong_field_type_and_bad_values_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = node(0, None, 1.0).to_json() | {"score": "high"}
    file = tmp_path / "t.jsonl"
    file.write_text(json.dumps(record) + "\n")
    assert main(["credit", str(file)]) == 2
    assert "t.jsonl:1: field 'score' must be a number" in flat(capsys.readouterr().err)
    good = write(tmp_path / "g.jsonl", two_agent_tree())
    assert main(["credit", str(good), "--lam", "2"]) == 2
    assert "credit.lam" in capsys.readouterr().err
    assert main(["credit", str(tmp_path / "missing.jsonl")]) == 2
    assert "not found" in capsys.readouterr().err


def test_reader_round_trips_records(tmp_path: Path) -> None:
    records = two_agent_tree()
    file = write(tmp_path / "t.jsonl", records)
    file.write_text(file.read_text() + "\n")  # a trailing blank line is fine
    assert read_node_records(file) == records


def test_a_directory_of_tree_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path / "a.jsonl", [node(0, None, 1.0, tree="a"), node(1, None, 0.0, tree="a")])
    write(tmp_path / "b.jsonl", [node(0, None, 0.5, tree="b")])
    assert main(["credit", str(tmp_path), "--json"]) == 0
    trees = [json.loads(line)["tree_id"] for line in capsys.readouterr().out.splitlines()]
    assert trees == ["a", "a", "b"]
    assert main(["credit", str(tmp_path / "a.jsonl"), "--json"]) == 0
    empty = tmp_path / "empty"
    empty.mkdir()
    capsys.readouterr()
    assert main(["credit", str(empty)]) == 2
    assert "no *.jsonl" in flat(capsys.readouterr().err)
