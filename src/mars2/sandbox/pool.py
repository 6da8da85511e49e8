"""The host side of the sandbox: worker processes (judge + zygote), the `Sandbox` pool, its statistics."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import functools
import logging
import marshal
import os
import queue
import select
import subprocess
import tempfile
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from mars2.config import SandboxConfig
from mars2.errors import InfraError, UserError
from mars2.sandbox import compare
from mars2.sandbox.isolation import Isolation, PidsCgroup, available_levels, worker_command
from mars2.sandbox.runtime.protocol import (
    RUN_DIED,
    RUN_OK,
    AssertTest,
    Done,
    Event,
    Infra,
    Limits,
    Ready,
    RunHeader,
    TestReport,
    decode_event,
    encode_run,
    remove_tree,
)
from mars2.types import ExecResult, Problem, TestCase, TestResult, TestSet

log = logging.getLogger(__name__)

_MIN_INFRA = 3  # infra runs tolerated before the rate is judged
_START_TIMEOUT_S = 30.0  # a worker's start-up: the interpreter, preloads, warm-up, the zygote
_DEADLINE = "deadline"  # how a run ended that the host gave up waiting for (a hung worker)
_counter = iter(range(1 << 62))


@dataclass
class SandboxStats:
    """Counts since the sandbox started. `infra_runs` are runs where the harness failed."""

    runs: int = 0
    tests: int = 0
    infra_runs: int = 0
    worker_restarts: int = 0
    verdicts: dict[str, int] = field(default_factory=dict)

    @property
    def infra(self) -> int:
        return self.infra_runs

    @property
    def infra_rate(self) -> float:
        return self.infra_runs / self.runs if self.runs else 0.0


class _Worker:
    """One worker (judge and zygote, inside bubblewrap, unshare or bare) and its pipes."""

    def __init__(self, level: Isolation, config: SandboxConfig, cpu: int | None = None) -> None:
        self.level = level
        self.cpu = cpu
        name = f"{os.getpid()}-{next(_counter)}"
        self.cgroup = PidsCgroup.create(name, config.max_processes + 8)
        cmd = worker_command(level, cpu=cpu)
        if self.cgroup is not None:
            cmd = self.cgroup.wrap(cmd)
        self.stderr = tempfile.TemporaryFile()  # noqa: SIM115 (closed in kill())
        # Without a private /tmp (bwrap gives one), runs get their directories inside this one,
        # which `kill` removes: nothing is left in the host's /tmp when a run's worker is killed.
        self.tmp = None if level == "bwrap" else tempfile.mkdtemp(prefix="mars2-worker-")
        if self.tmp is not None:
            os.chmod(self.tmp, 0o711)  # candidates that run as another uid reach their dir
        self.proc = subprocess.Popen(
            cmd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            env={"LANG": "C.UTF-8"},
            start_new_session=True,
            close_fds=True,
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.win, self.rout = self.proc.stdin.fileno(), self.proc.stdout.fileno()
        os.set_blocking(self.win, False)
        self.buffer = b""
        self.broken = False
        event = self.next_event(time.monotonic() + _START_TIMEOUT_S)
        if not isinstance(event, Ready):
            self.proc.kill()
            self.proc.wait()
            tail = self.stderr_tail()
            self.kill()
            raise InfraError(f"sandbox worker ({level}) did not start: {tail}")
        self.pid = event.pid
        self.zygote = event.zygote  # as the host sees it where no pid namespace

    def stderr_tail(self) -> str:
        self.stderr.seek(0)
        return self.stderr.read()[-800:].decode("utf-8", "replace").strip() or "(no output)"

    def alive(self) -> bool:
        return self.proc.poll() is None

    def send(self, data: bytes, deadline: float) -> bool:
        """Write `data` (a run's frames) to the judge before `deadline`."""
        while data:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            _, ready, _ = select.select([], [self.win], [], remaining)
            if ready:
                try:
                    data = data[os.write(self.win, data) :]
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    return False
        return True

    def next_event(self, deadline: float) -> Event | None:
        """The next event from the worker (events of unknown kinds skipped); None on EOF or when
        the deadline passes."""
        while True:
            while b"\n" not in self.buffer:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                ready, _, _ = select.select([self.rout], [], [], remaining)
                if not ready:
                    return None
                chunk = os.read(self.rout, 1 << 20)
                if not chunk:
                    return None
                self.buffer += chunk
            line, self.buffer = self.buffer.split(b"\n", 1)
            event = decode_event(line)
            if event is not None:
                return event

    def sweep(self) -> None:
        """Without our own pid namespace, kill what the run left in the worker's cgroup."""
        if self.level == "rlimit" and self.cgroup is not None:
            self.cgroup.kill(keep=(self.proc.pid, self.zygote))

    def kill(self) -> None:
        with contextlib.suppress(OSError):
            os.killpg(self.proc.pid, 9)
        self.proc.kill()
        self.proc.wait()
        if self.cgroup is not None:
            self.cgroup.remove()
        if self.tmp is not None:
            remove_tree(self.tmp)
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        self.stderr.close()

    def close(self) -> None:
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            self.proc.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            pass
        self.kill()


def _worker_cpus(config: SandboxConfig) -> list[int | None]:
    """The CPU of each worker: one of its own when `pin_cpus` and there is exactly one usable
    CPU per worker (a run's processes hand work to each other in turn, and staying on one core
    spares cross-CPU wake-ups); None (unpinned) otherwise. Only with exactly as many workers
    as CPUs: sandboxes in other processes (Ray actors, say) cannot see which CPUs this one took,
    and with fewer workers they would all pile onto the first CPUs."""
    usable = sorted(os.sched_getaffinity(0))
    if config.pin_cpus and 1 < config.workers == len(usable):
        return list(usable)
    return [None] * config.workers


@functools.lru_cache(maxsize=4096)
def _compiled(program: str) -> str:
    """An assert program compiled once here (marshal, base64), or "" when it does not compile
    (the judge then reports the compile error as `infra`). The sandbox runs this interpreter."""
    try:
        return base64.b64encode(marshal.dumps(compile(program, "<test>", "exec"))).decode()
    except (SyntaxError, ValueError):
        return ""


def _payload(problem: Problem, tests: Sequence[TestCase]) -> list[Any]:
    """The tests frame: what the judge needs of each test (never the expected outputs)."""
    if problem.test_style == "assert":
        return [AssertTest(t.test or "", _compiled(t.test or "")).to_dict() for t in tests]
    if problem.test_style == "stdin":
        return [t.input if isinstance(t.input, str) else "" for t in tests]
    return [list(t.input) if isinstance(t.input, list | tuple) else [t.input] for t in tests]


class Sandbox:
    """A pool of warm workers that grade candidate programs against a problem's tests.

    Use as a context manager. `run` is thread-safe; `run_many` spreads jobs over the workers;
    `arun` runs in the pool's threads so an event loop never blocks on execution.
    """

    def __init__(self, config: SandboxConfig | None = None) -> None:
        self.config = config or SandboxConfig()
        self._stats = SandboxStats()
        self._lock = threading.Lock()
        self._idle: queue.SimpleQueue[_Worker] = queue.SimpleQueue()
        self._workers: list[_Worker] = []
        self.isolation: Isolation = self._start()
        self._executor = ThreadPoolExecutor(self.config.workers, "mars2-sandbox")
        self._closed = False

    def _start(self) -> Isolation:
        errors: list[str] = []
        cpus = _worker_cpus(self.config)
        for level in available_levels(self.config.isolation):
            workers: list[_Worker] = []
            try:
                for cpu in cpus:
                    workers.append(_Worker(level, self.config, cpu))
            except (InfraError, OSError) as err:
                errors.append(f"{level}: {err}")
                log.warning(
                    "sandbox isolation %s failed to start (%s); trying the next", level, err
                )
                for worker in workers:
                    worker.kill()
                continue
            if level == "rlimit":
                log.warning(
                    "sandbox isolation is rlimit only: no namespaces, the network is NOT blocked "
                    "(install bubblewrap: apt-get install bubblewrap)"
                )
            self._workers = workers
            for worker in workers:
                self._idle.put(worker)
            return level
        raise InfraError("could not start a sandbox worker: " + "; ".join(errors))

    # -- context manager -------------------------------------------------------------------------
    def __enter__(self) -> Sandbox:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Stop every worker and everything they started."""
        if self._closed:
            return
        self._closed = True
        self._executor.shutdown(wait=True, cancel_futures=True)
        with self._lock:
            workers, self._workers = self._workers, []
        for worker in workers:
            worker.close()

    @property
    def stats(self) -> SandboxStats:
        """A snapshot of the counters."""
        with self._lock:
            s = self._stats
            return SandboxStats(s.runs, s.tests, s.infra_runs, s.worker_restarts, dict(s.verdicts))

    # -- running ---------------------------------------------------------------------------------
    def run(self, code: str, problem: Problem, which: TestSet = "all") -> ExecResult:
        """Grade `code` on `problem.tests(which)`. Raises InfraError when the sandbox is broken."""
        if self._closed:
            raise InfraError("the sandbox is closed")
        if problem.test_style == "functional" and not problem.fn_name:
            raise UserError(f"problem {problem.id!r}: test_style 'functional' needs fn_name")
        tests = problem.tests(which)
        if not tests:
            return ExecResult(())
        worker = self._idle.get()
        try:
            if worker.broken:
                worker = self._replace(worker)
            reports, status = self._execute(worker, code, problem, tests)
            worker.sweep()
            worker.broken = status in (RUN_DIED, _DEADLINE) or not worker.alive()
            if worker.broken:
                worker = self._replace(worker)
        except InfraError:
            with self._lock:
                self._stats.runs += 1
                self._stats.infra_runs += 1
            raise
        finally:
            self._idle.put(worker)
        results = self._results(problem, tests, reports, status)
        self._record(results)
        text = compare.feedback(
            tests, results, problem.test_style, self.config.feedback_chars, self.config.timeout_s
        )
        return ExecResult(tuple(results), text)

    def run_many(self, jobs: Sequence[tuple[str, Problem, TestSet]]) -> list[ExecResult]:
        """Grade many (code, problem, which) jobs in parallel over the workers, in input order."""
        return list(self._executor.map(lambda job: self.run(*job), jobs))

    async def arun(self, code: str, problem: Problem, which: TestSet = "all") -> ExecResult:
        """`run` for asyncio callers: executes in the pool's threads."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, self.run, code, problem, which)

    def _header(self, problem: Problem, worker: _Worker) -> RunHeader:
        c = self.config
        limits = Limits(
            timeout_s=c.timeout_s,
            cpu_s=c.cpu_s,
            memory_mb=c.memory_mb,
            max_processes=c.max_processes,
            max_file_mb=c.max_file_mb,
            max_output_bytes=c.max_output_bytes,
            # RLIMIT_NPROC counts every process of the uid outside a user namespace: there the
            # worker's pids cgroup (when it has one) is the process cap instead.
            nproc=self.isolation != "rlimit" or worker.cgroup is None,
        )
        return RunHeader(
            style=problem.test_style,
            fn_name=problem.fn_name,
            limits=limits,
            own_pidns=self.isolation in ("bwrap", "unshare"),
            own_tmp=self.isolation == "bwrap",
            drop_uid=self.isolation == "rlimit" and os.geteuid() == 0,
            tmp_base=worker.tmp or "/tmp",
        )

    def _execute(
        self, worker: _Worker, code: str, problem: Problem, tests: Sequence[TestCase]
    ) -> tuple[list[Event], str]:
        """Send one run to a worker and collect its events; the status says how it ended."""
        header = self._header(problem, worker)
        deadline = header.limits.run_deadline(time.monotonic(), len(tests))
        if not worker.send(encode_run(header, code, _payload(problem, tests)), deadline):
            return [], RUN_DIED
        events: list[Event] = []
        while True:
            event = worker.next_event(deadline)
            if event is None:
                return events, RUN_DIED if time.monotonic() < deadline else _DEADLINE
            if isinstance(event, Done):
                return events, event.status
            events.append(event)

    def _replace(self, worker: _Worker) -> _Worker:
        """A fresh worker in place of a dead or hung one (InfraError when none starts)."""
        worker.kill()
        fresh = _Worker(worker.level, self.config, worker.cpu)
        with self._lock:
            self._stats.worker_restarts += 1
            self._workers[self._workers.index(worker)] = fresh
        return fresh

    def _results(
        self,
        problem: Problem,
        tests: Sequence[TestCase],
        events: list[Event],
        status: str,
    ) -> list[TestResult]:
        """One verdict per test from the worker's events; tests it never reported are not passed."""
        reports: dict[int, TestReport] = {}
        infra = ""
        for event in events:
            if isinstance(event, Infra):
                infra = event.detail
            if isinstance(event, TestReport) and 0 <= event.i < len(tests):
                reports.setdefault(event.i, event)
        missing = _MISSING.get(status, ("infra", f"the sandbox ended the run with {status!r}"))
        if infra:
            missing = ("infra", infra)
        results = []
        for i, test in enumerate(tests):
            if i in reports:
                results.append(compare.grade(test, problem.test_style, reports[i]))
            else:
                results.append(TestResult(missing[0], 0.0, missing[1]))  # type: ignore[arg-type]
        return results

    def _record(self, results: Sequence[TestResult]) -> None:
        with self._lock:
            s = self._stats
            s.runs += 1
            s.tests += len(results)
            for result in results:
                s.verdicts[result.verdict] = s.verdicts.get(result.verdict, 0) + 1
            if any(r.verdict == "infra" for r in results):
                s.infra_runs += 1
            too_many = s.infra_runs >= _MIN_INFRA and s.infra_rate > self.config.max_infra_rate
            runs, infra = s.runs, s.infra_runs
        if too_many:
            detail = (
                next(r.detail for r in results if r.verdict == "infra")
                if any(r.verdict == "infra" for r in results)
                else ""
            )
            raise InfraError(
                f"{infra} of {runs} sandbox runs failed in the harness (more than "
                f"sandbox.max_infra_rate={self.config.max_infra_rate}); last: {detail[:300]}"
            )


# How tests the worker never reported are judged, by how the run ended: the judge's `Done`
# status, or _DEADLINE when the host gave up waiting (`Limits.run_deadline`).
_MISSING: dict[str, tuple[str, str]] = {
    _DEADLINE: ("timeout", "timed out (the run's deadline passed)"),
    RUN_DIED: ("error", "the sandbox worker died during the run (killed by the candidate?)"),
    RUN_OK: ("infra", "the sandbox reported no result for this test"),
}
