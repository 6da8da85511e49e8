"""The problem schema (docs/problems.md): good records become Problems; every kind of bad record is reported with its line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mars2.problems import ProblemIssue, load_problems, parse_record, validate_file
from mars2.types import Problem, TestCase

DATA = Path(__file__).parent / "data"


def test_good_file_loads_every_style() -> None:
    problems = load_problems(str(DATA / "good.jsonl"))
    by_id = {p.id: p for p in problems}
    assert [p.id for p in problems] == ["sum-evens", "echo-sum", "double"]
    assert by_id["sum-evens"].public_tests == (TestCase(input=[[1, 2, 3, 4]], output=6),)
    assert by_id["sum-evens"].fn_name == "sum_evens"
    assert by_id["echo-sum"].test_style == "stdin"
    assert by_id["echo-sum"].private_tests == (TestCase(input="-5 5\n", output="0\n"),)
    assert by_id["double"].public_tests[0].test == "assert double(2) == 4\n"
    assert by_id["double"].metadata == {"family": "arith"}
    assert by_id["double"].source == ""  # optional, defaults to empty


def test_records_round_trip_through_to_json() -> None:
    for problem in load_problems(str(DATA / "good.jsonl")):
        again, issues = parse_record(json.loads(json.dumps(problem.to_json())))
        assert issues == []
        assert again == problem


def test_null_output_is_a_valid_functional_output() -> None:
    record = {
        "id": "none",
        "statement": "Return None.",
        "test_style": "functional",
        "fn_name": "f",
        "public_tests": [{"input": [], "output": None}],
    }
    problem, issues = parse_record(record)
    assert issues == [] and isinstance(problem, Problem)
    assert problem.public_tests[0].output is None


def test_empty_id_and_statement_are_reported() -> None:
    record = {"id": " ", "statement": "", "test_style": "stdin", "public_tests": []}
    record["private_tests"] = [{"input": "", "output": ""}]
    problem, issues = parse_record(record)
    assert problem is None
    assert issues == [("id", "must not be empty"), ("statement", "must not be empty")]


def test_a_path_object_loads() -> None:
    assert len(load_problems(DATA / "good.jsonl")) == 3


EXPECTED_BAD = {
    # line: (field, words in the message)
    2: ("", "not valid JSON"),
    3: ("statement", "missing required field"),
    4: ("test_style", "unknown test style 'doctest'"),
    5: ("public_tests[0]", "missing 'output'"),
    6: ("id", "duplicate id 'fine-1' (first seen on line 1)"),
    7: ("statement", "must be a string, got int"),
    8: ("public_tests[0].input", "list of positional arguments"),
    9: ("fn_name", "needs the name of the function"),
    10: ("privte_tests", "unknown field"),
    11: ("solution", "not valid Python"),
    12: ("public_tests[0].output", "must be a string"),
    13: ("public_tests[0].test", "not valid Python"),
    14: ("public_tests", "no tests at all"),
    15: ("", "expected a JSON object"),
}


def test_validate_reports_every_bad_record_with_line_and_field() -> None:
    issues = validate_file(DATA / "bad.jsonl")
    assert all(isinstance(i, ProblemIssue) for i in issues)
    assert sorted({i.line for i in issues}) == sorted(EXPECTED_BAD)
    for issue in issues:
        field, words = EXPECTED_BAD[issue.line]
        assert issue.field == field, issue
        assert words in issue.message, issue
        assert issue.file.endswith("bad.jsonl")
    assert str(issues[0]).startswith(f"{DATA / 'bad.jsonl'}:2 ")


def test_good_file_validates_clean() -> None:
    assert validate_file(DATA / "good.jsonl") == []


def test_loading_a_bad_file_raises_one_user_error_naming_file_and_lines() -> None:
    from mars2.errors import UserError

    with pytest.raises(UserError) as err:
        load_problems(str(DATA / "bad.jsonl"))
    text = str(err.value)
    assert "14 invalid problem record(s)" in text
    assert "bad.jsonl:2 " in text and "and 4 more" in text


def test_missing_file_is_an_issue_for_validate_and_a_user_error_for_load(tmp_path: Path) -> None:
    from mars2.errors import UserError

    issues = validate_file(tmp_path / "absent.jsonl")
    assert len(issues) == 1 and "not found" in issues[0].message
    with pytest.raises(UserError, match="not found"):
        load_problems(str(tmp_path / "absent.jsonl"))


@pytest.mark.parametrize(
    ("tests", "field"),
    [
        ([{"input": [1], "output": 1, "expected": 2}], "public_tests[0]"),
        (["not a dict"], "public_tests[0]"),
        ({"input": [1]}, "public_tests"),
    ],
)
def test_malformed_tests(tests: object, field: str) -> None:
    record = {
        "id": "p",
        "statement": "s",
        "test_style": "functional",
        "fn_name": "f",
        "public_tests": tests,
    }
    problem, issues = parse_record(record)
    assert problem is None
    assert field in [f for f, _ in issues]
