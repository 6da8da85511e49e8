"""`mars2 check`: grades a JSONL of solutions; JSON output; user errors name file and line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mars2.cli import main

PROBLEMS = [
    {
        "id": "sum-evens",
        "statement": "Return the sum of the even numbers in xs.",
        "starter_code": "def sum_evens(xs):\n",
        "test_style": "functional",
        "fn_name": "sum_evens",
        "public_tests": [{"input": [[1, 2, 3, 4]], "output": 6}],
        "private_tests": [{"input": [[]], "output": 0}, {"input": [[2, 2]], "output": 4}],
    },
    {
        "id": "echo",
        "statement": "Print the input.",
        "test_style": "stdin",
        "public_tests": [{"input": "hi\n", "output": "hi\n"}],
    },
]
GOOD = "def sum_evens(xs):\n    return sum(x for x in xs if x % 2 == 0)\n"


def _write(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


@pytest.fixture
def problems(tmp_path: Path) -> Path:
    return _write(tmp_path / "problems.jsonl", PROBLEMS)


def test_check_json_grades_in_input_order(
    problems: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    solutions = _write(
        tmp_path / "solutions.jsonl",
        [
            {"problem_id": "sum-evens", "id": "a", "code": GOOD},
            {"problem_id": "sum-evens", "id": "b", "code": "def sum_evens(xs):\n    return 0\n"},
            {"problem_id": "echo", "completion": "Sure:\n```python\nprint(input())\n```\nDone."},
        ],
    )
    argv = [str(problems), str(solutions), "--json", "--workers", "1", "--timeout", "2"]
    assert main(["check", *argv]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["problem_id"] for r in rows] == ["sum-evens", "sum-evens", "echo"]
    assert [r.get("id") for r in rows] == ["a", "b", None]
    assert [r["passed"] for r in rows] == [True, False, True]
    assert rows[1]["pass_fraction"] == pytest.approx(1 / 3)
    assert [t["verdict"] for t in rows[1]["tests"]] == ["wrong", "pass", "wrong"]


def test_check_grades_a_completion_the_same_wherever_generation_stopped(
    problems: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A completion cut at its first closing fence and the same completion with a usage block
    after it (whose program alone would fail) are graded as the same program."""
    block = "```python\n" + GOOD + "```"
    usage = "\nUsage:\n```python\nprint(sum_evens([1, 2, 3, 4]))\n```\n"
    solutions = _write(
        tmp_path / "s.jsonl",
        [
            {"problem_id": "sum-evens", "completion": "Here:\n" + block},
            {"problem_id": "sum-evens", "completion": "Here:\n" + block + usage},
        ],
    )
    assert main(["check", str(problems), str(solutions), "--json", "--workers", "1"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["passed"] for r in rows] == [True, True]
    verdicts = [[t["verdict"] for t in r["tests"]] for r in rows]
    assert verdicts[0] == verdicts[1] == ["pass"] * len(verdicts[0])


def test_check_public_tests_only_and_table(
    problems: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    solutions = _write(tmp_path / "s.jsonl", [{"problem_id": "sum-evens", "code": GOOD}])
    assert main(["check", str(problems), str(solutions), "--tests", "public"]) == 0
    out = capsys.readouterr().out
    assert "sum-evens" in out and "1/1 solutions pass" in out and "pass 1" in out


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"problem_id": "nope", "code": "x = 1"}', "unknown problem_id 'nope'"),
        ("{not json", "not valid JSON"),
        ('{"problem_id": "echo"}', "needs a 'code' or a 'completion'"),
    ],
)
def test_bad_solution_lines_are_user_errors(
    problems: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, message: str
) -> None:
    solutions = tmp_path / "bad.jsonl"
    solutions.write_text(
        json.dumps({"problem_id": "echo", "code": "print(1)"}) + "\n" + line + "\n"
    )
    assert main(["check", str(problems), str(solutions)]) == 2
    err = "".join(capsys.readouterr().err.split())  # rich wraps long lines, at any space
    assert f"{solutions}:2" in err and "".join(message.split()) in err


def test_bad_problem_file_is_a_user_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    problems = tmp_path / "p.jsonl"
    problems.write_text('{"id": "x", "test_style": "functional", "public_tests": []}\n')
    solutions = _write(tmp_path / "s.jsonl", [])
    assert main(["check", str(problems), str(solutions)]) == 2
    assert "fn_name" in capsys.readouterr().err
