"""Read tree node records (`trees/*.jsonl`, docs/training.md, "Run directory") with errors that name
file and line.

Lines are read by mars2.jsonl (a cut last line is skipped with a warning); each object is then
checked field by field here."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from typing import Any

from mars2 import jsonl
from mars2.errors import UserError
from mars2.types import NodeRecord

# field -> (accepted JSON types, description); ints are not bools, floats accept ints.
_FIELDS: dict[str, tuple[tuple[type, ...], str]] = {
    "tree_id": ((str, int), "a string"),
    "problem_id": ((str, int), "a string"),
    "node_id": ((int,), "an integer"),
    "parent_id": ((int, type(None)), "an integer or null"),
    "depth": ((int,), "an integer"),
    "agent_id": ((int,), "an integer"),
    "score": ((int, float), "a number"),
    "reward": ((int, float), "a number"),
    "passed": ((bool,), "true or false"),
    "response_len": ((int,), "an integer"),
    "code": ((str,), "a string"),
    "feedback": ((str,), "a string"),
    "pass_fraction": ((int, float, type(None)), "a number or null"),
    "truncated": ((bool,), "true or false"),
    "version": ((int,), "an integer"),
}
_OPTIONAL = {"response_len", "code", "feedback", "pass_fraction", "truncated", "version"}


def _check_field(where: str, name: str, value: Any) -> None:
    types, what = _FIELDS[name]
    bool_where_number = isinstance(value, bool) and bool not in types
    if bool_where_number or not isinstance(value, types):
        raise UserError(f"{where}: field '{name}' must be {what}, got {value!r}")


def check_node_record(data: dict[str, Any], where: str) -> NodeRecord:
    """A NodeRecord from a decoded JSON object, checking every field's type (ids may be
    numbers: they become strings; scores and rewards must be finite)."""
    for name in _FIELDS:
        if name in data:
            _check_field(where, name, data[name])
        elif name not in _OPTIONAL:
            raise UserError(f"{where}: missing field '{name}'")
    for name in ("score", "reward"):
        if not math.isfinite(data[name]):
            raise UserError(f"{where}: field '{name}' must be finite, got {data[name]!r}")
    record = NodeRecord.from_json(data)
    return dataclasses.replace(
        record, tree_id=str(record.tree_id), problem_id=str(record.problem_id)
    )


def read_node_records(path: str | Path) -> list[NodeRecord]:
    """Every node record of a `trees/*.jsonl` file, each checked (`check_node_record`)."""
    file = Path(path)
    if not file.is_file():
        raise UserError(f"tree file not found: {file}")
    return [check_node_record(data, f"{file}:{number}") for number, data in jsonl.read(file)]
