"""Shared cases for the sandbox tests: short limits, secret-answer problems, process listing."""

from __future__ import annotations

from pathlib import Path

from mars2.config import SandboxConfig
from mars2.types import Problem, TestCase

FAST = SandboxConfig(
    workers=1,
    timeout_s=1.0,
    cpu_s=1.0,
    memory_mb=256,
    max_processes=16,
    max_file_mb=1,
    max_output_bytes=65536,
)

# The secret answers: a hostile program passes only if it learns them some forbidden way.
SECRET = {3: 987654, 4: 123457}
FUNC = Problem(
    "secret-f",
    "f(x) returns the secret for x",
    "functional",
    (TestCase([3], SECRET[3]),),
    (TestCase([4], SECRET[4]),),
    fn_name="f",
)
ASSERT = Problem(
    "secret-a",
    "f(x) returns the secret for x",
    "assert",
    (TestCase(test=f"assert f(3) == {SECRET[3]}"),),
    (TestCase(test=f"assert f(4) == {SECRET[4]}"),),
)
STDIN = Problem(
    "secret-s",
    "print the secret for the number on stdin",
    "stdin",
    (TestCase("3\n", f"{SECRET[3]}\n"),),
    (TestCase("4\n", f"{SECRET[4]}\n"),),
)
REFERENCE = "SECRET = {3: 987654, 4: 123457}\ndef f(x):\n    return SECRET[x]\n"
REFERENCE_STDIN = "print({3: 987654, 4: 123457}[int(input())])\n"


def descendants(pid: int) -> set[int]:
    """Every live process below `pid` (through /proc/*/task/*/children)."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        current = todo.pop()
        for task in Path(f"/proc/{current}/task").glob("*"):
            try:
                children = (task / "children").read_text().split()
            except OSError:
                continue
            for child in map(int, children):
                if child not in found:
                    found.add(child)
                    todo.append(child)
    return found
