"""Detect the strongest process isolation this machine allows and build the worker command line.

Levels, strongest first: `bwrap` (bubblewrap: user/pid/net/ipc/uts/mount namespaces, read-only
binds of the system and the interpreter only, private tmpfs /tmp, unprivileged uid 65534),
`unshare` (user/pid/net/ipc/uts namespaces, the host filesystem as it is), `rlimit` (resource
limits only; the candidate drops to uid 65534 when the host user is root). A pids cgroup caps
the process count where one can be created (root with a cgroup v1 `pids` hierarchy), because
RLIMIT_NPROC does not bind processes whose host uid is root.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Literal

from mars2.sandbox.runtime.protocol import SANDBOX_UID, worker_program

Isolation = Literal["bwrap", "unshare", "rlimit"]
LEVELS: tuple[Isolation, ...] = ("bwrap", "unshare", "rlimit")
PIDS_ROOT = Path("/sys/fs/cgroup/pids")

log = logging.getLogger(__name__)


def _works(cmd: list[str]) -> bool:
    try:
        return subprocess.run(cmd, capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def _python() -> str:
    return os.path.realpath(sys.executable)


def _bwrap_args() -> list[str]:
    """bubblewrap options: no network, new session, clean env, read-only system, private /tmp."""
    args = ["--unshare-all", "--unshare-user", "--as-pid-1", "--die-with-parent", "--new-session"]
    args += ["--clearenv", "--setenv", "LANG", "C.UTF-8"]
    args += ["--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_UID)]
    for top in ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        if os.path.islink(top):
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    prefixes = {os.path.realpath(sys.base_prefix), os.path.dirname(os.path.dirname(_python()))}
    for prefix in sorted(prefixes):
        if not prefix.startswith("/usr/"):
            args += ["--ro-bind", prefix, prefix]
    args += ["--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache"]
    args += ["--tmpfs", "/tmp", "--proc", "/proc", "--dev", "/dev", "--chdir", "/tmp"]
    return args


def _unshare_args() -> list[str]:
    return [
        "--user",
        f"--map-user={SANDBOX_UID}",
        f"--map-group={SANDBOX_UID}",
        "--net",
        "--pid",
        "--ipc",
        "--uts",
        "--mount",
    ]
    # --fork/--kill-child/--mount-proc are appended by worker_command


RUNTIME = Path(__file__).parent / "runtime"  # the in-sandbox package (standard library only)
_RUNTIME_IN_BWRAP = "/opt/mars2"  # where bubblewrap shows RUNTIME's parent (read-only)


def worker_command(level: Isolation, cpu: int | None = None) -> list[str]:
    """The command that starts one worker (its judge, which forks the zygote) at `level`; with
    `cpu`, the worker's processes run on that CPU."""
    if level == "bwrap":
        bind = ["--ro-bind", str(RUNTIME), f"{_RUNTIME_IN_BWRAP}/runtime"]
        python = [_python(), "-I", "-S", "-c", worker_program(_RUNTIME_IN_BWRAP, cpu)]
        return [str(shutil.which("bwrap")), *_bwrap_args(), *bind, *python]
    python = [_python(), "-I", "-S", "-c", worker_program(str(RUNTIME.parent), cpu)]
    if level == "unshare":
        extra = ["--fork", "--kill-child", "--mount-proc"]
        return [str(shutil.which("unshare")), *_unshare_args(), *extra, *python]
    return python


@functools.cache
def describe_isolation() -> tuple[Isolation, str]:
    """The best isolation level available and a one-line explanation."""
    bwrap = shutil.which("bwrap")
    probe = [_python(), "-I", "-S", "-c", "pass"]
    if bwrap and _works([bwrap, *_bwrap_args(), *probe]):
        return (
            "bwrap",
            f"bubblewrap at {bwrap}: namespaces, no network, read-only system, uid {SANDBOX_UID}",
        )
    unshare = shutil.which("unshare")
    if unshare and _works([unshare, *_unshare_args(), "--fork", "--mount-proc", "true"]):
        return "unshare", "user/net/pid namespaces via unshare (bubblewrap not installed)"
    return "rlimit", "resource limits only: no namespaces available; network is NOT blocked"


def available_levels(requested: str) -> list[Isolation]:
    """The levels to try, in order, for a requested `SandboxConfig.isolation`."""
    if requested != "auto":
        return [requested]  # type: ignore[list-item]
    best, _ = describe_isolation()
    return list(LEVELS[LEVELS.index(best) :])


class PidsCgroup:
    """A cgroup v1 `pids` group capping how many processes a worker may have at once."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def create(cls, name: str, max_pids: int) -> PidsCgroup | None:
        """A new group, or None where this machine does not let us make one."""
        if os.geteuid() != 0 or not (PIDS_ROOT / "cgroup.procs").exists():
            return None
        path = PIDS_ROOT / "mars2" / name
        _remove_stale(path.parent)
        try:
            path.mkdir(parents=True, exist_ok=True)
            (path / "pids.max").write_text(str(max_pids))
        except OSError as err:
            log.debug("no pids cgroup: %s", err)
            return None
        return cls(path)

    def wrap(self, cmd: list[str]) -> list[str]:
        """`cmd` started inside the group (the shell joins it, then execs)."""
        procs = str(self.path / "cgroup.procs")
        return ["/bin/sh", "-c", 'echo $$ > "$0" && exec "$@"', procs, *cmd]

    def pids(self) -> list[int]:
        try:
            return [int(p) for p in (self.path / "cgroup.procs").read_text().split()]
        except OSError:
            return []

    def kill(self, keep: tuple[int, ...] = ()) -> None:
        """SIGKILL every process in the group but those in `keep`, until they are gone (~2 s)."""
        for _ in range(400):
            victims = [p for p in self.pids() if p not in keep]
            if not victims:
                return
            for pid in victims:
                with contextlib.suppress(OSError):
                    os.kill(pid, 9)
            time.sleep(0.005)

    def remove(self) -> None:
        self.kill()
        try:
            self.path.rmdir()
        except OSError as err:
            log.warning("could not remove the cgroup %s: %s", self.path, err)


def _remove_stale(parent: Path) -> None:
    """Remove empty groups left by mars2 processes that died without closing their sandbox."""
    try:
        groups = [g for g in parent.iterdir() if g.is_dir()]
    except OSError:
        return
    for group in groups:
        owner = group.name.split("-")[0]
        if owner.isdigit() and not Path(f"/proc/{owner}").exists():
            with contextlib.suppress(OSError):
                group.rmdir()  # fails (harmlessly) while processes remain in it
