"""The zygote: a clean warm interpreter, forked by the judge before the judge read anything, that
forks candidate processes on the judge's request and, after every run, makes sure that nothing
the run started is left."""

from __future__ import annotations

import contextlib
import ctypes
import os
import select
import signal
import socket
import time

from .candidate import fork_candidate, standard_streams
from .common import TestTimeout
from .protocol import (
    REAP_WAIT_S,
    RUN_DIR,
    SANDBOX_UID,
    Ctl,
    RunHeader,
    ctl_message,
    ctl_split,
    parse_run_request,
    remove_tree,
)

# `except BaseException` (noqa: BLE001) is deliberate in the sandbox runtime: candidate code can
# raise anything, SystemExit and KeyboardInterrupt included, and each must become a verdict.

PR_SET_CHILD_SUBREAPER = 36
WALL = 0x40000000  # __WALL: children whatever signal they send at exit


def _subreaper() -> None:
    """Orphans of the candidates become our children (not the judge's), so we can find them."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def _leftovers() -> bool:
    """Whether any child is left after the run's candidates were reaped: zombies are reaped,
    and a live child means a leftover process. As the subreaper of every candidate, we are an
    ancestor of every process a run started, so "no child at all" (ECHILD, answered by the
    kernel atomically) means that no such process exists."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG | WALL)
        except ChildProcessError:
            return False
        if pid == 0:
            return True


def _sweep(header: RunHeader) -> None:
    """Kill every process the run left. In our own pid namespace (the judge is pid 1, which
    kill(-1) spares) that is everyone but the judge and us."""
    if not _leftovers():
        return
    if not (header.own_pidns and os.getppid() == 1):
        # No namespace of our own: kill(-1) would reach the host. Kill our children (orphans
        # included) by pid and group; the host also kills what is left in the pids cgroup.
        _kill_children()
        return
    # One kill(-1) reaches every process (a fork racing with it fails on the pending SIGKILL);
    # orphans are re-parented to us (the subreaper), so reaping until ECHILD empties the run.
    with contextlib.suppress(OSError):
        os.kill(-1, signal.SIGKILL)
    _reap_for(REAP_WAIT_S)
    me = os.getpid()
    for _ in range(1000):  # belt and braces: whatever is still listed in /proc
        if not _others(me):
            return
        with contextlib.suppress(OSError):
            os.kill(-1, signal.SIGKILL)
        _leftovers()
        time.sleep(0.002)


def _kill_children() -> None:
    me = os.getpid()
    for _ in range(500):
        try:
            with open(f"/proc/{me}/task/{me}/children") as fh:
                children = [int(pid) for pid in fh.read().split()]
        except OSError:
            children = []
        for pid in children:
            for kill in (os.killpg, os.kill):
                with contextlib.suppress(OSError):
                    kill(pid, signal.SIGKILL)
        if not _leftovers():
            return
        time.sleep(0.002)


def _on_alarm(signum: int, frame: object) -> None:
    raise TestTimeout


def _reap_for(seconds: float) -> None:
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        while True:
            os.waitpid(-1, 0)
    except (ChildProcessError, TestTimeout):
        pass
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)


def _default_signals() -> None:
    """The dispositions candidates inherit (SIGXFSZ ignored: an oversized write raises)."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGALRM, signal.SIGCHLD):
        signal.signal(sig, signal.SIG_DFL)


def candidate_defaults(workdir: str) -> None:
    """What candidates inherit from us at fork, besides the signal dispositions: a clean
    environment whose HOME and TMPDIR are the run's working directory (`tempfile`, imported
    by the candidate if at all, takes its directory from TMPDIR). None of it is secret."""
    if os.environ.get("TMPDIR") != workdir:  # with a private /tmp, only before the first run
        os.environ.clear()
        os.environ.update(HOME=workdir, TMPDIR=workdir, PATH="/usr/bin:/bin", LANG="C.UTF-8")


def _others(me: int) -> list[int]:
    """Other processes in our pid namespace but the judge (pid 1), zombies included."""
    return [int(n) for n in os.listdir("/proc") if n.isdigit() and int(n) not in (1, me)]


def _clean_tmp(header: RunHeader, workdir: str) -> None:
    try:
        os.rmdir(workdir)  # the common case: the run wrote nothing there
    except OSError:
        remove_tree(workdir)
    if header.own_tmp:
        for name in os.listdir("/tmp"):
            remove_tree(os.path.join("/tmp", name))


def _fresh_dir(base: str) -> str:
    """A new directory under `base`, when `run` is still taken (a run its cleanup missed)."""
    while True:
        path = os.path.join(base, f"mars2-run-{os.urandom(6).hex()}")
        try:
            os.mkdir(path, 0o700)
            return path
        except FileExistsError:
            continue


class _Run:
    """The zygote's side of one run: its header, working directory and live candidates."""

    def __init__(self, header: RunHeader) -> None:
        self.header = header
        # `tmp_base` is private to this worker (bubblewrap's /tmp, else the worker's own
        # directory) and each run's directory goes after the run: the name is free.
        self.workdir = os.path.join(header.tmp_base, RUN_DIR)
        try:
            os.mkdir(self.workdir, 0o700)
        except OSError:
            self.workdir = _fresh_dir(header.tmp_base)
        if header.drop_uid and os.geteuid() == 0:
            os.chown(self.workdir, SANDBOX_UID, SANDBOX_UID)
        self.live: dict[int, int] = {}  # pidfd -> pid of candidates
        self.statuses: dict[int, int] = {}  # exit statuses reaped early (by `reap`)
        candidate_defaults(self.workdir)

    def reap(self) -> None:
        """Reap dead orphans (they hold pids the process limit counts) and candidates, whose
        exit status is kept for `exited`."""
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG | WALL)
            except ChildProcessError:
                return
            if pid == 0:
                return
            self.statuses[pid] = status

    def spawn(self, ctl: socket.socket, n_tests: int, fds: list[int]) -> None:
        stdin_fd = fds[0] if fds else os.open(os.devnull, os.O_RDONLY)
        self.reap()
        try:
            pid, pidfd, ends = fork_candidate(
                self.header, self.workdir, n_tests, stdin_fd, self.reap
            )
        except OSError as err:  # e.g. the process limit, held by the run's own processes
            os.close(stdin_fd)
            with contextlib.suppress(OSError):
                ctl.send(ctl_message(Ctl.FAILED, str(err).encode()[:200]))
            return
        self.live[pidfd] = pid
        with contextlib.suppress(OSError):
            socket.send_fds(ctl, [ctl_message(Ctl.SPAWNED, pid)], ends)
        for end in ends:
            os.close(end)

    def exited(self, ctl: socket.socket, pidfd: int) -> None:
        pid = self.live.pop(pidfd)
        os.close(pidfd)
        status = self.statuses.pop(pid, None)
        if status is None:
            _, status = os.waitpid(pid, 0)
        with contextlib.suppress(OSError):
            ctl.send(ctl_message(Ctl.EXIT, pid, status))

    def end(self) -> None:
        for pidfd, pid in self.live.items():
            for kill in (os.killpg, os.kill):
                with contextlib.suppress(OSError):
                    kill(pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
            os.close(pidfd)
        self.live.clear()
        _sweep(self.header)
        _clean_tmp(self.header, self.workdir)


def zygote_main(ctl: socket.socket) -> None:
    """Serve the judge over `ctl` (run / spawn / end requests) until it hangs up."""
    _subreaper()
    _default_signals()
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1):  # the host's pipes are the judge's alone
        os.dup2(devnull, fd)
    os.close(devnull)
    standard_streams()
    run: _Run | None = None
    while True:
        watch = [ctl.fileno(), *(run.live if run else ())]
        ready, _, _ = select.select(watch, [], [])
        for fd in ready:
            if fd != ctl.fileno():
                if run is not None and fd in run.live:  # not closed by an "end" just served
                    run.exited(ctl, fd)
                continue
            msg, fds, _flags, _addr = socket.recv_fds(ctl, Ctl.MAX_REQUEST, 1)
            verb, rest = ctl_split(msg)
            if not msg:
                os._exit(0)
            if verb == Ctl.RUN:
                run = _Run(parse_run_request(rest))
            elif verb == Ctl.SPAWN and run is not None:
                run.spawn(ctl, int(rest), fds)
            elif verb == Ctl.END and run is not None:
                run.end()
                run = None
                ctl.send(Ctl.CLEAN)
