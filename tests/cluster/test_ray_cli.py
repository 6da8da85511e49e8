"""`mars2 train --config configs/smoke.yaml` on Ray as a user runs it: with `cluster.backend=ray` alone
(a local Ray cluster started and stopped by the run, its actors fitted to this machine's CPUs),
and against a Ray head started apart as its own process (`ray start --head`, then
`cluster.address=HOST:PORT`), where one rollout engine is sent SIGKILL mid-run: Ray restarts it, it
catches up with the current weights and the run goes on. Both write the same metrics as the
one-process run; a request the head can never hold is a clear user error within seconds. The
test stops the head it started, also when it fails.

The runs use a reward with a spread (spread_reward.py): under the real rewards tiny-random's
advantages are all 0, its weights never change, and a weight sync could not be told from none."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mars2.training.logger import run_figures

pytest.importorskip("ray", reason="Ray is not installed (pip install 'mars2[ray]')")
psutil = pytest.importorskip("psutil")  # a dependency of Ray

ROOT = Path(__file__).resolve().parents[2]
SMOKE = str(ROOT / "configs" / "smoke.yaml")
COMMON = [
    "output.tensorboard=false",
    "train.steps=2",
    "train.checkpoint_every=1",
    "credit.reward=spread_reward:by_code",
]
ENV = {
    **os.environ,
    "PYTHONPATH": os.pathsep.join(
        filter(None, [str(ROOT / "tests" / "cluster"), os.environ.get("PYTHONPATH")])
    ),
    # Ray's own knob: a loaded 2-core CI machine may take over a minute to start a raylet.
    "RAY_raylet_start_wait_time_s": "300",
}


def start_train(
    out: Path, *extra: str, env: dict[str, str] | None = None
) -> subprocess.Popen[bytes]:
    """`mars2 train` of the smoke config into `out`, its stderr in OUT.stderr beside it (a file,
    not a pipe nobody reads while the test waits)."""
    cmd = [sys.executable, "-m", "mars2", "train", "--config", SMOKE, "--out", str(out)]
    with stderr_file(out).open("w") as stderr:
        return subprocess.Popen(
            [*cmd, *COMMON, *extra], stdout=subprocess.DEVNULL, stderr=stderr, env=env or ENV
        )


def stderr_file(out: Path) -> Path:
    out.parent.mkdir(parents=True, exist_ok=True)
    return out.parent / f"{out.name}.stderr"


def finish(proc: subprocess.Popen[bytes], out: Path) -> tuple[int, str]:
    """Wait for the run (killing it past 900 s): its exit status and stderr."""
    try:
        proc.wait(timeout=900)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc.returncode, stderr_file(out).read_text(errors="replace")


def train(
    out: Path, *extra: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    code, stderr = finish(start_train(out, *extra, env=env), out)
    return subprocess.CompletedProcess([], code, "", stderr)


def metrics(out: Path) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    return [run_figures(row) for row in rows]


def assert_same(want: list[dict[str, Any]], have: list[dict[str, Any]]) -> None:
    assert [r["step"] for r in have] == [r["step"] for r in want] == [0, 1, 2]
    assert any(r.get("grad_norm/coder", 0) > 0 for r in want)  # the weights really changed
    for a, b in zip(want, have, strict=True):
        assert a.keys() == b.keys()
        for key in a:
            assert b[key] == pytest.approx(a[key], rel=1e-4, abs=1e-5), (a["step"], key)


@pytest.fixture(scope="module")
def local_run(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """The one-process run both Ray runs must equal."""
    out = tmp_path_factory.mktemp("local") / "run"
    done = train(out)
    assert done.returncode == 0, done.stderr[-3000:]
    return metrics(out)


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_smoke_cli_on_a_local_ray_cluster_equals_local(
    tmp_path: Path, local_run: list[dict[str, Any]], one_ray_cluster_at_a_time: None
) -> None:
    on_ray = train(tmp_path / "ray", "cluster.backend=ray")
    assert on_ray.returncode == 0, on_ray.stderr[-3000:]
    assert_same(local_run, metrics(tmp_path / "ray"))


# ---------------------------------------------------------------- a head node of its own


def free_ports(n: int) -> list[int]:
    sockets = [socket.socket() for _ in range(n)]
    for s in sockets:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


@contextlib.contextmanager
def ray_head(log: Path) -> Iterator[tuple[str, dict[str, str], Any]]:
    """A Ray head as its own process on this machine (`ray start --head --block`, a temporary
    folder, free ports, token authentication with a token of its own), yielded as (address, the
    environment a driver needs to join it, its psutil.Process); stopped on the way out
    (SIGTERM, then SIGKILL to every process it started), whatever happened inside."""
    port, client, agent, agent_grpc, env_agent, metrics_port = free_ports(6)
    temp_dir = tempfile.mkdtemp(prefix="m2ray-", dir="/tmp")  # short: Ray's socket paths
    token = Path(temp_dir) / "auth_token"
    token.write_text(secrets.token_hex(32))
    # Ray (>= 2.5x) sends a token to an explicit address only with RAY_AUTH_MODE=token.
    env = {**ENV, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN_PATH": str(token)}
    cmd = [
        "ray", "start", "--head", "--block", f"--port={port}",
        f"--temp-dir={temp_dir}", "--num-cpus=2", "--num-gpus=0", "--include-dashboard=false",
        "--disable-usage-stats", f"--ray-client-server-port={client}",
        f"--dashboard-agent-listen-port={agent}", f"--dashboard-agent-grpc-port={agent_grpc}",
        f"--runtime-env-agent-port={env_agent}", f"--metrics-export-port={metrics_port}",
    ]  # fmt: skip
    with log.open("w") as handle:
        head = subprocess.Popen(
            cmd, stdout=handle, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )
    process = psutil.Process(head.pid)
    try:
        deadline = time.monotonic() + 300
        while "Ray runtime started" not in log.read_text(errors="replace"):
            assert head.poll() is None, f"ray start exited {head.returncode}: {log.read_text()}"
            assert time.monotonic() < deadline, f"the head did not start: {log.read_text()}"
            time.sleep(0.5)
        yield f"127.0.0.1:{port}", env, process
    finally:
        started = process.children(recursive=True) if head.poll() is None else []
        head.terminate()
        try:
            head.wait(timeout=60)
        except subprocess.TimeoutExpired:
            head.kill()
            head.wait()
        for child in started:  # what the head's own shutdown left behind
            with contextlib.suppress(psutil.NoSuchProcess):
                child.kill()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(head.pid, signal.SIGKILL)
        psutil.wait_procs(started, timeout=30)
        subprocess.run(["rm", "-rf", temp_dir], check=False)


def engine_processes(head: Any) -> list[Any]:
    """The head's rollout-engine actor processes (Ray titles a worker `ray::EngineActor...`)."""
    found = []
    for child in head.children(recursive=True):
        with contextlib.suppress(psutil.NoSuchProcess, psutil.AccessDenied):
            if any("EngineActor" in part for part in child.cmdline()):
                found.append(child)
    return found


def rows_logged(out: Path) -> int:
    path = out / "metrics.jsonl"
    return len(path.read_text().splitlines()) if path.is_file() else 0


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_a_head_started_apart_runs_the_smoke_config_through_an_engine_sigkill(
    tmp_path: Path, local_run: list[dict[str, Any]], one_ray_cluster_at_a_time: None
) -> None:
    with ray_head(tmp_path / "head.log") as (address, env, head):
        ray = [
            "cluster.backend=ray",
            f"cluster.address={address}",
            "cluster.timeout_s=300",  # a bound on every wait: a lost actor can never hang the run
        ]
        # A request the head can never hold: a user error at once, not a wait of timeout_s.
        started = time.monotonic()
        refused = train(tmp_path / "too-big", *ray, "cluster.cpus_per_actor=64", env=env)
        assert refused.returncode == 2, refused.stderr[-3000:]
        assert "Traceback" not in refused.stderr
        assert "cluster.cpus_per_actor=64 x 4 actors" in refused.stderr
        assert "fix: cluster.cpus_per_actor=auto" in refused.stderr
        assert time.monotonic() - started < 300  # starting Python and Ray: the check is instant

        out = tmp_path / "ray"
        run = start_train(out, *ray, env=env)
        killed = None
        # After step 1 (its weights pushed to the engines), SIGKILL the coder's or the
        # debugger's engine while step 2 rolls out: Ray restarts it from the base weights, the
        # next request names version 1 and the new process loads it first.
        while run.poll() is None and killed is None:
            engines = engine_processes(head)
            if rows_logged(out) >= 2 and engines:
                killed = engines[0]
                killed.send_signal(signal.SIGKILL)
            time.sleep(0.2)
        code, stderr = finish(run, out)
        assert killed is not None, "the run ended before an engine could be killed"
        assert code == 0, stderr[-3000:]
        assert not killed.is_running()
        assert_same(local_run, metrics(out))
    assert not head.is_running()
