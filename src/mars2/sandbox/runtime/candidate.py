"""The candidate process: limits, clean environment, then the untrusted code (loaded, then
serving calls from the judge, or run as __main__ on a given stdin)."""

from __future__ import annotations

import builtins
import contextlib
import io
import os
import resource
import socket
import sys
from collections.abc import Callable
from typing import Any

from .common import check_plain, exc_message, fork, show_source
from .protocol import SANDBOX_UID, Rpc, RunHeader, recv_message, send_message

# `except BaseException` (noqa: BLE001) is deliberate in the sandbox runtime: candidate code can
# raise anything, SystemExit and KeyboardInterrupt included, and each must become a verdict.


def _become_candidate(header: RunHeader, workdir: str, n_tests: int) -> None:
    """Limits, clean environment and standard streams for a fresh candidate process."""
    os.setpgid(0, 0)  # its own process group (setsid would also make a new autogroup)
    lim = header.limits
    mib = 2**20
    for res, value in (
        (resource.RLIMIT_AS, lim.memory_mb * mib),
        (resource.RLIMIT_CPU, lim.cpu_limit_s(n_tests)),
        (resource.RLIMIT_FSIZE, lim.max_file_mb * mib),
        (resource.RLIMIT_CORE, 0),
        (resource.RLIMIT_NPROC, lim.max_processes if lim.nproc else -1),
    ):
        if value < 0:
            continue
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(res, (value, value))
    # Signal dispositions and the environment were set by the zygote (see
    # `zygote.candidate_defaults`): forks inherit them, and setting them here costs page faults.
    if header.drop_uid and os.geteuid() == 0:
        os.setgroups([])
        os.setgid(SANDBOX_UID)
        os.setuid(SANDBOX_UID)
    os.chdir(workdir)
    sys.argv = ["solution.py"]


def standard_streams() -> None:
    """sys.stdin/stdout/stderr on fds 0-2 for candidates, made once by the zygote (which never
    reads or writes them, so every fork inherits them with empty buffers): building them in
    each candidate costs ~0.2 ms of page faults. A candidate's fork puts its own stdin, stdout
    and stderr on those fds before it runs any code."""
    sys.stdin = io.TextIOWrapper(
        io.BufferedReader(io.FileIO(0, "r", closefd=False)), encoding="utf-8"
    )
    sys.stdout = io.TextIOWrapper(
        io.BufferedWriter(io.FileIO(1, "w", closefd=False)), encoding="utf-8"
    )
    sys.stderr = io.TextIOWrapper(
        io.FileIO(2, "w", closefd=False), encoding="utf-8", write_through=True
    )


def _load(code: str, name: str) -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": name, "__builtins__": builtins}
    show_source("<solution>", code)
    exec(compile(code, "<solution>", "exec"), namespace)
    return namespace


def _describe(namespace: dict[str, Any]) -> list[tuple[str, str, Any]]:
    """The candidate's top-level names as the judge may use them: plain data, callables, modules."""
    out: list[tuple[str, str, Any]] = []
    for key, value in list(namespace.items()):
        if key.startswith("__"):
            continue
        if type(value).__name__ == "module":
            out.append((key, "module", str(getattr(value, "__name__", ""))))
        elif callable(value):
            out.append((key, "call", None))
        elif check_plain(value):
            out.append((key, "data", value))
    return out


def _target(namespace: dict[str, Any], name: str, functional: bool) -> Any:
    solution = namespace.get("Solution")
    if functional and isinstance(solution, type) and hasattr(solution, name):
        return getattr(solution(), name)
    if name not in namespace:
        raise NameError(f"the code defines no function {name!r}")
    return namespace[name]


def _candidate_rpc(code: str, functional: bool, sock: socket.socket) -> None:
    """Load the code, then answer calls from the judge until it hangs up."""
    try:
        namespace = _load(code, "__solution__")
        send_message(sock, (Rpc.LOADED, _describe(namespace)))
    except BaseException as err:  # noqa: BLE001
        send_message(sock, (Rpc.EXC, *exc_message(err)))
        return
    while True:
        _op, name, args, kwargs = recv_message(sock)
        try:
            value = _target(namespace, name, functional)(*args, **kwargs)
        except BaseException as err:  # noqa: BLE001
            send_message(sock, (Rpc.EXC, *exc_message(err)))
            continue
        sys.stdout.flush()
        if check_plain(value):
            send_message(sock, (Rpc.OK, value))
        else:
            send_message(sock, (Rpc.BAD, type(value).__name__, repr(value)[:300]))


def _candidate_stdin(code: str, sock: socket.socket) -> int:
    """Run the program as __main__ on the given stdin; report an uncaught exception."""
    status = 0
    try:
        _load(code, "__main__")
    except SystemExit as err:
        if err.code is None or isinstance(err.code, int):
            status = err.code or 0
        else:
            sys.stderr.write(str(err.code) + "\n")
            status = 1
    except BaseException as err:  # noqa: BLE001
        send_message(sock, (Rpc.EXC, *exc_message(err)))
        status = 1
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        status = status or 1
    return status


def candidate_main(header: RunHeader, workdir: str, n_tests: int) -> None:
    _become_candidate(header, workdir, n_tests)
    sock = socket.socket(fileno=3)
    status = 1
    try:
        tag, code = recv_message(sock)  # the judge sends the code first
        code = code if tag == Rpc.CODE and isinstance(code, str) else ""
        if header.style == "stdin":
            status = _candidate_stdin(code, sock)
        else:
            _candidate_rpc(code, header.style == "functional", sock)
            status = 0
    except BaseException:  # noqa: BLE001
        status = 1
    os._exit(status)


# ---------------------------------------------------------------------------------------------
# Forking candidates: done by the zygote, on the judge's request. The zygote never holds code or
# test data, so nothing a candidate finds in its own memory (a copy of the zygote's) tells it
# what the tests expect, or what earlier candidates wrote.


def fork_candidate(
    header: RunHeader,
    workdir: str,
    n_tests: int,
    stdin_fd: int,
    reap: Callable[[], None] | None = None,
) -> tuple[int, int, list[int]]:
    rpc_judge, rpc_cand = socket.socketpair()
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    try:
        pid = fork(reap)
    except OSError:
        for fd in (out_r, out_w, err_r, err_w):
            os.close(fd)
        rpc_judge.close()
        rpc_cand.close()
        raise
    if pid == 0:
        try:
            for src, dst in ((stdin_fd, 0), (out_w, 1), (err_w, 2), (rpc_cand.fileno(), 3)):
                os.dup2(src, dst)
            os.closerange(4, 65536)
            candidate_main(header, workdir, n_tests)
        finally:
            os._exit(1)
    os.close(stdin_fd)
    for fd in (out_w, err_w):
        os.close(fd)
    rpc_cand.close()
    ends = [os.dup(rpc_judge.fileno()), out_r, err_r]
    rpc_judge.close()
    return pid, os.pidfd_open(pid), ends


def warm_up() -> None:
    """Run the candidate's own code paths here, before the zygote is forked: Python 3.11
    rewrites a function's bytecode in place as it warms up, and in a fresh fork every such
    write copies a page. The code loaded is this constant, never a candidate's."""
    ours, theirs = socket.socketpair()
    for i in range(64):
        namespace = _load("def f(x):\n    return [x, {'k': (x, 'v')}]\n", "__solution__")
        described = _describe(namespace)
        send_message(ours, (Rpc.CALL, "f", (i,), {}))
        _op, name, args, kwargs = recv_message(theirs)
        value = _target(namespace, name, True)(*args, **kwargs)
        send_message(theirs, (Rpc.OK, value) if check_plain(value) else (Rpc.BAD,))
        recv_message(ours)
        check_plain(described)
        exc_message(ValueError(i))
    ours.close()
    theirs.close()
