"""Turn raw per-test reports from the sandbox into verdicts and refinement feedback.

Runs in the host process only: expected outputs never leave it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from mars2.sandbox.runtime.protocol import TestReport
from mars2.types import TestCase, TestResult, Verdict

_FIELD = 300  # characters per shown input/expected/actual value


def normalise_json(value: Any) -> Any:
    """The value after a JSON round trip (tuples become lists), or the value itself."""
    try:
        return json.loads(json.dumps(value))
    except (TypeError, ValueError):
        return value


def stdout_lines(text: str) -> list[str]:
    """Lines with trailing whitespace stripped, trailing blank lines dropped (LiveCodeBench)."""
    lines = [line.rstrip() for line in text.rstrip().splitlines()]
    return lines


def grade(test: TestCase, style: str, report: TestReport) -> TestResult:
    """The verdict on one test from the sandbox's raw report (`ran` means: compare here)."""
    verdict, seconds, detail = report.verdict, report.time, report.detail
    if verdict == "ran" and style == "functional":
        got = report.value
        ok = got == normalise_json(test.output)
        return TestResult("pass" if ok else "wrong", seconds, "" if ok else _show(got))
    if verdict == "ran" and style == "stdin":
        got_text = report.stdout
        ok = stdout_lines(got_text) == stdout_lines(str(test.output))
        return TestResult("pass" if ok else "wrong", seconds, "" if ok else got_text[-2000:])
    if verdict not in ("pass", "wrong", "error", "timeout", "memory", "output_limit", "infra"):
        return TestResult("infra", seconds, f"unexpected report {verdict!r}")
    if verdict == "pass" and style != "assert":
        return TestResult("infra", seconds, "the sandbox claimed a pass it cannot judge")
    out: Verdict = verdict  # type: ignore[assignment]
    return TestResult(out, seconds, detail[-2000:])


def _show(value: Any) -> str:
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text


def _cut(text: str, limit: int = _FIELD) -> str:
    return text if len(text) <= limit else text[: limit - 15] + f"... ({len(text)} chars)"


_WHY = {
    "wrong": "wrong answer",
    "error": "error",
    "timeout": "timed out",
    "memory": "memory limit exceeded",
    "output_limit": "output limit exceeded",
    "infra": "sandbox failure (not your code)",
}


def feedback(
    tests: Sequence[TestCase],
    results: Sequence[TestResult],
    style: str,
    limit: int,
    timeout_s: float,
) -> str:
    """Refinement feedback for the failing tests among `tests` (the ones that were run)."""
    parts: list[str] = []
    seen: dict[str, int] = {}  # error text -> first test that showed it
    failed = [
        (i, t, r) for i, (t, r) in enumerate(zip(tests, results, strict=True)) if not r.passed
    ]
    for i, test, result in failed:
        why = _WHY[result.verdict]
        if result.verdict == "timeout":
            why = f"timed out (limit {timeout_s:g} s)"
        lines = [f"Test {i + 1} failed: {why}."]
        if style == "assert":
            lines.append(f"Test code:\n{_cut(str(test.test), 600)}")
        else:
            lines.append(
                f"Input: {_cut(_show(test.input) if style == 'functional' else str(test.input))}"
            )
            lines.append(
                f"Expected: {_cut(_show(test.output) if style == 'functional' else str(test.output))}"
            )
            if result.verdict == "wrong":
                lines.append(f"Got: {_cut(result.detail)}")
        if result.verdict in ("error", "memory") or (
            style == "assert" and result.verdict == "wrong"
        ):
            detail = result.detail.strip()
            if detail in seen:
                lines.append(f"Error: same error as test {seen[detail] + 1}.")
            else:
                seen[detail] = i
                lines.append(f"Error:\n{_cut(detail, 600)}")
        parts.append("\n".join(lines))
    text = "\n\n".join(parts)
    if len(text) > limit:
        tail = f"\n... ({len(failed)} failing tests in all)"
        text = text[: max(limit - len(tail), 0)].rstrip() + tail
    return text
