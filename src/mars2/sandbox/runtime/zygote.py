"""The zygote: a warm interpreter that forks a judge per run and candidates on the judge's
request, enforces the run's deadline, then kills everything the run left."""

from __future__ import annotations

import builtins
import contextlib
import gc
import os
import select
import shutil
import signal
import socket
import sys
import time
import traceback
from typing import Any

from .candidate import _fork_candidate
from .judge import judge_main
from .wire import (
    ERROR_TAIL,
    _emit,
    _fork,
    _no_dump,
    _on_alarm,
    _read_frame,
    _Timeout,
)

# `except BaseException` (noqa: BLE001) is deliberate in the sandbox runtime: candidate code can
# raise anything, SystemExit and KeyboardInterrupt included, and each must become a verdict.

PRELOAD = "typing collections itertools functools math heapq bisect re string random copy operator"


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
    # `python -S` skips `site`, which defines exit() and quit(); programs do call them.
    builtins.exit = builtins.quit = sys.exit  # type: ignore[assignment]
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
