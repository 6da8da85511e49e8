"""Check problem files record by record, and optionally run each reference solution on its tests."""

from __future__ import annotations

from pathlib import Path

from mars2.config import SandboxConfig
from mars2.problems import humaneval
from mars2.problems.records import convert_records, read_jsonl
from mars2.problems.schema import ProblemIssue
from mars2.problems.sets import FORMATS, bundled_file, parse_spec
from mars2.sandbox import Sandbox
from mars2.types import ExecResult, Problem, TestSet


def _converted(
    path: str | Path,
) -> tuple[str, list[Problem], list[ProblemIssue], dict[str, int]]:
    """(file label, good problems, issues, line per id) for a JSONL path, a `FORMAT:PATH`, a
    bundled set (its whole file) or `humaneval`."""
    text = str(path)
    converter = None
    if isinstance(path, str) and not Path(text).exists() and (":" in text or text == "humaneval"):
        spec = parse_spec(text)
        if spec.kind == "humaneval":
            rows = [(i, r, None) for i, r in enumerate(humaneval.humaneval_records(), start=1)]
            return ("humaneval", *convert_records("humaneval", rows))
        if spec.kind == "bundled":
            text = str(bundled_file(spec.arg))
        else:
            converter, _ = FORMATS[spec.kind]
            text = spec.arg
    file = Path(text).expanduser()
    if not file.is_file():
        return text, [], [ProblemIssue(text, 0, "", "file not found")], {}
    return (text, *convert_records(text, read_jsonl(file), converter))


def validate_file(
    path: str | Path, *, run: bool = False, sandbox_config: SandboxConfig | None = None
) -> list[ProblemIssue]:
    """Every bad record of one file: bad JSON, missing or unknown fields, wrong types, unknown test
    style, malformed tests, duplicate ids; with `run`, every reference solution that fails its own
    tests in the sandbox. `path` may also be `mbpp:PATH`, `livecodebench:PATH`, `bundled:NAME`
    (its whole file) or `humaneval`."""
    file, problems, issues, lines = _converted(path)
    if run:
        failures = run_solutions(problems, sandbox_config or SandboxConfig())
        issues += [
            ProblemIssue(file, lines.get(pid, 0), "solution", message, pid)
            for pid, message in failures
        ]
    return sorted(issues, key=lambda issue: issue.line)


def run_solutions(problems: list[Problem], config: SandboxConfig) -> list[tuple[str, str]]:
    """(problem id, what failed) for every reference solution that does not pass all its tests."""
    jobs: list[tuple[str, Problem, TestSet]] = [
        (p.solution, p, "all") for p in problems if p.solution
    ]
    if not jobs:
        return []
    with Sandbox(config) as sandbox:
        results = sandbox.run_many(jobs)
    return [
        (p.id, _failure(p, result))
        for (_, p, _), result in zip(jobs, results, strict=True)
        if not result.passed
    ]


def _failure(problem: Problem, result: ExecResult) -> str:
    """Which tests the reference solution fails, with the sandbox's feedback (one line)."""
    n_public = len(problem.public_tests)
    failed = [
        f"{'public' if i < n_public else 'private'}[{i if i < n_public else i - n_public}]"
        f"={t.verdict}"
        for i, t in enumerate(result.tests)
        if not t.passed
    ]
    feedback = " ".join(result.feedback.split())[:300]
    head = f"reference solution fails its own tests: {', '.join(failed) or 'no tests ran'}"
    return f"{head}; {feedback}" if feedback else head
