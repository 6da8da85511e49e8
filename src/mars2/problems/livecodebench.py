"""LiveCodeBench code-generation records (the official JSONL release) as schema records (docs/problems.md).

A record has `question_id`, `question_title`, `question_content`, `starter_code`, `platform`,
`difficulty`, `contest_date`, `metadata` (a JSON string; `func_name` for call-based problems) and
`public_test_cases` / `private_test_cases`: JSON strings of `[{"input", "output", "testtype"}]`. In
the official release the private tests are compressed: base64 of zlib of a pickled JSON string. The
pickle is read with an unpickler that refuses every global, so it can only yield plain data.

`testtype` `stdin` tests keep input and output as strings. `functional` tests hold one JSON value per
input line (the positional arguments) and a JSON output; they become `functional` tests calling
`metadata.func_name` (a `class Solution` method when the candidate defines one).
"""

from __future__ import annotations

import base64
import binascii
import io
import json
import pickle
import zlib
from datetime import date, datetime
from typing import Any

from mars2.problems.records import RecordError
from mars2.types import Problem

SOURCE = "livecodebench"


class _PlainUnpickler(pickle.Unpickler):
    """Unpickles builtin data only: a global (class or function) is never looked up."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"refusing to load global {module}.{name}")


def decode_tests(text: str, field: str) -> list[Any]:
    """The test list of a `*_test_cases` field: plain JSON, or base64+zlib+pickle+JSON."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        try:
            raw = zlib.decompress(base64.b64decode(text.encode("ascii"), validate=True))
            inner = _PlainUnpickler(io.BytesIO(raw)).load()
            value = json.loads(inner) if isinstance(inner, str | bytes) else inner
        except (
            binascii.Error,
            zlib.error,
            pickle.UnpicklingError,
            json.JSONDecodeError,
            UnicodeError,
            EOFError,
            ValueError,
        ) as err:
            raise RecordError(field, f"neither JSON nor compressed tests ({err})") from err
    if not isinstance(value, list):
        raise RecordError(field, f"must decode to a list of tests, got {type(value).__name__}")
    return value


def encode_tests(tests: list[dict[str, Any]]) -> str:
    """The official compressed form of a test list (the inverse of `decode_tests`)."""
    return base64.b64encode(zlib.compress(pickle.dumps(json.dumps(tests)))).decode("ascii")


def contest_day(record: dict[str, Any]) -> date | None:
    """The day of `contest_date` (ISO date or datetime), None when absent."""
    value = record.get("contest_date")
    if value in (None, ""):
        return None
    try:
        return datetime.fromisoformat(str(value)).date()
    except ValueError as err:
        raise RecordError("contest_date", f"not an ISO date: {value!r}") from err


def _convert_test(test: Any, style: str, field: str) -> dict[str, Any]:
    if not isinstance(test, dict) or "input" not in test or "output" not in test:
        raise RecordError(field, "a test needs 'input' and 'output'")
    if style == "stdin":
        return {"input": test["input"], "output": test["output"]}
    try:
        args = [json.loads(line) for line in str(test["input"]).split("\n") if line.strip()]
        output = json.loads(test["output"])
    except json.JSONDecodeError as err:
        raise RecordError(field, f"functional test is not JSON per line: {err.msg}") from err
    return {"input": args, "output": output}


def _style(tests: list[Any], field: str) -> str | None:
    kinds = {t.get("testtype", "stdin") for t in tests if isinstance(t, dict)}
    if len(kinds) > 1:
        raise RecordError(field, f"mixed test types {sorted(kinds)}")
    kind = next(iter(kinds), None)
    if kind not in (None, "stdin", "functional"):
        raise RecordError(field, f"unknown testtype {kind!r} (stdin or functional)")
    return kind


def _metadata(record: dict[str, Any]) -> dict[str, Any]:
    meta = record.get("metadata") or {}
    if isinstance(meta, str):
        try:
            meta = json.loads(meta) if meta.strip() else {}
        except json.JSONDecodeError as err:
            raise RecordError("metadata", f"not JSON: {err.msg}") from err
    if not isinstance(meta, dict):
        raise RecordError("metadata", "must be a JSON object")
    return meta


def convert(record: dict[str, Any]) -> dict[str, Any]:
    """One LiveCodeBench record as a schema record (raises RecordError on a bad record)."""
    for name in ("question_id", "question_content", "public_test_cases"):
        if name not in record:
            raise RecordError(name, "missing required field")
    public = decode_tests(str(record["public_test_cases"]), "public_test_cases")
    private_raw = record.get("private_test_cases") or "[]"
    private = decode_tests(str(private_raw), "private_test_cases")
    styles = {_style(public, "public_test_cases"), _style(private, "private_test_cases")} - {None}
    if len(styles) > 1:
        raise RecordError("private_test_cases", "public and private tests differ in testtype")
    style = next((s for s in styles if s is not None), "stdin")
    meta = _metadata(record)
    day = contest_day(record)
    extra = {k: record[k] for k in ("question_title", "platform", "contest_id") if k in record}
    return {
        "id": str(record["question_id"]),
        "statement": record["question_content"],
        "starter_code": record.get("starter_code") or "",
        "test_style": style,
        "fn_name": meta.get("func_name") if style == "functional" else None,
        "public_tests": [_convert_test(t, style, "public_test_cases") for t in public],
        "private_tests": [_convert_test(t, style, "private_test_cases") for t in private],
        "difficulty": record.get("difficulty"),
        "source": SOURCE,
        "split": "test",
        "metadata": {**extra, "contest_date": day.isoformat() if day else None, **meta},
    }


def in_window(problem: Problem, since: date | None, until: date | None) -> bool:
    """True when the problem's contest date is within [since, until] (both inclusive). A problem
    without a date is kept only when no window is set."""
    if since is None and until is None:
        return True
    day = problem.metadata.get("contest_date")
    if not isinstance(day, str):
        return False
    when = date.fromisoformat(day)
    return (since is None or when >= since) and (until is None or when <= until)
