"""MBPP records (the original release and the `sanitized` one) as `assert`-style schema records (docs/problems.md).

A record has `task_id`, `text` (or `prompt` in the sanitized release), `code` (the reference),
`test_list` (three `assert` lines), `test_setup_code` and `challenge_test_list` (or `test_imports`).
As in the usual MBPP prompt, the statement is the text followed by the three asserts, which name the
function and show its call form; they are also the public tests. The hidden tests are the three
asserts plus the challenge asserts where a record has them. Each test program is the setup code
(and the test imports) followed by one assert. The split follows the task ids of the original
release: 1-10 `prompt`, 11-510 `test`, 511-600 `validation`, 601-974 `train`.
"""

from __future__ import annotations

import ast
from typing import Any

from mars2.problems.records import RecordError

SOURCE = "mbpp"
WRAPPERS = frozenset({"set", "sorted", "abs", "round", "list", "tuple", "str", "int", "float"})
SPLITS = ((1, 10, "prompt"), (11, 510, "test"), (511, 600, "validation"), (601, 974, "train"))


def split_of(task_id: int) -> str | None:
    """The split of the original MBPP release that holds this task id."""
    for low, high, name in SPLITS:
        if low <= task_id <= high:
            return name
    return None


def _called_name(assert_line: str) -> str | None:
    """The name of the first function an assert calls (`assert f(1) == 2` -> `f`)."""
    try:
        tree = ast.parse(assert_line)
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id not in WRAPPERS
        ):
            return node.func.id
    return None


def _string_list(record: dict[str, Any], name: str) -> list[str]:
    value = record.get(name) or []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RecordError(name, "must be a list of strings")
    return value


def convert(record: dict[str, Any]) -> dict[str, Any]:
    """One MBPP record as a schema record (raises RecordError on a bad record)."""
    text = record.get("text", record.get("prompt"))
    if not isinstance(text, str):
        raise RecordError("text", "missing the task text ('text' or 'prompt')")
    task_id = record.get("task_id")
    if not isinstance(task_id, int) or isinstance(task_id, bool):
        raise RecordError("task_id", "must be an integer")
    tests = _string_list(record, "test_list")
    if not tests:
        raise RecordError("test_list", "has no tests")
    challenge = _string_list(record, "challenge_test_list")
    setup_parts = [*_string_list(record, "test_imports"), str(record.get("test_setup_code") or "")]
    setup = "\n".join(part for part in setup_parts if part.strip())
    prefix = setup + "\n" if setup else ""
    code = record.get("code")
    shown = "\n".join(tests)
    return {
        "id": f"mbpp/{task_id}",
        "statement": f"{text.strip()}\nYour code should pass these tests:\n\n{shown}\n",
        "starter_code": "",
        "test_style": "assert",
        "fn_name": _called_name(tests[0]),
        "public_tests": [{"test": prefix + t + "\n"} for t in tests],
        "private_tests": [{"test": prefix + t + "\n"} for t in tests + challenge],
        "solution": code.replace("\r\n", "\n") if isinstance(code, str) else None,
        "difficulty": None,
        "source": SOURCE,
        "split": split_of(task_id),
    }
