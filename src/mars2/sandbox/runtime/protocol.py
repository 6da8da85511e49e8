"""The sandbox's protocol: every message between the host and the processes of a worker, typed,
and the timing rules that bound a test and a run. Standard library only.

It is the one module of `runtime` the host imports (as `mars2.sandbox.runtime.protocol`; inside
the sandbox it is `runtime.protocol`), and the one place where a key of a message is spelled.
Host and runtime always come from the same checkout, so the formats carry no version.

Channels, one format each:
- host -> judge, the worker's stdin: per run three frames, `FRAME_MAGIC` + 4-byte big-endian
  length + JSON: a `RunHeader`, the code, the tests (`encode_run` / `read_run`).
- judge -> host, the worker's stdout: one JSON object per line, an `Event`: `Ready` once at
  start-up, then per run `TestReport`s (and `Infra` when the harness failed), then `Done`.
- judge <-> zygote, a SOCK_SEQPACKET socketpair: one datagram per message, `b"verb args"`, file
  descriptors alongside (`Ctl`).
- judge <-> candidate, a socketpair: 4-byte big-endian length + marshal of a tuple of plain data
  whose first item is an `Rpc` tag (`pack_message` / `recv_message`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import marshal
import os
import socket
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

Style = Literal["functional", "stdin", "assert"]
SANDBOX_UID = 65534  # `nobody`: candidates' uid (namespaces map to it; rlimit as root drops to it)

# -- timing ------------------------------------------------------------------------------------
# Every slack on top of `timeout_s`, with why it is there. `Limits` turns them into deadlines.
LOADS_PER_TEST = 2  # a test may need a fresh candidate loaded (<= timeout_s), then runs (<= it)
TEST_OVERHEAD_S = 0.25  # per test, the judge's own work around it: spawn, kill, drain, report
RUN_OVERHEAD_S = 1.0  # per run: reading its frames, the zygote's set-up, sweep and cleanup
HOST_GRACE_S = 5.0  # the host's margin over that budget before it kills a worker as hung
ALARM_LATE_S = 0.05  # SIGALRM is the judge's backstop: its select deadline normally ends a test
ALARM_EARLY_S = 0.02  # SIGALRM may arrive a little before monotonic time says it is due: still ours
CPU_LOADS = 1  # RLIMIT_CPU covers the candidate's tests plus loading its code once
CPU_ROUNDING_S = 1  # RLIMIT_CPU is whole seconds: the int() rounds down, this rounds up
SWEEP_WAIT_S = 10.0  # the judge waits this long for the zygote's sweep, then ends the worker
REAP_WAIT_S = 2.0  # the zygote reaps after kill(-1) this long before it checks /proc


# -- limits and the run header (host -> judge -> zygote) ----------------------------------------
@dataclass(frozen=True)
class Limits:
    """What one run may use (`SandboxConfig`'s fields of the same names) and its deadlines."""

    timeout_s: float  # wall clock per test (and per load of the code)
    cpu_s: float  # CPU seconds per test
    memory_mb: int  # RLIMIT_AS of a candidate
    max_processes: int  # RLIMIT_NPROC of a candidate, when `nproc`
    max_file_mb: int  # RLIMIT_FSIZE of a candidate
    max_output_bytes: int  # printed bytes per test; also the largest reply of a candidate
    nproc: bool = True  # False where the worker's pids cgroup caps processes instead (rlimit)

    def test_deadline(self, start: float) -> float:
        """The monotonic time by which a test (or a load of the code) begun at `start` ends."""
        return start + self.timeout_s

    def alarm_s(self) -> float:
        """The judge's SIGALRM backstop for a test, in seconds from its start."""
        return self.timeout_s + ALARM_LATE_S

    def run_deadline(self, start: float, n_tests: int) -> float:
        """The monotonic time by which the host must have the whole run's reports, else it kills
        the worker: every test may need a load and its run, plus the overheads."""
        per_test = LOADS_PER_TEST * self.timeout_s + TEST_OVERHEAD_S
        return start + n_tests * per_test + RUN_OVERHEAD_S + HOST_GRACE_S

    def cpu_limit_s(self, n_tests: int) -> int:
        """RLIMIT_CPU of a candidate process that serves `n_tests` tests."""
        return int(self.cpu_s * (n_tests + CPU_LOADS)) + CPU_ROUNDING_S

    def to_dict(self) -> dict[str, Any]:
        return _fields(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Limits:
        return cls(**data)


@dataclass(frozen=True)
class RunHeader:
    """How to run one run's code: its style and limits, and what the worker's isolation allows."""

    style: Style
    fn_name: str | None  # the function `functional` tests call
    limits: Limits
    own_pidns: bool  # the worker has a pid namespace of its own (kill(-1) reaches only the run)
    own_tmp: bool  # /tmp is the worker's own (bubblewrap): wiped after every run
    drop_uid: bool  # candidates switch to SANDBOX_UID (level rlimit, host user root)
    tmp_base: str  # private to the worker: each run's directory goes there

    def for_zygote(self) -> RunHeader:
        """What the zygote gets (it never holds anything of a problem but its style)."""
        return dataclasses.replace(self, fn_name=None)

    def to_dict(self) -> dict[str, Any]:
        return {**_fields(self), "limits": self.limits.to_dict()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RunHeader:
        return cls(**{**data, "limits": Limits.from_dict(data["limits"])})


@dataclass(frozen=True)
class AssertTest:
    """An `assert` test on the wire: its source (for tracebacks) and its code object compiled by
    the host (marshal, base64; "" when it does not compile: the judge then compiles `src`)."""

    src: str
    bin: str = ""

    def to_dict(self) -> dict[str, Any]:
        return _fields(self)

    @classmethod
    def from_dict(cls, data: Any) -> AssertTest:
        if not isinstance(data, dict):
            return cls(str(data))
        return cls(data.get("src", ""), data.get("bin") or "")


# -- host -> judge: the frames of a run ---------------------------------------------------------
FRAME_MAGIC = b"M2"
_FRAME = struct.Struct(">2sI")  # magic, length of the JSON that follows
_CODE, _TESTS = "code", "tests"


def encode_run(header: RunHeader, code: str, tests: Sequence[Any]) -> bytes:
    """A run's three frames, written at once: inside, each process reads only its frame."""
    messages = [header.to_dict(), {_CODE: code}, {_TESTS: list(tests)}]
    frames = [json.dumps(m).encode() for m in messages]
    return b"".join(_FRAME.pack(FRAME_MAGIC, len(f)) + f for f in frames)


def read_run(fd: int) -> tuple[RunHeader, str, list[Any]]:
    """The header, code and tests of the next run (EOFError when the host closed the pipe)."""
    header, code, tests = (_read_frame(fd) for _ in range(3))
    code = code[_CODE]
    return RunHeader.from_dict(header), code if isinstance(code, str) else "", tests[_TESTS]


def _read_frame(fd: int) -> Any:
    magic, size = _FRAME.unpack(_read_exact(fd, _FRAME.size))
    if magic != FRAME_MAGIC:
        raise EOFError("protocol desync")
    return json.loads(_read_exact(fd, size))


def _read_exact(fd: int, n: int) -> bytes:
    chunks: list[bytes] = []
    while n:
        chunk = os.read(fd, min(n, 1 << 20))
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


# -- judge -> host: events, one JSON line each --------------------------------------------------
_KIND = "ev"


@dataclass(frozen=True)
class Ready:
    """The worker started: the judge's pid and uid, and the zygote's pid (as the host sees them
    where the worker has no pid namespace of its own)."""

    pid: int = 0
    uid: int = 0
    zygote: int = 0


@dataclass(frozen=True)
class TestReport:
    """The raw outcome of test `i`. `verdict` is final, or "ran" when the host must compare
    `value` (functional) or `stdout` (stdin) with the expected output, which never enters."""

    __test__ = False  # not a pytest test class

    i: int
    verdict: str
    time: float = 0.0
    detail: str = ""
    value: Any = None
    stdout: str = ""
    load: bool = False  # the verdict is the code's load failing (given to every remaining test)


@dataclass(frozen=True)
class Infra:
    """The harness failed (not the candidate)."""

    detail: str = "sandbox failure"


RUN_OK, RUN_DIED = "ok", "died"  # the worker can serve the next run / must end


@dataclass(frozen=True)
class Done:
    """The run is over; `status` is RUN_OK or RUN_DIED."""

    status: str = RUN_OK


Event = Ready | TestReport | Infra | Done
_EVENTS: dict[str, type[Event]] = {"ready": Ready, "test": TestReport, "infra": Infra, "done": Done}
_KINDS = {kind: name for name, kind in _EVENTS.items()}


def encode_event(event: Event) -> bytes:
    """One line; fields at their default are left out."""
    fields = {k: v for k, v in _fields(event).items() if v != _DEFAULTS[type(event)][k]}
    return (json.dumps({_KIND: _KINDS[type(event)], **fields}) + "\n").encode()


def emit(event: Event) -> None:
    """Write `event` to the judge's stdout (fd 1), the host's pipe."""
    data = encode_event(event)
    while data:
        data = data[os.write(1, data) :]


def decode_event(line: bytes) -> Event | None:
    """The event on one line; a line that is not one is an `Infra`, an unknown kind None."""
    try:
        data = json.loads(line)
    except ValueError:
        return Infra(f"unreadable event {line[:200]!r}")
    if not isinstance(data, dict):
        return Infra("bad event")
    kind = _EVENTS.get(str(data.get(_KIND)))
    if kind is Ready:
        return Ready(int(data.get("pid", 0)), int(data.get("uid", 0)), int(data.get("zygote", 0)))
    if kind is Infra:
        return Infra(str(data.get("detail", Infra.detail)))
    if kind is Done:
        return Done(str(data.get("status", RUN_OK)))
    if kind is TestReport and isinstance(data.get("i"), int):
        return TestReport(
            i=data["i"],
            verdict=str(data.get("verdict", "infra")),
            time=float(data.get("time", 0.0)),
            detail=str(data.get("detail", "")),
            value=data.get("value"),
            stdout=str(data.get("stdout", "")),
            load=bool(data.get("load", False)),
        )
    return None


# -- judge <-> zygote: control datagrams ---------------------------------------------------------
class Ctl:
    """The verbs of the judge-zygote socket: `b"verb"` or `b"verb args"`, one datagram each."""

    RUN = b"run"  # judge: + RunHeader.for_zygote() as JSON; the zygote prepares the run
    SPAWN = b"spawn"  # judge: + the number of tests; fds: the candidate's stdin (or none)
    END = b"end"  # judge: kill what the run left and wipe its files
    SPAWNED = b"spawned"  # zygote: + pid; fds: the candidate's rpc socket, stdout, stderr
    FAILED = b"failed"  # zygote: + why a candidate could not start
    EXIT = b"exit"  # zygote: + pid and wait status of a candidate that ended
    CLEAN = b"clean"  # zygote: the run's processes and files are gone

    MAX_REQUEST = 1 << 16  # bytes of the largest judge -> zygote datagram (a run's header)
    MAX_REPLY = 256  # bytes of the largest zygote -> judge datagram


def ctl_message(verb: bytes, *args: int | str | bytes) -> bytes:
    """`verb` followed by its arguments, space-separated."""
    words = [a if isinstance(a, bytes) else str(a).encode() for a in args]
    return b" ".join([verb, *words])


def ctl_split(message: bytes) -> tuple[bytes, bytes]:
    """(verb, the rest) of a control datagram."""
    verb, _, rest = message.partition(b" ")
    return verb, rest


def run_request(header: RunHeader) -> bytes:
    return ctl_message(Ctl.RUN, json.dumps(header.for_zygote().to_dict()).encode())


def parse_run_request(rest: bytes) -> RunHeader:
    return RunHeader.from_dict(json.loads(rest))


# -- judge <-> candidate: marshal messages ------------------------------------------------------
class Rpc:
    """The tags of judge-candidate messages; each is a tuple of plain data, tag first."""

    CODE = "code"  # judge: (CODE, source): the first message, the code to load
    CALL = "call"  # judge: (CALL, name, args tuple, kwargs dict)
    LOADED = "loaded"  # candidate: (LOADED, [(name, "module" | "call" | "data", value)])
    OK = "ok"  # candidate: (OK, value returned)
    BAD = "bad"  # candidate: (BAD, type name, repr): the value returned is not plain data
    EXC = "exc"  # candidate: (EXC, exception type name, message, traceback text)
    GARBAGE = "garbage"  # the judge's stand-in for a frame it could not read


LENGTH = struct.Struct(">I")  # the length prefix of a marshal message


def pack_message(message: tuple[Any, ...]) -> bytes:
    data = marshal.dumps(message)
    return LENGTH.pack(len(data)) + data


def send_message(sock: socket.socket, message: tuple[Any, ...]) -> None:
    sock.sendall(pack_message(message))


def recv_message(sock: socket.socket) -> Any:
    """The next message (blocking; EOFError when the peer is gone)."""
    head = sock.recv(LENGTH.size, socket.MSG_WAITALL)
    if len(head) < LENGTH.size:
        raise EOFError
    (n,) = LENGTH.unpack(head)
    return marshal.loads(sock.recv(n, socket.MSG_WAITALL))


# -- starting a worker, and removing a run's files ---------------------------------------------
def worker_program(path: str, cpu: int | None) -> str:
    """The `python -I -S -c` program that starts a worker, with this package's parent at `path`."""
    return (
        f"import sys; sys.path.insert(0, {path!r}); from runtime.main import worker_main; "
        f"worker_main({cpu!r})"
    )


RUN_DIR = "run"  # a run's working directory under `tmp_base` (free: every run's goes after it)


def remove_tree(path: str) -> None:
    """Remove a file or a tree a run left, also one it made read-only (its owner is our uid, or
    we are root); call it once nothing of the run is alive to race with. The zygote removes each
    run's directory with it, the host the `tmp_base` of a worker it killed."""
    if not os.path.isdir(path) or os.path.islink(path):
        with contextlib.suppress(OSError):
            os.unlink(path)
        return
    with contextlib.suppress(OSError):
        os.chmod(path, 0o700)
    for root, dirs, _files in os.walk(path):
        for name in dirs:
            sub = os.path.join(root, name)
            if not os.path.islink(sub):
                with contextlib.suppress(OSError):
                    os.chmod(sub, 0o700)
    for root, dirs, files in os.walk(path, topdown=False):
        for name in files:
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(root, name))
        for name in dirs:
            sub = os.path.join(root, name)
            with contextlib.suppress(OSError):
                (os.unlink if os.path.islink(sub) else os.rmdir)(sub)
    with contextlib.suppress(OSError):
        os.rmdir(path)


def _fields(obj: Any) -> dict[str, Any]:
    return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}


_DEFAULTS: dict[type, dict[str, Any]] = {
    kind: {f.name: f.default for f in dataclasses.fields(kind)} for kind in _EVENTS.values()
}
