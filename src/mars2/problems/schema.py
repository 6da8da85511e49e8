"""The JSONL problem schema (docs/problems.md): one record -> a `Problem`, or every reason it is not one."""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mars2.types import TEST_STYLES, Problem, TestCase

REQUIRED = ("id", "statement", "test_style", "public_tests")
# field -> (allowed types, may be null)
FIELD_TYPES: dict[str, tuple[tuple[type, ...], bool]] = {
    "id": ((str,), False),
    "statement": ((str,), False),
    "test_style": ((str,), False),
    "public_tests": ((list,), False),
    "private_tests": ((list,), False),
    "starter_code": ((str,), False),
    "fn_name": ((str,), True),
    "solution": ((str,), True),
    "difficulty": ((str,), True),
    "source": ((str,), False),
    "split": ((str,), True),
    "metadata": ((dict,), True),
}
TEST_KEYS = {"functional": ("input", "output"), "stdin": ("input", "output"), "assert": ("test",)}


@dataclass(frozen=True)
class ProblemIssue:
    """One thing wrong with one record: where it is (file, 1-based line, field) and what is wrong."""

    file: str
    line: int
    field: str
    message: str
    problem_id: str | None = None

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        what = f" [{self.problem_id}]" if self.problem_id else ""
        field = f" {self.field}:" if self.field else ""
        return f"{where}{what}{field} {self.message}"


def is_python(source: str) -> bool:
    """True when `source` parses as a Python program."""
    try:
        ast.parse(source)
    except (SyntaxError, ValueError):
        return False
    return True


def _type_name(types: tuple[type, ...], nullable: bool) -> str:
    names: dict[type, str] = {str: "a string", list: "a list", dict: "an object"}
    text = " or ".join(names.get(t, t.__name__) for t in types)
    return f"{text} or null" if nullable else text


def _check_fields(record: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(field, message) for missing, unknown and wrongly typed top-level fields."""
    problems: list[tuple[str, str]] = []
    for name in REQUIRED:
        if name not in record:
            problems.append((name, "missing required field"))
    for name, value in record.items():
        if name not in FIELD_TYPES:
            known = ", ".join(FIELD_TYPES)
            problems.append((name, f"unknown field (known: {known}; put extras in 'metadata')"))
            continue
        types, nullable = FIELD_TYPES[name]
        if value is None and nullable:
            continue
        if not isinstance(value, types) or isinstance(value, bool):
            problems.append(
                (name, f"must be {_type_name(types, nullable)}, got {type(value).__name__}")
            )
    for name in ("id", "statement"):
        if isinstance(record.get(name), str) and not record[name].strip():
            problems.append((name, "must not be empty"))
    return problems


def _parse_test(style: str, raw: Any, field: str) -> tuple[TestCase | None, list[tuple[str, str]]]:
    """One test of the given style, or the reasons it is malformed."""
    if not isinstance(raw, dict):
        return None, [(field, f"a test must be an object, got {type(raw).__name__}")]
    keys = TEST_KEYS[style]
    issues = [(field, f"missing '{k}' (a {style} test needs {keys})") for k in keys if k not in raw]
    issues += [
        (field, f"unexpected key '{k}' in a {style} test (allowed: {keys})")
        for k in raw
        if k not in keys
    ]
    if issues:
        return None, issues
    if style == "functional":
        if not isinstance(raw["input"], list):
            return None, [(f"{field}.input", "must be a list of positional arguments")]
        return TestCase(input=raw["input"], output=raw["output"]), []
    if style == "stdin":
        bad = [k for k in keys if not isinstance(raw[k], str)]
        if bad:
            return None, [(f"{field}.{k}", "must be a string for a stdin test") for k in bad]
        return TestCase(input=raw["input"], output=raw["output"]), []
    test = raw["test"]
    if not isinstance(test, str) or not test.strip():
        return None, [(f"{field}.test", "must be a non-empty Python program")]
    if not is_python(test):
        return None, [(f"{field}.test", "is not valid Python")]
    return TestCase(test=test), []


def _parse_tests(
    style: str, record: Mapping[str, Any]
) -> tuple[dict[str, tuple[TestCase, ...]], list[tuple[str, str]]]:
    tests: dict[str, tuple[TestCase, ...]] = {}
    issues: list[tuple[str, str]] = []
    for name in ("public_tests", "private_tests"):
        parsed: list[TestCase] = []
        for i, raw in enumerate(record.get(name) or []):
            test, bad = _parse_test(style, raw, f"{name}[{i}]")
            issues += bad
            if test is not None:
                parsed.append(test)
        tests[name] = tuple(parsed)
    if not record.get("public_tests") and not record.get("private_tests"):
        issues.append(("public_tests", "the problem has no tests at all"))
    return tests, issues


def parse_record(record: Any) -> tuple[Problem | None, list[tuple[str, str]]]:
    """A `Problem` from one schema record, or None and every (field, message) that is wrong."""
    if not isinstance(record, dict):
        return None, [("", f"a record must be a JSON object, got {type(record).__name__}")]
    issues = _check_fields(record)
    bad_fields = {f.split(".")[0].split("[")[0] for f, _ in issues}
    style = record.get("test_style")
    if "test_style" not in bad_fields and style not in TEST_STYLES:
        issues.append(("test_style", f"unknown test style {style!r} (allowed: {TEST_STYLES})"))
        bad_fields.add("test_style")
    if style == "functional" and not record.get("fn_name"):
        issues.append(("fn_name", "a functional problem needs the name of the function to call"))
    solution = record.get("solution")
    if isinstance(solution, str) and not is_python(solution):
        issues.append(("solution", "is not valid Python"))
    if "test_style" in bad_fields or any(
        f in bad_fields for f in ("public_tests", "private_tests")
    ):
        return None, issues
    tests, test_issues = _parse_tests(str(style), record)
    issues += test_issues
    if issues:
        return None, issues
    problem = Problem(
        id=record["id"],
        statement=record["statement"],
        test_style=style,  # type: ignore[arg-type]  # checked against TEST_STYLES above
        public_tests=tests["public_tests"],
        private_tests=tests["private_tests"],
        starter_code=record.get("starter_code", ""),
        fn_name=record.get("fn_name"),
        solution=solution,
        difficulty=record.get("difficulty"),
        source=record.get("source", ""),
        split=record.get("split"),
        metadata=record.get("metadata") or {},
    )
    return problem, []
