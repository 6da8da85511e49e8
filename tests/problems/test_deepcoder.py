"""DeepCoder records: every test shape converts and runs, the filters drop and count, bad lines
name file and line."""

from __future__ import annotations

import dataclasses
import json
from datetime import date
from pathlib import Path

import pytest

from mars2.config import SandboxConfig
from mars2.errors import UserError
from mars2.problems import load_problems, validate_file
from mars2.problems.deepcoder import (
    Settings,
    convert,
    load,
    normalise_statement,
    statement_hash,
)
from mars2.problems.validate import run_solutions
from mars2.types import Problem, TestCase

FIXTURES = Path(__file__).parent / "fixtures"
FILE = FIXTURES / "deepcoder.jsonl"
V6 = Settings(exclude_since=date(2025, 1, 1), exclude_until=date(2025, 5, 31))

# statement start -> a program that passes every test of the converted problem
SOLUTIONS = {
    "Read two integers": "a, b = map(int, input().split())\nprint(a + b)\n",
    "Return the square": "def square(n):\n    return n * n\n",
    "Print the maximum": "input()\nprint(max(map(int, input().split())))\n",
    "Return the first and last": "def ends(xs):\n    return [xs[0], xs[-1]]\n",
    "Given nums": (
        "class Solution:\n    def countEven(self, nums):\n"
        "        return sum(1 for x in nums if x % 2 == 0)\n"
    ),
    "Read a string": "print(input()[::-1])\n",
    "Read n and print n factorial": "import math\nprint(math.factorial(int(input())))\n",
    "Print YES if n is even": "print('YES' if int(input()) % 2 == 0 else 'NO')\n",
}


def by_start(problems: list[Problem]) -> dict[str, Problem]:
    return {next(k for k in SOLUTIONS if p.statement.startswith(k)): p for p in problems}


def test_every_test_shape_converts() -> None:
    problems, _ = load(FILE)
    got = by_start(problems)
    assert set(got) == set(SOLUTIONS)
    pi_stdin = got["Read two integers"]
    assert pi_stdin.test_style == "stdin" and pi_stdin.difficulty == "easy"
    assert pi_stdin.public_tests == (
        TestCase(input="1 2\n", output="3\n"),
        TestCase(input="5 7\n", output="12\n"),
    )
    assert pi_stdin.private_tests == (TestCase(input="0 0\n", output="0\n"),)
    assert pi_stdin.source == "deepcoder:primeintellect" and pi_stdin.split == "train"
    call = got["Return the square"]  # one-element outputs unwrapped; one test stays hidden
    assert (call.test_style, call.fn_name) == ("functional", "square")
    assert call.public_tests == (TestCase(input=[3], output=9),)
    assert call.private_tests == (TestCase(input=[-2], output=4),)
    taco = got["Print the maximum"]  # APPS columns; a list of lines is joined
    assert taco.tests("all")[1] == TestCase(input="2\n9 4\n", output="9\n")
    ends = got["Return the first and last"]
    assert [t.output for t in ends.tests("all")] == [[1, 3], [4, 4]]
    lcb = got["Given nums"]  # LiveCodeBench's functional text form, func_name from metadata
    assert (lcb.fn_name, lcb.public_tests) == (
        "countEven",
        (TestCase(input=[[1, 2, 4]], output=2),),
    )
    assert lcb.metadata["contest_date"] == "2024-06-01" and lcb.metadata["source"] == "lcbv5"
    assert got["Print YES if n is even"].test_style == "stdin"  # no type marker, no fn_name
    assert lcb.id == f"deepcoder-{statement_hash(lcb.statement)[:12]}"


def test_the_converted_tests_run_in_the_sandbox() -> None:
    problems = [
        dataclasses.replace(p, solution=SOLUTIONS[k]) for k, p in by_start(load(FILE)[0]).items()
    ]
    assert run_solutions(problems, SandboxConfig(workers=1)) == []
    wrong = [dataclasses.replace(p, solution="print(0)\n") for p in problems[:1]]
    assert len(run_solutions(wrong, SandboxConfig(workers=1))) == 1


def test_each_filter_drops_and_counts() -> None:
    problems, report = load(FILE, V6)
    assert report.records == 14
    assert report.unrunnable == {
        "not JSON (Expecting property name enclosed in double quotes)": 1,
        "no tests": 1,
        "unknown test type 'interactive'": 1,
        "function-call tests without a function name": 1,
        "mixed test types ['functional', 'stdin']": 1,
    }
    assert report.duplicates == 1  # "  read two integers and   print their SUM. "
    assert report.in_eval_window == 1  # lcbv5, 2025-02-15
    assert report.lcb_undated == 1  # lcbv5 without a date: kept, counted
    assert report.kept == len(problems) == 7 == 14 - 5 - 1 - 1
    assert not any(p.statement.startswith("Read a string") for p in problems)
    assert "1 in the excluded LiveCodeBench window" in report.summary()
    _, open_window = load(FILE)
    assert (open_window.in_eval_window, open_window.lcb_undated, open_window.kept) == (0, 0, 8)


def test_statements_are_compared_normalised() -> None:
    assert normalise_statement("  Read\tTWO  integers\n") == "read two integers"
    assert normalise_statement("ﬁve") == "five"  # NFKC: the ligature is two letters
    assert statement_hash("A  b") == statement_hash("a b") != statement_hash("a  c")


def test_spec_options_reach_the_loader() -> None:
    spec = f"deepcoder:{FILE}?exclude_since=2025-01-01&exclude_until=2025-05-31"
    assert len(load_problems(spec)) == 7
    (square,) = [p for p in load_problems(f"deepcoder:{FILE}?public=0") if p.fn_name == "square"]
    assert square.public_tests == () and len(square.private_tests) == 2
    first = load_problems(f"deepcoder:{FILE}?max_tests=1&limit=1")[0]
    assert len(first.tests("all")) == 1 and first.private_tests == ()
    with pytest.raises(UserError, match="exclude_since='2025-13-01' is not YYYY-MM-DD"):
        load_problems(f"deepcoder:{FILE}?exclude_since=2025-13-01")
    with pytest.raises(UserError, match="public must be a whole number"):
        load_problems(f"deepcoder:{FILE}?public=two")
    with pytest.raises(UserError, match="unknown option 'since'"):
        load_problems(f"deepcoder:{FILE}?since=2025-01-01")


def test_source_option_names_records_without_one(tmp_path: Path) -> None:
    record = {"problem": "Print 1.", "tests": [{"input": "", "output": "1\n"}]}
    assert convert(record)["source"] == "deepcoder"
    converted = convert(record, Settings(source="lcbv5", public=1))
    assert converted["source"] == "deepcoder:lcbv5"
    assert converted["public_tests"] == [{"input": "", "output": "1\n"}]  # one test: shown


def test_bad_lines_name_file_and_line() -> None:
    bad = FIXTURES / "deepcoder_bad.jsonl"
    with pytest.raises(UserError) as err:
        load(bad)
    text = str(err.value)
    assert f"{bad}:2" in text and "JSON" in text
    assert f"{bad}:3 problem: missing or empty statement" in text
    assert f"{bad}:4" in text and "object" in text
    assert f"{bad}:1" not in text
    with pytest.raises(UserError, match="problem file not found"):
        load_problems(f"deepcoder:{FIXTURES / 'absent.jsonl'}")


def test_validate_names_each_record_the_loader_would_drop() -> None:
    issues = validate_file(f"deepcoder:{FILE}")
    # the duplicate statement has the same statement-hash id as line 1's
    assert [(i.line, i.field) for i in issues] == [(9, "id")] + [
        (n, "tests") for n in range(10, 15)
    ]
    assert "first seen on line 1" in str(issues[0])
    assert "unknown test type 'interactive'" in str(issues[3])


def test_a_record_with_tests_as_decoded_json_converts() -> None:
    record = {"problem": "P", "tests": {"inputs": [[1]], "outputs": [[2]], "fn_name": "f"}}
    converted = convert(record)
    assert converted["public_tests"] == [{"input": [1], "output": 2}]
    assert json.loads(json.dumps(converted)) == converted
