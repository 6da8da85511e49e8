"""Shared pieces of the code that runs inside the sandbox: plain-data checks, the exceptions that
end a test, traceback text, forking. The message formats are in `protocol`."""

from __future__ import annotations

import contextlib
import ctypes
import linecache
import os
import time
import traceback
from collections.abc import Callable
from typing import Any

# `except BaseException` (noqa: BLE001) is deliberate in the sandbox runtime: candidate code can
# raise anything, SystemExit and KeyboardInterrupt included, and each must become a verdict.

PLAIN = (type(None), bool, int, float, complex, str, bytes)
ERROR_TAIL = 1500


class TestTimeout(BaseException):
    """The per-test wall clock ran out (raised in the judge, never caught by test programs)."""


class OutputLimit(BaseException):
    """The candidate printed more than allowed."""


class Died(BaseException):
    """The candidate process ended without answering."""

    def __init__(self, status: int | None, detail: str = "the candidate process died") -> None:
        super().__init__(status)
        self.status = status
        self.detail = detail


class CandidateError(Exception):
    """An exception raised by candidate code whose type is not a builtin one."""


def no_dump() -> None:
    """PR_SET_DUMPABLE=0: same-uid processes (the candidate) cannot ptrace us or open our fds."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0)


def check_plain(value: Any, depth: int = 0) -> bool:
    """Whether `value` is built only from plain data types (nothing with behaviour)."""
    if depth > 200:
        return False
    kind = type(value)
    if kind in PLAIN:
        return True
    if kind in (list, tuple, set, frozenset):
        return all(check_plain(v, depth + 1) for v in value)
    if kind is dict:
        return all(
            check_plain(k, depth + 1) and check_plain(v, depth + 1) for k, v in value.items()
        )
    return False


RUNTIME_DIR = os.path.dirname(os.path.abspath(__file__))


def traceback_text(err: BaseException) -> str:
    """The traceback without the runtime's own frames (only <solution> and <test> ones)."""
    frames = [
        f for f in traceback.extract_tb(err.__traceback__) if not f.filename.startswith(RUNTIME_DIR)
    ]
    lines = (
        ["Traceback (most recent call last):\n", *traceback.format_list(frames)] if frames else []
    )
    candidate_tb = getattr(err, "candidate_tb", None)
    if isinstance(candidate_tb, str):  # raised by the candidate's code, re-raised in the judge
        lines.append(("The candidate's code raised:\n" if frames else "") + candidate_tb)
    else:
        lines += traceback.format_exception_only(type(err), err)
    return "".join(lines)[-ERROR_TAIL:]


def show_source(filename: str, source: str) -> None:
    """Let tracebacks quote lines of `filename` (the candidate's code, a test program)."""
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)


def exc_message(err: BaseException) -> tuple[str, str, str]:
    return (type(err).__name__, str(err)[:ERROR_TAIL], traceback_text(err))


class BadValue(Exception):
    """The candidate returned an object that is not plain data (e.g. one that overrides ==)."""


def fork(reap: Callable[[], None] | None = None) -> int:
    """fork, retried briefly while the process limit is still held by dying processes (`reap`
    collects those that are our zombies)."""
    for attempt in range(100):
        try:
            return os.fork()
        except BlockingIOError:
            if reap is not None:
                reap()
            time.sleep(0.001 * (attempt + 1))
    return os.fork()
