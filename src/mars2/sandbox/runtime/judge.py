"""The judge: drives candidate processes through the tests with a wall clock per test and
reports raw results to the host (fd 1). It holds the code and the tests of every run of its
worker (it is the worker's pid 1 and lives as long as the worker); it never forks after
start-up."""

from __future__ import annotations

import base64
import builtins
import contextlib
import json
import marshal
import math
import os
import select
import signal
import socket
import sys
import time
from typing import Any

from .common import (
    ERROR_TAIL,
    BadValue,
    CandidateError,
    Died,
    OutputLimit,
    TestTimeout,
    check_plain,
    show_source,
    traceback_text,
)
from .protocol import (
    ALARM_EARLY_S,
    LENGTH,
    RUN_DIED,
    RUN_OK,
    SWEEP_WAIT_S,
    AssertTest,
    Ctl,
    Limits,
    Rpc,
    RunHeader,
    TestReport,
    ctl_message,
    ctl_split,
    emit,
    pack_message,
    read_run,
    run_request,
)

# `except BaseException` (noqa: BLE001) is deliberate in the sandbox runtime: candidate code can
# raise anything, SystemExit and KeyboardInterrupt included, and each must become a verdict.

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

    def __init__(self, header: RunHeader, ctl: socket.socket, code: str) -> None:
        self.header = header
        self.code = code
        self.ctl = ctl
        self.limits: Limits = header.limits
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
        try:
            socket.send_fds(self.ctl, [ctl_message(Ctl.SPAWN, n_tests)], fds)
        except OSError:
            raise Died(None, "the sandbox's zygote is gone (killed by a candidate?)") from None
        finally:
            for fd in fds:
                os.close(fd)
        while True:
            remaining = self.deadline - time.monotonic()
            if remaining <= 0 or not select.select([self.ctl], [], [], remaining)[0]:
                raise TestTimeout
            spawned = self._on_ctl()
            if spawned is not None:
                cand = self.cand = _Cand(*spawned)
                self._send(cand, (Rpc.CODE, self.code))
                return cand

    def _on_ctl(self) -> tuple[int, list[int]] | None:
        msg, fds, _flags, _addr = socket.recv_fds(self.ctl, Ctl.MAX_REPLY, 3)
        if not msg:
            raise Died(None)
        verb, rest = ctl_split(msg)
        if verb == Ctl.FAILED:
            raise Died(None, "could not start a candidate process: " + rest.decode())
        if verb == Ctl.SPAWNED:
            return int(rest), fds
        assert verb == Ctl.EXIT, msg
        pid, status = map(int, rest.split())
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
                raise Died(cand.status)
            remaining = self.deadline - time.monotonic()
            if remaining <= 0:
                raise TestTimeout
            watch = [self.ctl.fileno(), *cand.open]
            ready, _, _ = select.select(watch, [], [], remaining)
            for fd in ready:
                if fd == self.ctl.fileno():
                    if self._on_ctl() is not None:
                        raise Died(None)
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
        if cand.printed > self.limits.max_output_bytes:
            raise OutputLimit
        if kind == "out" and self.header.style == "stdin":
            cand.stdout += data
        elif kind == "err":
            cand.err_tail = (cand.err_tail + data)[-ERROR_TAIL:]

    def _frames(self, cand: _Cand) -> None:
        head = LENGTH.size
        while len(cand.buffer) >= head:
            (n,) = LENGTH.unpack(cand.buffer[:head])
            if n > max(self.limits.max_output_bytes, 1 << 20):
                raise OutputLimit
            if len(cand.buffer) < head + n:
                return
            raw, cand.buffer = bytes(cand.buffer[head : head + n]), cand.buffer[head + n :]
            try:
                message = marshal.loads(raw)
            except (ValueError, EOFError, TypeError):
                message = (Rpc.GARBAGE,)
            cand.frames.append(message if check_plain(message) else (Rpc.GARBAGE,))

    # -- calling into the candidate ------------------------------------------------------------
    def _send(self, cand: _Cand, message: tuple[Any, ...]) -> None:
        """One framed marshal message to the candidate before the test's deadline."""
        data = pack_message(message)
        cand.rpc.settimeout(max(self.deadline - time.monotonic(), 0.001))
        try:
            cand.rpc.sendall(data)
        except TimeoutError:
            raise TestTimeout from None
        except OSError:
            raise Died(cand.status) from None  # None for a candidate not yet reported dead

    def call(self, name: str, args: Any, kwargs: Any) -> Any:
        cand = self.cand
        if cand is None:
            raise Died(None)
        if not check_plain((args, kwargs)):
            raise TypeError("only plain data can be passed to the candidate's functions")
        self._send(cand, (Rpc.CALL, name, tuple(args), dict(kwargs)))
        reply = self.pump(cand, "reply")
        return self.unwrap(reply)

    def unwrap(self, reply: Any) -> Any:
        """The value of an OK reply; a candidate's exception (or a bad reply) raised here."""
        tag = reply[0] if isinstance(reply, tuple) and reply else None
        if tag == Rpc.OK and len(reply) == 2:
            return reply[1]
        if tag == Rpc.BAD and len(reply) == 3:
            raise BadValue(f"returned {reply[1]!s} {reply[2]!s}, not plain data")
        if tag == Rpc.EXC and len(reply) == 4 and all(isinstance(x, str) for x in reply[1:]):
            self.last_exc = reply[1]
            kind = getattr(builtins, reply[1], None)
            err: Exception = CandidateError(f"{reply[1]}: {reply[2]}")
            if isinstance(kind, type) and issubclass(kind, Exception):
                with contextlib.suppress(Exception):
                    err = kind(reply[2])
            err.candidate_tb = reply[3]  # type: ignore[attr-defined]
            raise err
        raise Died(None)

    def proxy(self, name: str) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            return self.call(name, args, kwargs)

        call.__name__ = call.__qualname__ = name
        return call


def _signal_verdict(status: int) -> tuple[str, str]:
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig == signal.SIGXCPU:
            return "timeout", "CPU time limit exceeded"
        return "error", f"the process was killed by signal {signal.Signals(sig).name}"
    return "error", f"the process exited with status {os.WEXITSTATUS(status)}"


def _exc_verdict(judge: Judge, err: BaseException) -> tuple[str, str]:
    """Verdict and detail for an exception that ended a test."""
    if isinstance(err, TestTimeout):
        return "timeout", "timed out"
    if isinstance(err, OutputLimit):
        return "output_limit", "output limit exceeded"
    if isinstance(err, Died):
        if err.status is not None:
            return _signal_verdict(err.status)
        return "error", err.detail
    tb = traceback_text(err)
    if isinstance(err, MemoryError) or judge.last_exc == "MemoryError":
        return "memory", tb
    if isinstance(err, AssertionError):
        return "wrong", tb
    if isinstance(err, BadValue):
        return "wrong", str(err)
    return "error", tb


def _result(i: int, verdict: str, start: float, **extra: Any) -> None:
    emit(TestReport(i, verdict, time.monotonic() - start, **extra))


def _load_candidate(judge: Judge, remaining: int) -> dict[str, Any] | tuple[str, str]:
    """A fresh candidate with the code loaded: its namespace for the judge, or why it failed."""
    judge.deadline = judge.limits.test_deadline(time.monotonic())
    judge.last_exc = ""
    try:
        cand = judge.spawn(remaining)
        reply = judge.pump(cand, "reply")
        if isinstance(reply, tuple) and reply and reply[0] == Rpc.LOADED:
            return _namespace(judge, reply[1])
        judge.unwrap(reply)
        return "error", "the candidate sent a malformed reply"
    except BaseException as err:  # noqa: BLE001
        judge.kill()
        return _exc_verdict(judge, err)


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


def _run_one(judge: Judge, test: Any, namespace: dict[str, Any]) -> dict[str, Any]:
    """One functional or assert test against the current candidate: `TestReport` fields."""
    if judge.header.style == "functional":
        value = judge.call(judge.header.fn_name or "", test, {})
        try:
            return {"verdict": "ran", "value": json.loads(json.dumps(value))}
        except (TypeError, ValueError):
            return {"verdict": "wrong", "detail": f"not a JSON value: {repr(value)[:300]}"}
    exec(test, dict(namespace))
    return {"verdict": "pass"}


def _test_program(raw: Any) -> Any:
    """An assert test's code object: compiled by the host (marshal, base64) or from source."""
    test = AssertTest.from_dict(raw)
    show_source("<test>", test.src)
    if test.bin:
        return marshal.loads(base64.b64decode(test.bin))
    return compile(test.src, "<test>", "exec")


_alarm_at = [math.inf]  # when our own per-test timer is due


def _arm(limits: Limits) -> None:
    seconds = limits.alarm_s()
    _alarm_at[0] = time.monotonic() + seconds - ALARM_EARLY_S
    signal.setitimer(signal.ITIMER_REAL, seconds)


def _disarm() -> None:
    signal.setitimer(signal.ITIMER_REAL, 0)
    _alarm_at[0] = math.inf


def _on_alarm(signum: int, frame: Any) -> None:
    """SIGALRM ends the test only when our timer is due: any process of the run can send
    SIGALRM to the judge, and one sent early must not interrupt the judge's own code."""
    if time.monotonic() >= _alarm_at[0]:
        raise TestTimeout


def run_rpc_tests(judge: Judge, tests: list[Any]) -> None:
    """functional / assert: one candidate process serves tests in order until it fails."""
    assert_style = judge.header.style == "assert"
    namespace: dict[str, Any] | None = None
    signal.signal(signal.SIGALRM, _on_alarm)
    for i, raw in enumerate(tests):
        start = time.monotonic()
        try:
            test = _test_program(raw) if assert_style else raw
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
        judge.deadline = judge.limits.test_deadline(time.monotonic())
        judge.last_exc = ""
        _arm(judge.limits)
        try:
            outcome = _run_one(judge, test, namespace or {})
        except BaseException as err:  # noqa: BLE001
            _disarm()
            verdict, detail = _exc_verdict(judge, err)
            if isinstance(err, TestTimeout | OutputLimit | Died):
                judge.kill()
            outcome = {"verdict": verdict, "detail": detail}
        _disarm()
        _result(i, start=start, **outcome)


def run_stdin_tests(judge: Judge, tests: list[Any]) -> None:
    """stdin: a fresh candidate process per test, fed the input, its stdout captured."""
    for i, test in enumerate(tests):
        start = time.monotonic()
        judge.deadline = judge.limits.test_deadline(start)
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
        exc = [f for f in cand.frames if isinstance(f, tuple) and f and f[0] == Rpc.EXC]
        if exc and len(exc[0]) == 4:
            verdict = "memory" if exc[0][1] == "MemoryError" else "error"
            _result(i, verdict, start, detail=str(exc[0][3]))
        elif cand.status != 0:
            verdict, detail = _signal_verdict(cand.status)
            tail = cand.err_tail.decode("utf-8", "replace")
            _result(i, verdict, start, detail=f"{detail}\n{tail}".strip())
        else:
            _result(i, "ran", start, stdout=cand.stdout.decode("utf-8", "replace"))


def judge_run(ctl: socket.socket, zygote: int) -> str:
    """One run: read its frames (header, code, tests) from the host on fd 0, have the zygote
    prepare it, drive candidates through the tests, then have the zygote sweep. The status says
    whether this worker can go on (RUN_OK) or must end (RUN_DIED)."""
    header, code, tests = read_run(0)
    judge = Judge(header, ctl, code)
    try:
        ctl.send(run_request(header))
        if header.style == "stdin":
            run_stdin_tests(judge, tests)
        else:
            run_rpc_tests(judge, tests)
    except OSError:
        pass  # the zygote is gone: the tests not reported are not passed
    finally:
        _disarm()
        # Without a handler, pid 1 never receives SIGALRM from inside its namespace: what the
        # run left cannot interrupt us while the zygote sweeps.
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
        judge.kill()
    return RUN_OK if _swept(ctl, zygote) else RUN_DIED


def _swept(ctl: socket.socket, zygote: int) -> bool:
    """Ask the zygote to kill what the run left and wipe its files; False when it does not."""
    with contextlib.suppress(OSError):
        os.kill(zygote, signal.SIGCONT)  # a candidate may have stopped it
        ctl.send(Ctl.END)
        deadline = time.monotonic() + SWEEP_WAIT_S
        while (remaining := deadline - time.monotonic()) > 0:
            if not select.select([ctl], [], [], remaining)[0]:
                return False
            msg = ctl.recv(Ctl.MAX_REPLY)
            if msg == Ctl.CLEAN:
                return True
            if not msg:
                return False
    return False
