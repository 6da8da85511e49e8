"""LiveCodeBench records: both test types, compressed private tests, the date window, filters."""

from __future__ import annotations

import base64
import json
import pickle
import zlib
from pathlib import Path

import pytest

from mars2.errors import UserError
from mars2.problems import load_problems, validate_file
from mars2.problems.livecodebench import decode_tests, encode_tests
from mars2.problems.records import RecordError
from mars2.types import TestCase

DATA = Path(__file__).parent / "data"
SPEC = f"livecodebench:{DATA / 'livecodebench.jsonl'}"


def test_functional_and_stdin_records_convert() -> None:
    by_id = {p.id: p for p in load_problems(SPEC)}
    assert set(by_id) == {"9001", "abc900_a", "1900A"}
    add = by_id["9001"]
    assert add.test_style == "functional" and add.fn_name == "addTwo"
    assert add.public_tests == (TestCase(input=[1, 2], output=3),)
    assert add.private_tests[1] == TestCase(input=[10, 5], output=15)
    assert add.starter_code.startswith("class Solution:")
    assert add.metadata["platform"] == "leetcode"
    assert add.metadata["contest_date"] == "2024-05-04"
    stdin = by_id["abc900_a"]
    assert stdin.test_style == "stdin" and stdin.fn_name is None
    assert stdin.public_tests == (TestCase(input="1 5 3\n", output="5\n"),)
    assert stdin.difficulty == "medium" and stdin.source == "livecodebench"


def _compressed_record(tmp_path: Path) -> Path:
    private = [
        {"input": f"{i} {i} {i}\n", "output": f"{i}\n", "testtype": "stdin"} for i in range(30)
    ]
    record = json.loads((DATA / "livecodebench.jsonl").read_text().splitlines()[1])
    record["question_id"] = "abc900_b"
    record["private_test_cases"] = encode_tests(private)
    path = tmp_path / "lcb.jsonl"
    path.write_text(json.dumps(record) + "\n")
    return path


def test_compressed_private_tests_decode(tmp_path: Path) -> None:
    path = _compressed_record(tmp_path)
    text = json.loads(path.read_text())["private_test_cases"]
    # the official form: base64(zlib(pickle(json string)))
    assert (
        json.loads(pickle.loads(zlib.decompress(base64.b64decode(text))))[3]["input"] == "3 3 3\n"
    )
    (problem,) = load_problems(f"livecodebench:{path}")
    assert len(problem.private_tests) == 30
    assert problem.private_tests[7] == TestCase(input="7 7 7\n", output="7\n")


class _Evil:
    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (print, ("pwned",))


def test_a_pickle_that_loads_a_global_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    payload = base64.b64encode(zlib.compress(pickle.dumps(_Evil()))).decode()
    with pytest.raises(RecordError, match="refusing to load global"):
        decode_tests(payload, "private_test_cases")
    assert "pwned" not in capsys.readouterr().out


def test_bad_records_are_reported_with_field(tmp_path: Path) -> None:
    good = json.loads((DATA / "livecodebench.jsonl").read_text().splitlines()[0])
    bad_json = {**good, "question_id": "a", "private_test_cases": "not json, not base64!"}
    mixed = {
        **good,
        "question_id": "b",
        "public_test_cases": json.dumps(
            [
                {"input": "1\n2", "output": "3", "testtype": "functional"},
                {"input": "1 2\n", "output": "3\n", "testtype": "stdin"},
            ]
        ),
    }
    no_content = {k: v for k, v in good.items() if k != "question_content"}
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in (bad_json, mixed, no_content)) + "\n")
    issues = validate_file(f"livecodebench:{path}")
    assert [(i.line, i.field) for i in issues] == [
        (1, "private_test_cases"),
        (2, "public_test_cases"),
        (3, "question_content"),
    ]
    assert "mixed test types" in issues[1].message


@pytest.mark.parametrize(
    ("options", "ids"),
    [
        ("?since=2024-01-01", {"9001", "abc900_a"}),
        ("?until=2024-05-04", {"9001", "1900A"}),  # both ends inclusive
        ("?since=2024-05-04&until=2024-05-04", {"9001"}),
        ("?platform=atcoder", {"abc900_a"}),
        ("?difficulty=easy,hard", {"9001", "1900A"}),
        ("?since=2030-01-01", set()),
    ],
)
def test_date_window_and_filters(options: str, ids: set[str]) -> None:
    assert {p.id for p in load_problems(SPEC + options)} == ids


def test_a_bad_date_option_is_a_user_error() -> None:
    with pytest.raises(UserError, match="since='May 2024' is not YYYY-MM-DD"):
        load_problems(SPEC + "?since=May 2024")
