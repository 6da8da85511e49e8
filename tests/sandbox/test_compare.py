"""Host-side comparison and feedback, on hand-written reports (no processes)."""

from __future__ import annotations

from mars2.sandbox.compare import feedback, grade, normalise_json, stdout_lines
from mars2.sandbox.runtime.protocol import TestReport
from mars2.types import TestCase, TestResult


def test_normalise_json_turns_tuples_into_lists() -> None:
    assert normalise_json((1, (2, 3))) == [1, [2, 3]]
    assert normalise_json({"a": (1,)}) == {"a": [1]}


def test_stdout_lines_strip_trailing_whitespace_only() -> None:
    assert stdout_lines("a  \nb\t\n\n\n") == ["a", "b"]
    assert stdout_lines("  a\n") == ["  a"]


def test_grade_functional_and_stdin() -> None:
    test = TestCase([1], [1, 2])
    assert grade(test, "functional", TestReport(0, "ran", value=[1, 2])).verdict == "pass"
    wrong = grade(test, "functional", TestReport(0, "ran", 0.5, value=[2, 1]))
    assert (wrong.verdict, wrong.detail, wrong.time_s) == ("wrong", "[2, 1]", 0.5)
    assert grade(TestCase("", "x\n"), "stdin", TestReport(0, "ran", stdout="x  ")).passed


def test_only_assert_tests_may_report_pass_and_unknown_verdicts_are_infra() -> None:
    assert grade(TestCase([1], 1), "functional", TestReport(0, "pass")).verdict == "infra"
    assert grade(TestCase(test="assert 1"), "assert", TestReport(0, "pass")).verdict == "pass"
    assert grade(TestCase([1], 1), "functional", TestReport(0, "bogus")).verdict == "infra"


def test_feedback_lists_failures_with_input_expected_actual() -> None:
    tests = [TestCase([1], 2), TestCase([2], 4), TestCase([3], 6)]
    results = [TestResult("pass"), TestResult("wrong", 0, "5"), TestResult("timeout")]
    text = feedback(tests, results, "functional", 1000, 6.0)
    assert "Test 1" not in text
    assert "Test 2 failed: wrong answer.\nInput: [2]\nExpected: 4\nGot: 5" in text
    assert "Test 3 failed: timed out (limit 6 s)." in text
    assert feedback(tests, results, "functional", 80, 6.0).endswith("(2 failing tests in all)")
    assert len(feedback(tests, results, "functional", 80, 6.0)) <= 80


def test_feedback_does_not_repeat_the_same_error() -> None:
    tests = [TestCase([1], 2), TestCase([2], 4)]
    results = [
        TestResult("error", 0, "SyntaxError: bad"),
        TestResult("error", 0, "SyntaxError: bad"),
    ]
    text = feedback(tests, results, "functional", 1000, 6.0)
    assert text.count("SyntaxError: bad") == 1 and "same error as test 1" in text
