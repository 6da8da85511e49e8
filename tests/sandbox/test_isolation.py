"""Isolation levels: detection for doctor, the command lines, and the fallbacks still contain."""

from __future__ import annotations

import dataclasses
import os
import signal
import threading

import pytest
from sandbox_cases import ASSERT, FAST, FUNC, REFERENCE, REFERENCE_STDIN, STDIN, descendants
from test_hostile import CORPUS, PROBLEMS

from mars2.errors import ConfigError
from mars2.sandbox import Sandbox
from mars2.sandbox.isolation import LEVELS, available_levels, describe_isolation, worker_command


def test_describe_isolation_names_a_level() -> None:
    level, detail = describe_isolation()
    assert level in LEVELS and detail


def test_auto_tries_the_best_level_first_then_weaker_ones() -> None:
    best, _ = describe_isolation()
    assert available_levels("auto")[0] == best
    assert available_levels("auto")[-1] == "rlimit"
    assert available_levels("unshare") == ["unshare"]


def test_bwrap_command_binds_no_home_and_blocks_the_network() -> None:
    cmd = worker_command("bwrap")
    assert "--unshare-all" in cmd and "--die-with-parent" in cmd and "--clearenv" in cmd
    assert cmd[-4:-1] == ["-I", "-S", "-c"] and "worker_main(None)" in cmd[-1]
    assert "worker_main(1)" in worker_command("bwrap", cpu=1)[-1]
    binds = {cmd[i + 1] for i, arg in enumerate(cmd) if arg in ("--bind", "--ro-bind")}
    assert not any(b in ("/", "/home", "/root", "/work") for b in binds)
    assert "--bind" not in cmd  # nothing of the host is writable


def test_unknown_isolation_is_a_config_error() -> None:
    with pytest.raises(ConfigError):
        dataclasses.replace(FAST, isolation="chroot")  # type: ignore[arg-type]


FALLBACK_CORPUS = ["setsid_daemon", "double_fork_daemon", "fork_bomb", "os_exit0_before_tests"]
FALLBACK_CORPUS += ["always_equal_object", "snoop_gc", "kill_parent", "memory_bomb"]


@pytest.mark.parametrize("level", ["unshare", "rlimit"])
def test_fallback_levels_still_grade_and_contain(level: str) -> None:
    if level == "unshare" and describe_isolation()[0] == "rlimit":
        pytest.skip("unshare namespaces are not available here")
    before = descendants(os.getpid())
    with Sandbox(dataclasses.replace(FAST, isolation=level)) as box:  # type: ignore[arg-type]
        assert box.isolation == level
        baseline = len(descendants(os.getpid()))
        assert box.run(REFERENCE, FUNC).passed
        assert box.run(REFERENCE, ASSERT).passed
        assert box.run(REFERENCE_STDIN, STDIN).passed
        for name in FALLBACK_CORPUS:
            style, code, _ = CORPUS[name]
            result = box.run(code, PROBLEMS[style])
            assert not any(t.passed for t in result.tests), name
            assert len(descendants(os.getpid())) == baseline, f"{name} left processes"
        assert box.run(REFERENCE, FUNC).passed
    assert descendants(os.getpid()) <= before


@pytest.mark.parametrize("level", ["unshare", "rlimit"])
def test_fallback_levels_leave_nothing_in_the_host_tmp(level: str) -> None:
    """Without a private /tmp, a run's directory lives in its worker's own directory, which goes
    with the worker: also when the worker is killed mid-run with files (some read-only) left."""
    if level == "unshare" and describe_isolation()[0] == "rlimit":
        pytest.skip("unshare namespaces are not available here")
    plant = (
        "import os, time\nos.makedirs('keep/deeper')\nopen('keep/deeper/left', 'w').write('x')\n"
        "os.chmod('keep/deeper', 0o500)\nos.chmod('keep', 0o500)\n"
        "def f(x):\n    time.sleep(0.8)\n"
    )
    config = dataclasses.replace(FAST, isolation=level, workers=1)  # type: ignore[arg-type]
    with Sandbox(config) as box:
        worker = box._workers[0]
        assert worker.tmp is not None and os.path.isdir(worker.tmp)
        killer = threading.Timer(0.4, lambda: os.killpg(worker.proc.pid, signal.SIGKILL))
        killer.start()
        result = box.run(plant, FUNC)
        killer.join()
        assert not any(t.passed for t in result.tests)
        assert box.stats.worker_restarts == 1 and not os.path.exists(worker.tmp)
        fresh = box._workers[0].tmp
        assert box.run(REFERENCE, FUNC).passed
        assert fresh is not None and os.listdir(fresh) == []  # the run cleaned its directory
    assert not os.path.exists(fresh)
