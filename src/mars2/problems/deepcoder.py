"""DeepCoder-style training records (the DeepCoder-Preview-Dataset format) as filtered problems.

A record (one JSONL line, e.g. a row of agentica-org/DeepCoder-Preview-Dataset written out with
`json.dumps`) has `problem` (the statement; `question` is accepted too), `tests`, and optionally
`starter_code`, `metadata` (a JSON string or object), `source` (or `data_source`), `id` (or
`uid`, `question_id`, `problem_id`), `difficulty`, `contest_date`. `tests` is a JSON string, or
the decoded value, in one of these shapes:

- a list of `{"input", "output", "testtype": "stdin" | "functional"}` (the `lcbv5` subset,
  LiveCodeBench's own form): a functional test's input holds one JSON argument per line and its
  output is JSON; the function is `metadata.func_name`;
- a list of `{"input", "output", "type": "stdin_stdout" | "function_call", "fn_name"}`
  (`primeintellect`, `codeforces`); a function call's input is the list of arguments;
- a list of `{"input", "output"}` with neither marker: functional when a test or `metadata`
  names the function (`fn_name` / `func_name`), else stdin;
- an object `{"inputs": [...], "outputs": [...], "fn_name"?}` (`taco`, the APPS form).

Stdin inputs and outputs are strings (a list of lines is joined with newlines, as APPS writes
some). An expected return value that is a list of one element is unwrapped: the APPS/TACO
convention wraps every return value so (their judges accept the element or the list).

`load` applies the filters of the paper's data preparation, in this order, and counts what each
dropped (`DeepCoderReport`): records whose tests cannot be run (`tests` does not parse, no test,
an unknown test type, mixed types, a function call without a function name, a value of the wrong
type); duplicates (the same statement after `normalise_statement`, the first kept); and, with an
exclusion window, LiveCodeBench-sourced records (source `lcb*` or `livecodebench*`) whose
contest date falls in it, so training never sees an evaluation problem. A line that is not a
JSON object, or a record without a statement or tests, is an error naming file and line.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from mars2.errors import UserError
from mars2.problems.livecodebench import contest_day
from mars2.problems.records import RecordError, raise_on_issues, read_jsonl
from mars2.problems.schema import ProblemIssue, parse_record
from mars2.types import Problem

log = logging.getLogger(__name__)

OPTIONS = ("public", "max_tests", "source", "exclude_since", "exclude_until")
DEFAULT_PUBLIC = 2  # tests shown to the search and in feedback; the rest are hidden
STDIN_TYPES = {"stdin", "stdin_stdout"}
CALL_TYPES = {"functional", "function_call"}
LCB_SOURCES = ("lcb", "livecodebench")


class Unrunnable(RecordError):
    """A record whose tests mars2 cannot run: dropped by the filter and counted by reason."""


@dataclass(frozen=True)
class Settings:
    """How records become problems: `public` tests shown (at least one stays hidden when a
    problem has two or more), at most `max_tests` tests per problem (0: all), the source of
    records that name none, and the LiveCodeBench window to exclude (inclusive dates)."""

    public: int = DEFAULT_PUBLIC
    max_tests: int = 0
    source: str = ""
    exclude_since: date | None = None
    exclude_until: date | None = None


@dataclass
class DeepCoderReport:
    """What `load` read and what each filter dropped."""

    records: int = 0
    unrunnable: Counter[str] = field(default_factory=Counter)  # reason -> records
    duplicates: int = 0
    in_eval_window: int = 0
    lcb_undated: int = 0  # LiveCodeBench records kept because they carry no contest date
    kept: int = 0

    def summary(self) -> str:
        reasons = ", ".join(f"{n} {why}" for why, n in self.unrunnable.most_common())
        parts = [
            f"{self.records} records",
            f"{sum(self.unrunnable.values())} dropped as not runnable"
            + (f" ({reasons})" if reasons else ""),
            f"{self.duplicates} duplicate statements",
            f"{self.in_eval_window} in the excluded LiveCodeBench window",
        ]
        undated = f"; {self.lcb_undated} LiveCodeBench records without a date kept"
        return ", ".join(parts) + f"; {self.kept} kept" + (undated if self.lcb_undated else "")


def normalise_statement(text: str) -> str:
    """The statement as duplicates are compared: Unicode NFKC, case-folded, whitespace runs as
    one space, no leading or trailing space."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def statement_hash(text: str) -> str:
    return hashlib.sha256(normalise_statement(text).encode()).hexdigest()


def _json_value(value: Any, field_name: str) -> Any:
    if isinstance(value, str):
        try:
            return json.loads(value) if value.strip() else None
        except json.JSONDecodeError as err:
            raise Unrunnable(field_name, f"not JSON ({err.msg})") from err
    return value


def _metadata(record: dict[str, Any]) -> dict[str, Any]:
    meta = record.get("metadata")
    if isinstance(meta, str):
        try:
            meta = json.loads(meta) if meta.strip() else {}
        except json.JSONDecodeError as err:
            raise RecordError("metadata", f"not JSON: {err.msg}") from err
    if meta is None:
        return {}
    if not isinstance(meta, dict):
        raise RecordError("metadata", "must be a JSON object")
    return meta


def _as_text(value: Any, where: str) -> str:
    """A stdin input or output: a string, or a list of lines joined (APPS)."""
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "\n".join(value) + ("\n" if value and not value[-1].endswith("\n") else "")
    if not isinstance(value, str):
        raise Unrunnable("tests", f"{where}: a stdin test needs text, got {type(value).__name__}")
    return value


def _unwrap(value: Any) -> Any:
    return value[0] if isinstance(value, list) and len(value) == 1 else value


def _lcb_functional(test: dict[str, Any], where: str) -> dict[str, Any]:
    """LiveCodeBench's functional form: one JSON argument per input line, a JSON output."""
    try:
        lines = str(test["input"]).split("\n")
        args = [json.loads(line) for line in lines if line.strip()]
        output = json.loads(test["output"]) if isinstance(test["output"], str) else test["output"]
    except json.JSONDecodeError as err:
        raise Unrunnable("tests", f"{where}: a functional test is not JSON per line") from err
    return {"input": args, "output": output}


def _call(test: dict[str, Any], where: str) -> dict[str, Any]:
    """A function-call test: the argument list (or its JSON text) and the return value."""
    args = _json_value(test["input"], "tests") if isinstance(test["input"], str) else test["input"]
    if not isinstance(args, list):
        raise Unrunnable("tests", f"{where}: a function call's input must be a list of arguments")
    return {"input": args, "output": _unwrap(test["output"])}


def _from_list(tests: list[Any], meta: dict[str, Any]) -> tuple[str, str | None, list[Any]]:
    if not tests:
        raise Unrunnable("tests", "no tests")
    if not all(isinstance(t, dict) and "input" in t and "output" in t for t in tests):
        raise Unrunnable("tests", "every test needs 'input' and 'output'")
    names = {t.get("fn_name") for t in tests} - {None, ""}
    fn_name = next(iter(names), None) or meta.get("func_name") or meta.get("fn_name")
    kinds = {t.get("testtype") or t.get("type") for t in tests}
    if kinds == {None}:
        kinds = {"function_call" if fn_name else "stdin"}
    if len(kinds) > 1:
        raise Unrunnable("tests", f"mixed test types {sorted(map(str, kinds))}")
    kind = next(iter(kinds))
    if kind in STDIN_TYPES:
        converted = [
            {
                "input": _as_text(t["input"], f"test {i}"),
                "output": _as_text(t["output"], f"test {i}"),
            }
            for i, t in enumerate(tests)
        ]
        return "stdin", None, converted
    if kind not in CALL_TYPES:
        raise Unrunnable("tests", f"unknown test type {kind!r}")
    if kind == "functional":  # LiveCodeBench's text form
        return "functional", fn_name, [_lcb_functional(t, f"test {i}") for i, t in enumerate(tests)]
    return "functional", fn_name, [_call(t, f"test {i}") for i, t in enumerate(tests)]


def _from_columns(tests: dict[str, Any]) -> tuple[str, str | None, list[Any]]:
    inputs, outputs = tests.get("inputs"), tests.get("outputs")
    if not isinstance(inputs, list) or not isinstance(outputs, list):
        raise Unrunnable("tests", "an object of tests needs 'inputs' and 'outputs' lists")
    if len(inputs) != len(outputs):
        raise Unrunnable("tests", f"{len(inputs)} inputs but {len(outputs)} outputs")
    fn_name = tests.get("fn_name") or None
    rows = [{"input": i, "output": o} for i, o in zip(inputs, outputs, strict=True)]
    if fn_name is None:
        return "stdin", None, _from_list(rows, {})[2]
    return "functional", fn_name, [_call(t, f"test {i}") for i, t in enumerate(rows)]


def parse_tests(raw: Any, meta: dict[str, Any]) -> tuple[str, str | None, list[dict[str, Any]]]:
    """(test style, function name, tests as schema tests) from a record's `tests`; raises
    Unrunnable when they cannot be run."""
    tests = _json_value(raw, "tests")
    if isinstance(tests, dict):
        style, fn_name, converted = _from_columns(tests)
    elif isinstance(tests, list):
        style, fn_name, converted = _from_list(tests, meta)
    else:
        raise Unrunnable("tests", f"must be a list or an object, got {type(tests).__name__}")
    if style == "functional" and not (isinstance(fn_name, str) and fn_name):
        raise Unrunnable("tests", "function-call tests without a function name")
    return style, fn_name, converted


def _record_id(record: dict[str, Any], meta: dict[str, Any], statement: str) -> str:
    for key in ("id", "uid", "question_id", "problem_id"):
        for where in (record, meta):
            value = where.get(key)
            if isinstance(value, str | int) and not isinstance(value, bool) and str(value):
                return str(value)
    return f"deepcoder-{statement_hash(statement)[:12]}"


def _contest_day(record: dict[str, Any], meta: dict[str, Any]) -> date | None:
    return contest_day({"contest_date": record.get("contest_date") or meta.get("contest_date")})


def convert(record: dict[str, Any], settings: Settings | None = None) -> dict[str, Any]:
    """One DeepCoder record as a schema record (docs/problems.md). Raises Unrunnable for tests
    that cannot be run, RecordError for a record without a statement or tests."""
    settings = settings or Settings()
    statement = record.get("problem", record.get("question"))
    if not isinstance(statement, str) or not statement.strip():
        raise RecordError("problem", "missing or empty statement ('problem')")
    if "tests" not in record:
        raise RecordError("tests", "missing required field")
    meta = _metadata(record)
    style, fn_name, tests = parse_tests(record["tests"], meta)
    if settings.max_tests:
        tests = tests[: settings.max_tests]
    n_public = min(settings.public, max(len(tests) - 1, 1))
    source = str(record.get("source") or record.get("data_source") or settings.source or "")
    day = _contest_day(record, meta)
    difficulty = record.get("difficulty", meta.get("difficulty"))
    scalars = {k: v for k, v in meta.items() if isinstance(v, str | int | float | bool)}
    starter = record.get("starter_code")
    return {
        "id": _record_id(record, meta, statement),
        "statement": statement,
        "starter_code": starter if isinstance(starter, str) else "",
        "test_style": style,
        "fn_name": fn_name,
        "public_tests": tests[:n_public],
        "private_tests": tests[n_public:],
        "difficulty": str(difficulty).lower() if difficulty not in (None, "") else None,
        "source": f"deepcoder:{source}" if source else "deepcoder",
        "split": "train",
        "metadata": {
            **scalars,
            "source": source or None,
            "contest_date": day.isoformat() if day else None,
            "statement_sha256": statement_hash(statement),
        },
    }


def is_livecodebench(problem: Problem) -> bool:
    return str(problem.metadata.get("source") or "").lower().startswith(LCB_SOURCES)


def in_excluded_window(problem: Problem, settings: Settings) -> bool | None:
    """Whether a LiveCodeBench-sourced problem's contest date is in the exclusion window (None:
    no window, not from LiveCodeBench, or no date)."""
    since, until = settings.exclude_since, settings.exclude_until
    day = problem.metadata.get("contest_date")
    if (since is None and until is None) or not is_livecodebench(problem) or not day:
        return None
    when = date.fromisoformat(str(day))
    return (since is None or when >= since) and (until is None or when <= until)


def load(path: Path, settings: Settings | None = None) -> tuple[list[Problem], DeepCoderReport]:
    """The problems of a DeepCoder JSONL file after the filters, and what each dropped. Raises
    UserError naming file and line for a line that is not a record, or a record without a
    statement or tests."""
    settings = settings or Settings()
    report = DeepCoderReport()
    issues: list[ProblemIssue] = []
    seen: set[str] = set()
    problems: list[Problem] = []
    for line, raw, read_issue in read_jsonl(path):
        if read_issue is not None:
            issues.append(read_issue)
            continue
        report.records += 1
        if not isinstance(raw, dict):
            issues.append(ProblemIssue(str(path), line, "", "a record must be a JSON object"))
            continue
        problem = _problem(path, line, raw, settings, report, issues)
        if problem is None:
            continue
        digest = str(problem.metadata["statement_sha256"])
        if digest in seen:
            report.duplicates += 1
            continue
        seen.add(digest)
        excluded = in_excluded_window(problem, settings)
        if excluded:
            report.in_eval_window += 1
            continue
        window = settings.exclude_since or settings.exclude_until
        if window and is_livecodebench(problem) and excluded is None:
            report.lcb_undated += 1
        problems.append(problem)
    raise_on_issues(f"deepcoder:{path}", issues)
    _rename_repeated_ids(problems)
    report.kept = len(problems)
    log.info("deepcoder:%s: %s", path, report.summary())
    return problems, report


def _problem(
    path: Path,
    line: int,
    raw: dict[str, Any],
    settings: Settings,
    report: DeepCoderReport,
    issues: list[ProblemIssue],
) -> Problem | None:
    """One record's problem; None when it is dropped (counted) or wrong (an issue)."""
    try:
        record = convert(raw, settings)
    except Unrunnable as err:
        report.unrunnable[_reason(err.message)] += 1
        return None
    except RecordError as err:
        issues.append(ProblemIssue(str(path), line, err.field, err.message))
        return None
    problem, bad = parse_record(record)
    if problem is None:  # a value of a type the schema does not take (an output that is None...)
        report.unrunnable["invalid test values"] += 1
        log.debug("%s:%d dropped: %s", path, line, bad)
    return problem


def _reason(message: str) -> str:
    """A drop reason without the test number, so counts group (`test 3: ...` -> `...`)."""
    head, _, rest = message.partition(": ")
    return rest if head.startswith("test ") and rest else message


def _rename_repeated_ids(problems: list[Problem]) -> None:
    """Distinct statements that share an id (two subsets numbering from 0) get `#2`, `#3`..."""
    counts: Counter[str] = Counter()
    for i, p in enumerate(problems):
        counts[p.id] += 1
        if counts[p.id] > 1:
            problems[i] = dataclasses.replace(p, id=f"{p.id}#{counts[p.id]}")


def settings_from(spec: str, options: dict[str, str]) -> Settings:
    """The loader's options from a spec's `?key=value` pairs (sets.OPTIONS lists the others)."""
    values: dict[str, Any] = {}
    for key in ("public", "max_tests"):
        if key in options:
            if not options[key].isdigit():
                raise UserError(f"problem set '{spec}': {key} must be a whole number >= 0")
            values[key] = int(options[key])
    for key in ("exclude_since", "exclude_until"):
        if key in options:
            try:
                values[key] = date.fromisoformat(options[key])
            except ValueError as err:
                raise UserError(
                    f"problem set '{spec}': {key}={options[key]!r} is not YYYY-MM-DD"
                ) from err
    if "source" in options:
        values["source"] = options["source"]
    return Settings(**values)
