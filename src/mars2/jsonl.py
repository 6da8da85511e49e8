"""JSON Lines files: the one reader, with the one rule for a bad line, and the writers.

Every JSONL file mars2 reads (metrics.jsonl, trees, problem sets, solutions, calibration rates,
cached evaluations) goes through `read`. One JSON object per line; blank lines are skipped.
The rule for a bad line (one that is not valid JSON, or not an object):

- the LAST line, when it is also unterminated (no newline after it), is what a process killed
  while writing it leaves behind: it is skipped with a warning naming file and line;
- any other bad line is a `FileError` (a `UserError`: the CLI prints it and exits 2) naming
  the file and the line.

`collect=True` is for validators of input files (`mars2 problems validate`, problem loading),
which report every bad line at once: nothing raises and nothing is skipped, each bad line, a
cut last one included, comes back in order as a `BadLine` among the objects.

Writers write whole lines: `append` adds objects to a log one line per `write` call, flushed,
so a crash cuts at most the last line; `write` replaces a file atomically.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, overload

from mars2.errors import FileError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class BadLine:
    """A line that is not a JSON object (`collect=True` only): why, in words."""

    message: str


Row = tuple[int, dict[str, Any]]  # (1-based line number, the object on that line)


@overload
def read(path: Path, *, collect: Literal[False] = False, warn: bool = True) -> list[Row]: ...


@overload
def read(
    path: Path, *, collect: Literal[True], warn: bool = True
) -> list[tuple[int, dict[str, Any] | BadLine]]: ...


def read(
    path: Path, *, collect: bool = False, warn: bool = True
) -> list[Row] | list[tuple[int, dict[str, Any] | BadLine]]:
    """(line number, object) of every non-blank line of `path`, under the module's rule for bad
    lines. `warn=False` skips a cut last line silently (a check before the file is read again).
    A file that is missing, unreadable or not UTF-8 is a `FileError`."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise FileError(path, 0, f"not UTF-8 text ({err.reason})") from None
    except OSError as err:
        raise FileError(path, 0, f"cannot read ({err.strerror})") from None
    lines = text.split("\n")  # a file that ends with a newline ends with "" here
    rows: list[tuple[int, dict[str, Any] | BadLine]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as err:
            if number == len(lines) and not collect:  # the last line, unterminated
                if warn:
                    log.warning(
                        "%s:%d: the last line is cut off (%s; a process killed while writing "
                        "it?): skipped",
                        path,
                        number,
                        err.msg,
                    )
                break
            problem = f"not valid JSON ({err.msg}, column {err.colno})"
            if not collect:
                raise FileError(
                    path,
                    number,
                    f"{problem}; only an unterminated last line may be cut off (by a kill "
                    "while writing it): fix or remove this line",
                ) from None
            rows.append((number, BadLine(problem)))
            continue
        if not isinstance(value, dict):
            problem = f"expected a JSON object, got {type(value).__name__}"
            if not collect:
                raise FileError(path, number, problem)
            rows.append((number, BadLine(problem)))
            continue
        rows.append((number, value))
    return rows


def line(value: Mapping[str, Any]) -> str:
    """One object as one JSONL line, newline included."""
    return json.dumps(value) + "\n"


def text(values: Iterable[Mapping[str, Any]]) -> str:
    """The objects as a whole JSONL text."""
    return "".join(line(v) for v in values)


def append(path: Path, values: Iterable[Mapping[str, Any]]) -> None:
    """Append each object as one line, written whole and flushed, so a crash leaves at most
    a cut last line (which `read` skips with a warning)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a", encoding="utf-8") as handle:
        for value in values:
            handle.write(line(value))
            handle.flush()


def write(path: Path, values: Iterable[Mapping[str, Any]]) -> Path:
    """Replace `path` with the objects, atomically (a temporary file renamed into place)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text(values), encoding="utf-8")
    os.replace(tmp, path)
    return path
