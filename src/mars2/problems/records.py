"""Read JSONL records with line numbers and turn them into `Problem`s, collecting every issue."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from mars2 import jsonl
from mars2.errors import UserError
from mars2.problems.schema import ProblemIssue, parse_record
from mars2.types import Problem

# A converter turns one raw record of some other format into a schema record; it raises
# RecordError for a raw record it cannot convert.
Converter = Callable[[dict[str, Any]], dict[str, Any]]


class RecordError(Exception):
    """A raw record that a converter cannot turn into a schema record."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def read_jsonl(path: Path) -> Iterator[tuple[int, Any | None, ProblemIssue | None]]:
    """(line number, parsed object or None, issue or None) for every non-blank line: a
    problem file is read by mars2.jsonl in its `collect` mode, so every bad line (a cut last
    one included) is an issue reported with the others, never skipped."""
    if not path.is_file():
        raise UserError(f"problem file not found: {path}")
    for number, value in jsonl.read(path, collect=True):
        if isinstance(value, jsonl.BadLine):
            yield number, None, ProblemIssue(str(path), number, "", value.message)
        else:
            yield number, value, None


def convert_records(
    file: str,
    rows: Iterable[tuple[int, Any | None, ProblemIssue | None]],
    converter: Converter | None = None,
) -> tuple[list[Problem], list[ProblemIssue], dict[str, int]]:
    """Every good problem, every issue (bad JSON, bad fields, bad tests, duplicate ids), and the
    line each problem id was first seen on."""
    problems: list[Problem] = []
    issues: list[ProblemIssue] = []
    first_line: dict[str, int] = {}
    for line, raw, read_issue in rows:
        if read_issue is not None:
            issues.append(read_issue)
            continue
        record = raw
        if converter is not None:
            if not isinstance(raw, dict):
                issues.append(ProblemIssue(file, line, "", "a record must be a JSON object"))
                continue
            try:
                record = converter(raw)
            except RecordError as err:
                issues.append(ProblemIssue(file, line, err.field, err.message, _raw_id(raw)))
                continue
        problem, bad = parse_record(record)
        pid = _raw_id(record)
        issues += [ProblemIssue(file, line, field, msg, pid) for field, msg in bad]
        if pid is not None:
            if pid in first_line:
                msg = f"duplicate id {pid!r} (first seen on line {first_line[pid]})"
                issues.append(ProblemIssue(file, line, "id", msg, pid))
                continue
            first_line[pid] = line
        if problem is not None:
            problems.append(problem)
    return problems, issues, first_line


def _raw_id(record: Any) -> str | None:
    if isinstance(record, dict):
        for key in ("id", "task_id", "question_id"):
            if isinstance(record.get(key), str | int) and not isinstance(record.get(key), bool):
                return str(record[key])
    return None


def raise_on_issues(source: str, issues: list[ProblemIssue], shown: int = 10) -> None:
    """A UserError listing the first `shown` issues, when there are any."""
    if not issues:
        return
    lines = [str(issue) for issue in issues[:shown]]
    more = f"\n... and {len(issues) - shown} more" if len(issues) > shown else ""
    hint = "\n(run `mars2 problems validate` on the file to see them all)"
    raise UserError(
        f"{source}: {len(issues)} invalid problem record(s):\n" + "\n".join(lines) + more + hint
    )
