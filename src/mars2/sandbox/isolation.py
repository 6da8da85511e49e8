"""Detect the strongest process isolation this machine allows: bubblewrap, unshare, rlimits."""

from __future__ import annotations

import functools
import shutil
import subprocess
from typing import Literal

Isolation = Literal["bwrap", "unshare", "rlimit"]


def _works(cmd: list[str]) -> bool:
    try:
        return subprocess.run(cmd, capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


@functools.cache
def describe_isolation() -> tuple[Isolation, str]:
    """The best isolation level available and a one-line explanation."""
    bwrap = shutil.which("bwrap")
    if bwrap and _works(
        [bwrap, "--unshare-all", "--die-with-parent", "--ro-bind", "/", "/", "true"]
    ):
        return "bwrap", f"bubblewrap at {bwrap}: namespaces, no network, read-only root"
    unshare = shutil.which("unshare")
    if unshare and _works(
        [unshare, "--user", "--map-root-user", "--net", "--pid", "--fork", "true"]
    ):
        return "unshare", "user/net/pid namespaces via unshare (bubblewrap not installed)"
    return "rlimit", "resource limits only: no namespaces available; network is NOT blocked"
