"""The zygote: a clean warm interpreter, forked by the judge before the judge read anything, that
forks candidate processes on the judge's request and, after every run, makes sure that nothing
the run started is left."""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import select
import signal
import socket
import time
from typing import Any

from .candidate import _fork_candidate, standard_streams
from .wire import _on_alarm, _Timeout

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


def _sweep(hdr: dict[str, Any]) -> None:
    """Kill every process the run left. In our own pid namespace (the judge is pid 1, which
    kill(-1) spares) that is everyone but the judge and us."""
    if not _leftovers():
        return
    if not (hdr["own_pidns"] and os.getppid() == 1):
        # No namespace of our own: kill(-1) would reach the host. Kill our children (orphans
        # included) by pid and group; the host also kills what is left in the pids cgroup.
        _kill_children()
        return
    # One kill(-1) reaches every process (a fork racing with it fails on the pending SIGKILL);
    # orphans are re-parented to us (the subreaper), so reaping until ECHILD empties the run.
    with contextlib.suppress(OSError):
        os.kill(-1, signal.SIGKILL)
    _reap_for(2.0)
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


def _reap_for(seconds: float) -> None:
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        while True:
            os.waitpid(-1, 0)
    except (ChildProcessError, _Timeout):
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


def remove_tree(path: str) -> None:
    """Remove a file or a tree a run left, also one it made read-only (its owner is our uid, or
    we are root); call it once nothing of the run is alive to race with. The host uses it too,
    for the directory of a worker it killed."""
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


def _clean_tmp(hdr: dict[str, Any], workdir: str) -> None:
    try:
        os.rmdir(workdir)  # the common case: the run wrote nothing there
    except OSError:
        remove_tree(workdir)
    if hdr["own_tmp"]:
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

    def __init__(self, hdr: dict[str, Any]) -> None:
        self.hdr = hdr
        # `tmp_base` is private to this worker (bubblewrap's /tmp, else the worker's own
        # directory) and each run's directory goes after the run: the name is free.
        self.workdir = os.path.join(hdr["tmp_base"], "run")
        try:
            os.mkdir(self.workdir, 0o700)
        except OSError:
            self.workdir = _fresh_dir(hdr["tmp_base"])
        if hdr.get("drop_uid") and os.geteuid() == 0:
            os.chown(self.workdir, 65534, 65534)
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
            pid, pidfd, ends = _fork_candidate(self.hdr, self.workdir, n_tests, stdin_fd, self.reap)
        except OSError as err:  # e.g. the process limit, held by the run's own processes
            os.close(stdin_fd)
            with contextlib.suppress(OSError):
                ctl.send(b"failed " + str(err).encode()[:200])
            return
        self.live[pidfd] = pid
        with contextlib.suppress(OSError):
            socket.send_fds(ctl, [b"spawned %d" % pid], ends)
        for end in ends:
            os.close(end)

    def exited(self, ctl: socket.socket, pidfd: int) -> None:
        pid = self.live.pop(pidfd)
        os.close(pidfd)
        status = self.statuses.pop(pid, None)
        if status is None:
            _, status = os.waitpid(pid, 0)
        with contextlib.suppress(OSError):
            ctl.send(b"exit %d %d" % (pid, status))

    def end(self) -> None:
        for pidfd, pid in self.live.items():
            for kill in (os.killpg, os.kill):
                with contextlib.suppress(OSError):
                    kill(pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
            os.close(pidfd)
        self.live.clear()
        _sweep(self.hdr)
        _clean_tmp(self.hdr, self.workdir)


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
            msg, fds, _flags, _addr = socket.recv_fds(ctl, 1 << 16, 1)
            verb, _, rest = msg.partition(b" ")
            if not msg:
                os._exit(0)
            if verb == b"run":
                run = _Run(json.loads(rest))
            elif verb == b"spawn" and run is not None:
                run.spawn(ctl, int(rest), fds)
            elif verb == b"end" and run is not None:
                run.end()
                run = None
                ctl.send(b"clean")
