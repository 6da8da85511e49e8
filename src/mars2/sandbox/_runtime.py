"""The code that runs inside the sandbox: the zygote, the judge and the candidate processes.

Standard library only, and nothing from mars2: it runs as `python -I -S -c <this source>` inside
bubblewrap (or unshare, or bare). See `mars2.sandbox` for the process tree and the trust model.
Protocol with the host: frames of `b"M2" + 4-byte big-endian length + JSON` on the zygote's
stdin (host -> sandbox) and JSON lines on its stdout (sandbox -> host).
"""

from __future__ import annotations

import base64
import builtins

# `except BaseException` (noqa: BLE001) is deliberate in this file: candidate code can raise
# anything, SystemExit and KeyboardInterrupt included, and each must become a verdict.
import contextlib
import ctypes
import gc
import io
import json
import marshal
import os
import resource
import select
import shutil
import signal
import socket
import struct
import sys
import time
import traceback
from typing import Any

# Modules candidates commonly import, loaded once in the zygote so a fork gets them for free.
PRELOAD = "typing collections itertools functools math heapq bisect re string random copy operator"
PLAIN = (type(None), bool, int, float, complex, str, bytes)
MAX_FRAME = 64 * 2**20
ERROR_TAIL = 1500


class _Timeout(BaseException):
    """The per-test wall clock ran out (raised in the judge, never caught by test programs)."""


class _OutputLimit(BaseException):
    """The candidate printed more than allowed."""


class _Died(BaseException):
    """The candidate process ended without answering."""

    def __init__(self, status: int | None, detail: str = "the candidate process died") -> None:
        super().__init__(status)
        self.status = status
        self.detail = detail


class CandidateError(Exception):
    """An exception raised by candidate code whose type is not a builtin one."""


def _no_dump() -> None:
    """PR_SET_DUMPABLE=0: same-uid processes (the candidate) cannot ptrace us or open our fds."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0)


def _emit(event: dict[str, Any]) -> None:
    data = (json.dumps(event) + "\n").encode()
    while data:
        data = data[os.write(1, data) :]


def _read_exact(fd: int, n: int) -> bytes:
    chunks: list[bytes] = []
    while n:
        chunk = os.read(fd, min(n, 1 << 20))
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def _read_frame(fd: int) -> Any:
    head = _read_exact(fd, 6)
    if head[:2] != b"M2":
        raise EOFError("protocol desync")
    return json.loads(_read_exact(fd, struct.unpack(">I", head[2:])[0]))


def _check_plain(value: Any, depth: int = 0) -> bool:
    """Whether `value` is built only from plain data types (nothing with behaviour)."""
    if depth > 200:
        return False
    kind = type(value)
    if kind in PLAIN:
        return True
    if kind in (list, tuple, set, frozenset):
        return all(_check_plain(v, depth + 1) for v in value)
    if kind is dict:
        return all(
            _check_plain(k, depth + 1) and _check_plain(v, depth + 1) for k, v in value.items()
        )
    return False


# ---------------------------------------------------------------------------------------------
# Candidate: runs untrusted code. fd 0 stdin, 1 stdout, 2 stderr, 3 rpc socket to the judge.


def _send(sock: socket.socket, message: Any) -> None:
    data = marshal.dumps(message)
    sock.sendall(struct.pack(">I", len(data)) + data)


def _recv(sock: socket.socket) -> Any:
    head = sock.recv(4, socket.MSG_WAITALL)
    if len(head) < 4:
        raise EOFError
    (n,) = struct.unpack(">I", head)
    return marshal.loads(sock.recv(n, socket.MSG_WAITALL))


def _exc_message(err: BaseException) -> tuple[str, str, str]:
    tb = "".join(traceback.format_exception(type(err), err, err.__traceback__))
    return (type(err).__name__, str(err)[:ERROR_TAIL], tb[-ERROR_TAIL:])


def _become_candidate(hdr: dict[str, Any], workdir: str, n_tests: int) -> None:
    """Limits, clean environment and standard streams for a fresh candidate process."""
    os.setsid()
    lim = hdr["limits"]
    mib = 2**20
    cpu = int(lim["cpu_s"] * (n_tests + 1)) + 1
    for res, value in (
        (resource.RLIMIT_AS, lim["memory_mb"] * mib),
        (resource.RLIMIT_CPU, cpu),
        (resource.RLIMIT_FSIZE, lim["max_file_mb"] * mib),
        (resource.RLIMIT_CORE, 0),
        (resource.RLIMIT_NPROC, lim["max_processes"] if lim["nproc"] else -1),
    ):
        if value < 0:
            continue
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(res, (value, value))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGALRM, signal.SIGCHLD):
        signal.signal(sig, signal.SIG_DFL)
    if hdr.get("drop_uid") and os.geteuid() == 0:
        os.setgroups([])
        os.setgid(65534)
        os.setuid(65534)
    os.chdir(workdir)
    os.environ.clear()
    os.environ.update(HOME=workdir, TMPDIR=workdir, PATH="/usr/bin:/bin", LANG="C.UTF-8")
    import tempfile

    tempfile.tempdir = workdir
    sys.stdin = io.TextIOWrapper(io.BufferedReader(io.FileIO(0, "r", closefd=False)))
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(io.FileIO(1, "w", closefd=False)))
    sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), write_through=True)
    sys.argv = ["solution.py"]


def _load(code: str, name: str) -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": name, "__builtins__": builtins}
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
        elif _check_plain(value):
            out.append((key, "data", value))
    return out


def _target(namespace: dict[str, Any], name: str, functional: bool) -> Any:
    solution = namespace.get("Solution")
    if functional and isinstance(solution, type) and hasattr(solution, name):
        return getattr(solution(), name)
    if name not in namespace:
        raise NameError(f"the code defines no function {name!r}")
    return namespace[name]


def _candidate_rpc(hdr: dict[str, Any], sock: socket.socket) -> None:
    """Load the code, then answer calls from the judge until it hangs up."""
    try:
        namespace = _load(hdr["code"], "__solution__")
        _send(sock, ("loaded", _describe(namespace)))
    except BaseException as err:  # noqa: BLE001
        _send(sock, ("exc", *_exc_message(err)))
        return
    functional = hdr["style"] == "functional"
    while True:
        _op, name, args, kwargs = _recv(sock)
        try:
            value = _target(namespace, name, functional)(*args, **kwargs)
        except BaseException as err:  # noqa: BLE001
            _send(sock, ("exc", *_exc_message(err)))
            continue
        sys.stdout.flush()
        if _check_plain(value):
            _send(sock, ("ok", value))
        else:
            _send(sock, ("bad", type(value).__name__, repr(value)[:300]))


def _candidate_stdin(hdr: dict[str, Any], sock: socket.socket) -> int:
    """Run the program as __main__ on the given stdin; report an uncaught exception."""
    status = 0
    try:
        _load(hdr["code"], "__main__")
    except SystemExit as err:
        if err.code is None or isinstance(err.code, int):
            status = err.code or 0
        else:
            sys.stderr.write(str(err.code) + "\n")
            status = 1
    except BaseException as err:  # noqa: BLE001
        _send(sock, ("exc", *_exc_message(err)))
        status = 1
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        status = status or 1
    return status


def candidate_main(hdr: dict[str, Any], workdir: str, n_tests: int) -> None:
    _become_candidate(hdr, workdir, n_tests)
    sock = socket.socket(fileno=3)
    status = 1
    try:
        tag, code = _recv(sock)  # the judge sends the code first
        hdr = {**hdr, "code": code if tag == "code" and isinstance(code, str) else ""}
        if hdr["style"] == "stdin":
            status = _candidate_stdin(hdr, sock)
        else:
            _candidate_rpc(hdr, sock)
            status = 0
    except BaseException:  # noqa: BLE001
        status = 1
    os._exit(status)


# ---------------------------------------------------------------------------------------------
# Forking candidates: done by the zygote, on the judge's request. The zygote never holds code or
# test data, so nothing a candidate finds in its own memory (a copy of the zygote's) tells it
# what the tests expect, or what earlier candidates wrote.


def _fork_candidate(
    hdr: dict[str, Any], workdir: str, n_tests: int, stdin_fd: int
) -> tuple[int, int, list[int]]:
    rpc_judge, rpc_cand = socket.socketpair()
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    try:
        pid = _fork()
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
            candidate_main(hdr, workdir, n_tests)
        finally:
            os._exit(1)
    os.close(stdin_fd)
    for fd in (out_w, err_w):
        os.close(fd)
    rpc_cand.close()
    ends = [os.dup(rpc_judge.fileno()), out_r, err_r]
    rpc_judge.close()
    return pid, os.pidfd_open(pid), ends


# ---------------------------------------------------------------------------------------------
# Judge: holds the tests (inputs; for `assert` the test programs), drives candidates through
# them with a wall clock per test, and reports raw results to the host on fd 1.


class _Cand:
    """The judge's view of one candidate process."""

    def __init__(self, pid: int, fds: list[int]) -> None:
        self.pid = pid
        self.rpc = socket.socket(fileno=fds[0])
        self.open = {fds[0]: "rpc", fds[1]: "out", fds[2]: "err"}
        self.status: int | None = None
        self.stdout = bytearray()
        self.err_tail = b""
        self.printed = 0
        self.buffer = bytearray()
        self.frames: list[Any] = []


class Judge:
    """Runs the tests of one run against fresh candidate processes forked by the zygote."""

    def __init__(self, hdr: dict[str, Any], ctl: socket.socket, code: str) -> None:
        self.hdr = hdr
        self.code = code
        self.ctl = ctl
        self.limits: dict[str, Any] = hdr["limits"]
        self.cand: _Cand | None = None
        self.exits: dict[int, int] = {}
        self.deadline = 0.0
        self.last_exc = ""

    # -- candidate processes ------------------------------------------------------------------
    def spawn(self, n_tests: int, stdin_data: bytes | None = None) -> _Cand:
        fds: list[int] = []
        if stdin_data is not None:
            memfd = os.memfd_create("stdin")
            os.write(memfd, stdin_data)
            os.lseek(memfd, 0, os.SEEK_SET)
            fds = [memfd]
        socket.send_fds(self.ctl, [b"spawn %d" % n_tests], fds)
        for fd in fds:
            os.close(fd)
        while True:
            spawned = self._on_ctl()
            if spawned is not None:
                cand = self.cand = _Cand(*spawned)
                data = marshal.dumps(("code", self.code))
                cand.rpc.settimeout(max(self.deadline - time.monotonic(), 0.001))
                try:
                    cand.rpc.sendall(struct.pack(">I", len(data)) + data)
                except TimeoutError:
                    raise _Timeout from None
                except OSError:
                    raise _Died(None) from None
                return cand

    def _on_ctl(self) -> tuple[int, list[int]] | None:
        msg, fds, _flags, _addr = socket.recv_fds(self.ctl, 256, 3)
        if not msg:
            raise _Died(None)
        words = msg.split()
        if words[0] == b"failed":
            raise _Died(None, "could not start a candidate process: " + msg[7:].decode())
        if words[0] == b"spawned":
            return int(words[1]), fds
        pid, status = int(words[1]), int(words[2])
        self.exits[pid] = status
        if self.cand is not None and self.cand.pid == pid:
            self.cand.status = status
        return None

    def kill(self) -> None:
        cand, self.cand = self.cand, None
        if cand is None:
            return
        for kill in (os.killpg, os.kill):
            with contextlib.suppress(OSError):
                kill(cand.pid, signal.SIGKILL)
        for fd, kind in list(cand.open.items()):
            if kind != "rpc":
                os.close(fd)
        cand.rpc.close()

    def pump(self, cand: _Cand, until: str) -> Any:
        """Drain the candidate's output until it replies (`reply`) or ends (`exit`)."""
        while True:
            if until == "reply" and cand.frames:
                return cand.frames.pop(0)
            done = cand.status is not None and not [k for k in cand.open.values() if k != "rpc"]
            if until == "exit" and done:
                return None
            if until == "reply" and cand.status is not None and "rpc" not in cand.open.values():
                raise _Died(cand.status)
            remaining = self.deadline - time.monotonic()
            if remaining <= 0:
                raise _Timeout
            watch = [self.ctl.fileno(), *cand.open]
            ready, _, _ = select.select(watch, [], [], remaining)
            for fd in ready:
                if fd == self.ctl.fileno():
                    if self._on_ctl() is not None:
                        raise _Died(None)
                else:
                    self._read(cand, fd)

    def _read(self, cand: _Cand, fd: int) -> None:
        data = os.read(fd, 1 << 16)
        kind = cand.open[fd]
        if not data:
            del cand.open[fd]
            if kind != "rpc":
                os.close(fd)
            return
        if kind == "rpc":
            cand.buffer += data
            self._frames(cand)
            return
        cand.printed += len(data)
        if cand.printed > self.limits["max_output_bytes"]:
            raise _OutputLimit
        if kind == "out" and self.hdr["style"] == "stdin":
            cand.stdout += data
        elif kind == "err":
            cand.err_tail = (cand.err_tail + data)[-ERROR_TAIL:]

    def _frames(self, cand: _Cand) -> None:
        while len(cand.buffer) >= 4:
            (n,) = struct.unpack(">I", cand.buffer[:4])
            if n > max(self.limits["max_output_bytes"], 1 << 20):
                raise _OutputLimit
            if len(cand.buffer) < 4 + n:
                return
            raw, cand.buffer = bytes(cand.buffer[4 : 4 + n]), cand.buffer[4 + n :]
            try:
                message = marshal.loads(raw)
            except (ValueError, EOFError, TypeError):
                message = ("garbage",)
            cand.frames.append(message if _check_plain(message) else ("garbage",))

    # -- calling into the candidate ------------------------------------------------------------
    def call(self, name: str, args: Any, kwargs: Any) -> Any:
        cand = self.cand
        if cand is None:
            raise _Died(None)
        if not _check_plain((args, kwargs)):
            raise TypeError("only plain data can be passed to the candidate's functions")
        data = marshal.dumps(("call", name, tuple(args), dict(kwargs)))
        cand.rpc.settimeout(max(self.deadline - time.monotonic(), 0.001))
        try:
            cand.rpc.sendall(struct.pack(">I", len(data)) + data)
        except TimeoutError:
            raise _Timeout from None
        except OSError:
            raise _Died(cand.status) from None
        reply = self.pump(cand, "reply")
        return self._unwrap(reply)

    def _unwrap(self, reply: Any) -> Any:
        tag = reply[0] if isinstance(reply, tuple) and reply else None
        if tag == "ok" and len(reply) == 2:
            return reply[1]
        if tag == "bad" and len(reply) == 3:
            raise _BadValue(f"returned {reply[1]!s} {reply[2]!s}, not plain data")
        if tag == "exc" and len(reply) == 4 and all(isinstance(x, str) for x in reply[1:]):
            self.last_exc = reply[1]
            kind = getattr(builtins, reply[1], None)
            message = f"{reply[3]}"
            if isinstance(kind, type) and issubclass(kind, Exception) and kind is not _BadValue:
                try:
                    raise kind(message)
                except TypeError:
                    pass
            raise CandidateError(message)
        raise _Died(None)

    def proxy(self, name: str) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            return self.call(name, args, kwargs)

        call.__name__ = call.__qualname__ = name
        return call


class _BadValue(Exception):
    """The candidate returned an object that is not plain data (e.g. one that overrides ==)."""


def _on_alarm(signum: int, frame: Any) -> None:
    raise _Timeout


def _signal_verdict(status: int) -> tuple[str, str]:
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig == signal.SIGXCPU:
            return "timeout", "CPU time limit exceeded"
        return "error", f"the process was killed by signal {signal.Signals(sig).name}"
    return "error", f"the process exited with status {os.WEXITSTATUS(status)}"


def _exc_verdict(judge: Judge, err: BaseException) -> tuple[str, str]:
    """Verdict and detail for an exception that ended a test."""
    if isinstance(err, _Timeout):
        return "timeout", "timed out"
    if isinstance(err, _OutputLimit):
        return "output_limit", "output limit exceeded"
    if isinstance(err, _Died):
        if err.status is not None:
            return _signal_verdict(err.status)
        return "error", err.detail
    tb = "".join(traceback.format_exception(type(err), err, err.__traceback__))[-ERROR_TAIL:]
    if isinstance(err, MemoryError) or judge.last_exc == "MemoryError":
        return "memory", tb
    if isinstance(err, AssertionError):
        return "wrong", tb
    if isinstance(err, _BadValue):
        return "wrong", str(err)
    return "error", tb


def _result(i: int, verdict: str, start: float, **extra: Any) -> None:
    _emit({"ev": "test", "i": i, "verdict": verdict, "time": time.monotonic() - start, **extra})


def _load_candidate(judge: Judge, remaining: int) -> dict[str, Any] | tuple[str, str]:
    """A fresh candidate with the code loaded: its namespace for the judge, or why it failed."""
    judge.deadline = time.monotonic() + judge.limits["timeout_s"]
    judge.last_exc = ""
    try:
        cand = judge.spawn(remaining)
        reply = judge.pump(cand, "reply")
        if isinstance(reply, tuple) and reply and reply[0] == "loaded":
            return _namespace(judge, reply[1])
        judge._unwrap(reply)
        return "error", "the candidate sent a malformed reply"
    except BaseException as err:  # noqa: BLE001
        judge.kill()
        verdict, detail = _exc_verdict(judge, err)
        if verdict == "error" and isinstance(err, CandidateError | Exception):
            detail = str(err)
        return verdict, detail


def _namespace(judge: Judge, described: Any) -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": "__main__", "__builtins__": builtins}
    for entry in described if isinstance(described, list) else ():
        if not (isinstance(entry, tuple) and len(entry) == 3 and isinstance(entry[0], str)):
            continue
        name, kind, value = entry
        if kind == "data":
            namespace[name] = value
        elif kind == "call":
            namespace[name] = judge.proxy(name)
        elif kind == "module" and isinstance(value, str) and value in sys.modules:
            namespace[name] = sys.modules[value]
        elif kind == "module" and isinstance(value, str):
            with contextlib.suppress(BaseException):
                namespace[name] = __import__(value)
    return namespace


def _run_one(judge: Judge, style: str, test: Any, namespace: dict[str, Any]) -> dict[str, Any]:
    """One functional or assert test against the current candidate."""
    if style == "functional":
        value = judge.call(judge.hdr["fn_name"], test, {})
        try:
            return {"verdict": "ran", "value": json.loads(json.dumps(value))}
        except (TypeError, ValueError):
            return {"verdict": "wrong", "detail": f"not a JSON value: {repr(value)[:300]}"}
    exec(test, dict(namespace))
    return {"verdict": "pass"}


def _test_program(test: Any) -> Any:
    """An assert test's code object: compiled by the host (marshal, base64) or from source."""
    if isinstance(test, dict) and test.get("bin"):
        return marshal.loads(base64.b64decode(test["bin"]))
    source = test.get("src", "") if isinstance(test, dict) else str(test)
    return compile(source, "<test>", "exec")


def run_rpc_tests(judge: Judge, tests: list[Any]) -> None:
    """functional / assert: one candidate process serves tests in order until it fails."""
    style = judge.hdr["style"]
    namespace: dict[str, Any] | None = None
    signal.signal(signal.SIGALRM, _on_alarm)
    for i, raw in enumerate(tests):
        start = time.monotonic()
        try:
            test = _test_program(raw) if style == "assert" else raw
        except (SyntaxError, ValueError, TypeError, EOFError) as err:
            _result(i, "infra", start, detail=f"the test program does not compile: {err}")
            continue
        if judge.cand is None:
            loaded = _load_candidate(judge, len(tests) - i)
            if isinstance(loaded, tuple):
                for j in range(i, len(tests)):
                    _result(j, loaded[0], start, detail=loaded[1], load=True)
                return
            namespace = loaded
        judge.deadline = time.monotonic() + judge.limits["timeout_s"]
        judge.last_exc = ""
        signal.setitimer(signal.ITIMER_REAL, judge.limits["timeout_s"] + 0.05)
        try:
            outcome = _run_one(judge, style, test, namespace or {})
        except BaseException as err:  # noqa: BLE001
            signal.setitimer(signal.ITIMER_REAL, 0)
            verdict, detail = _exc_verdict(judge, err)
            if isinstance(err, _Timeout | _OutputLimit | _Died):
                judge.kill()
            outcome = {"verdict": verdict, "detail": detail}
        signal.setitimer(signal.ITIMER_REAL, 0)
        _result(i, start=start, **outcome)


def run_stdin_tests(judge: Judge, tests: list[Any]) -> None:
    """stdin: a fresh candidate process per test, fed the input, its stdout captured."""
    for i, test in enumerate(tests):
        start = time.monotonic()
        judge.deadline = start + judge.limits["timeout_s"]
        data = test.encode("utf-8", "surrogatepass") if isinstance(test, str) else b""
        try:
            cand = judge.spawn(1, data)
            judge.pump(cand, "exit")
        except BaseException as err:  # noqa: BLE001
            judge.kill()
            verdict, detail = _exc_verdict(judge, err)
            _result(i, verdict, start, detail=detail)
            continue
        judge.kill()
        assert cand.status is not None
        exc = [f for f in cand.frames if isinstance(f, tuple) and f and f[0] == "exc"]
        if exc and len(exc[0]) == 4:
            verdict = "memory" if exc[0][1] == "MemoryError" else "error"
            _result(i, verdict, start, detail=str(exc[0][3]))
        elif cand.status != 0:
            verdict, detail = _signal_verdict(cand.status)
            tail = cand.err_tail.decode("utf-8", "replace")
            _result(i, verdict, start, detail=f"{detail}\n{tail}".strip())
        else:
            _result(i, "ran", start, stdout=cand.stdout.decode("utf-8", "replace"))


def judge_main(hdr: dict[str, Any], consumed: int, ctl: socket.socket) -> None:
    """Read this run's code and tests (the frames after the header on fd 0), then drive
    candidates, which the zygote forks on request over `ctl`, through the tests."""
    code = _read_frame(0)["code"]
    tests = _read_frame(0)["tests"]
    os.write(consumed, b"1")
    os.close(consumed)
    judge = Judge(hdr, ctl, code if isinstance(code, str) else "")
    try:
        if hdr["style"] == "stdin":
            run_stdin_tests(judge, tests)
        else:
            run_rpc_tests(judge, tests)
    finally:
        judge.kill()


# ---------------------------------------------------------------------------------------------
# Zygote: forks a judge per run, enforces the run's deadline, then kills everything left.


def _sweep(hdr: dict[str, Any], judge_pid: int) -> None:
    """Kill every process the run started. In our own pid namespace that is everyone but us."""
    me = os.getpid()
    if not (hdr["own_pidns"] and me <= 2):
        for target in (judge_pid,):
            with contextlib.suppress(OSError):
                os.killpg(target, signal.SIGKILL)
        return
    # One kill(-1) reaches every process (a fork racing with it fails on the pending SIGKILL);
    # orphans are re-parented to us (pid 1), so reaping until ECHILD empties the namespace.
    with contextlib.suppress(OSError):
        os.kill(-1, signal.SIGKILL)
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, 2.0)
    try:
        while True:
            os.waitpid(-1, 0)
    except (ChildProcessError, _Timeout):
        pass
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    for _ in range(1000):  # belt and braces: whatever is still listed in /proc
        if not _others(me):
            return
        with contextlib.suppress(OSError):
            os.kill(-1, signal.SIGKILL)
        _reap()
        time.sleep(0.002)


def _reap() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _others(me: int) -> list[int]:
    """Other processes in our pid namespace, zombies included (they still hold a pid)."""
    return [int(n) for n in os.listdir("/proc") if n.isdigit() and int(n) not in (1, me)]


def _fork() -> int:
    """fork, retried briefly while the process limit is still held by dying processes."""
    for attempt in range(100):
        try:
            return os.fork()
        except BlockingIOError:
            time.sleep(0.001 * (attempt + 1))
    return os.fork()


def _clean_tmp(hdr: dict[str, Any], workdir: str) -> None:
    shutil.rmtree(workdir, ignore_errors=True)
    if hdr["own_tmp"]:
        for name in os.listdir("/tmp"):
            path = os.path.join("/tmp", name)
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path, ignore_errors=True)
            else:
                with contextlib.suppress(OSError):
                    os.unlink(path)


def zygote_run(hdr: dict[str, Any]) -> None:
    import tempfile

    workdir = tempfile.mkdtemp(prefix="mars2-run-", dir=hdr["tmp_base"])
    if hdr.get("drop_uid") and os.geteuid() == 0:
        os.chown(workdir, 65534, 65534)
    consumed_r, consumed_w = os.pipe()
    ctl, ctl_judge = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    pid = _fork()
    if pid == 0:
        try:
            os.close(consumed_r)
            ctl.close()
            os.setpgid(0, 0)
            judge_main(hdr, consumed_w, ctl_judge)
        except BaseException as err:  # noqa: BLE001
            if not isinstance(err, SystemExit):
                _emit({"ev": "infra", "detail": traceback.format_exc()[-ERROR_TAIL:]})
        finally:
            os._exit(0)
    os.close(consumed_w)
    ctl_judge.close()
    status, live = _serve(hdr, workdir, pid, ctl)
    for fd, cand_pid in live.items():
        with contextlib.suppress(OSError):
            os.killpg(cand_pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            os.kill(cand_pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(cand_pid, 0)
        os.close(fd)
    ctl.close()
    _sweep(hdr, pid)
    _clean_tmp(hdr, workdir)
    os.set_blocking(consumed_r, False)
    try:
        lost = os.read(consumed_r, 1) != b"1"
    except BlockingIOError:
        lost = True
    os.close(consumed_r)
    if lost:  # part of this run's input may still sit on fd 0: this worker cannot go on
        _emit({"ev": "done", "status": "lost_input"})
        os._exit(0)
    _emit({"ev": "done", "status": status})


def _serve(
    hdr: dict[str, Any], workdir: str, judge: int, ctl: socket.socket
) -> tuple[str, dict[int, int]]:
    """Fork candidates for the judge and report their exits, until it ends or the deadline."""
    deadline = time.monotonic() + hdr["deadline_s"]
    judge_fd = os.pidfd_open(judge)
    live: dict[int, int] = {}  # pidfd -> pid of candidates
    watch_ctl = True
    status = "ok"
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            status = "judge_deadline"
            with contextlib.suppress(OSError):
                os.killpg(judge, signal.SIGKILL)
            break
        fds = [judge_fd, *live] + ([ctl.fileno()] if watch_ctl else [])
        ready, _, _ = select.select(fds, [], [], remaining)
        if judge_fd in ready:
            break
        for fd in ready:
            if fd == ctl.fileno():
                watch_ctl = _spawn_for(hdr, workdir, ctl, live)
            else:
                cand = live.pop(fd)
                os.close(fd)
                _, cand_status = os.waitpid(cand, 0)
                with contextlib.suppress(OSError):
                    ctl.send(b"exit %d %d" % (cand, cand_status))
    _, judge_status = os.waitpid(judge, 0)
    os.close(judge_fd)
    if status == "ok" and judge_status != 0:
        status = "judge_died"
    return status, live


def _spawn_for(hdr: dict[str, Any], workdir: str, ctl: socket.socket, live: dict[int, int]) -> bool:
    """Serve one request from the judge; False once it hung up."""
    try:
        msg, fds, _flags, _addr = socket.recv_fds(ctl, 256, 1)
    except OSError:
        return False
    if not msg:
        return False
    n_tests = int(msg.split()[1])
    stdin_fd = fds[0] if fds else os.open(os.devnull, os.O_RDONLY)
    try:
        pid, pidfd, ends = _fork_candidate(hdr, workdir, n_tests, stdin_fd)
    except OSError as err:  # e.g. the process limit, held by the run's own processes
        os.close(stdin_fd)
        with contextlib.suppress(OSError):
            ctl.send(b"failed " + str(err).encode()[:200])
        return True
    live[pidfd] = pid
    with contextlib.suppress(OSError):
        socket.send_fds(ctl, [b"spawned %d" % pid], ends)
    for end in ends:
        os.close(end)
    return True


def zygote_main() -> None:
    _no_dump()
    for name in PRELOAD.split():
        with contextlib.suppress(ImportError):
            __import__(name)
    # Objects that exist now are never collected: forks then leave their pages shared instead
    # of touching them in a collection (cheaper forks).
    gc.freeze()
    _emit({"ev": "ready", "pid": os.getpid(), "uid": os.getuid()})
    while True:
        try:
            hdr = _read_frame(0)
        except (EOFError, OSError, ValueError):
            os._exit(0)
        zygote_run(hdr)


if __name__ == "__main__":
    zygote_main()
