"""A multi-node Ray cluster on one machine that loses a node mid-run.

A head (`ray start --head`, no CPUs: only the driver joins it) and two worker nodes (`ray start
--address`), each with a custom resource (`node_a`, `node_b`), all on loopback with free ports
and a temporary folder. The default job's shape (coder and debugger training one LoRA adapter:
one learner, one shared engine) runs with `cluster.learner_resources={node_a: 1}` and
`cluster.engine_resources={node_b: 1}`: the learner process is a child of node A's raylet, the
engine's of node B's. After the step-1 checkpoint every process of node A gets SIGKILL: the run
stops with one `error:` line naming the learner and `--resume`, no traceback; a fresh node A
joins and `mars2 train --resume` finishes the run with the metrics of an uninterrupted
one-process run. Every node is stopped on the way out, also when the test fails.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_ray_cli import ENV, SMOKE, free_ports, metrics

pytest.importorskip("ray", reason="Ray is not installed (pip install 'mars2[ray]')")
psutil = pytest.importorskip("psutil")  # a dependency of Ray

TINY = (
    "model: tiny-random, max_new_tokens: 32, temperature: 1.0, rollout_dtype: model, lora_rank: 16"
)
SHAPE = [  # the default job's shape at smoke size: one adapter trained by two agents
    f"agents=[{{name: coder, role: coder, {TINY}}}, "
    f"{{name: debugger, role: debugger, share_with: coder, {TINY}}}]",
    "train.lr=1e-3",
    "train.steps=3",
    "train.checkpoint_every=1",
    "output.tensorboard=false",
    # the per-tree search: with the default `pooling: run` this resume diverges from the
    # uninterrupted run from step 2 on (an open defect, see docs/distributed.md)
    "search.pooling=none",
    "credit.reward=spread_reward:by_code",
    "eval.before=false",  # one small final evaluation: the test is about training
    "eval.limit=1",
    "eval.samples=1",
]
PLACED = [
    "cluster.backend=ray",
    "cluster.learner_resources={node_a: 1}",
    "cluster.engine_resources={node_b: 1}",
    "cluster.timeout_s=300",
]


def mars2_train(out: Path, args: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
    with (out.parent / f"{out.name}.stderr").open("w") as stderr:
        return subprocess.Popen(
            [sys.executable, "-m", "mars2", "train", *args],
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            env=env,
        )


def finish(proc: subprocess.Popen[bytes], out: Path) -> tuple[int, str]:
    try:
        proc.wait(timeout=900)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc.returncode, (out.parent / f"{out.name}.stderr").read_text(errors="replace")


class Nodes:
    """`ray start --block` processes (one per node) in sessions of their own."""

    def __init__(self, temp_dir: str, env: dict[str, str]) -> None:
        self.temp_dir, self.env = temp_dir, env
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.address = ""

    def start(self, name: str, *args: str) -> psutil.Process:
        agent, agent_grpc, env_agent, metrics_port = free_ports(4)
        where = ["--head", f"--temp-dir={self.temp_dir}"] if not self.procs else []
        if self.address:
            where = [f"--address={self.address}"]
        cmd = [
            "ray", "start", "--block", *where, *args, "--num-gpus=0", "--disable-usage-stats",
            f"--dashboard-agent-listen-port={agent}", f"--dashboard-agent-grpc-port={agent_grpc}",
            f"--runtime-env-agent-port={env_agent}", f"--metrics-export-port={metrics_port}",
        ]  # fmt: skip
        log = Path(self.temp_dir) / f"{name}.log"
        with log.open("w") as handle:
            proc = subprocess.Popen(
                cmd, stdout=handle, stderr=subprocess.STDOUT, env=self.env, start_new_session=True
            )
        self.procs[name] = proc
        deadline = time.monotonic() + 300
        while "Ray runtime started" not in log.read_text(errors="replace"):
            assert proc.poll() is None, f"{name}: ray start exited: {log.read_text()}"
            assert time.monotonic() < deadline, f"{name} did not start: {log.read_text()}"
            time.sleep(0.5)
        return psutil.Process(proc.pid)

    def kill(self, name: str) -> None:
        """SIGKILL to the node's `ray start`, its raylet and everything the raylet started."""
        proc = self.procs.pop(name)
        with contextlib.suppress(psutil.NoSuchProcess):
            family = [psutil.Process(proc.pid), *psutil.Process(proc.pid).children(recursive=True)]
            for member in family:
                with contextlib.suppress(psutil.NoSuchProcess):
                    member.kill()
            psutil.wait_procs(family, timeout=30)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()

    def stop_all(self) -> None:
        for name in reversed(list(self.procs)):  # workers first, the head last
            self.kill(name)


@contextlib.contextmanager
def three_nodes() -> Iterator[tuple[Nodes, psutil.Process, psutil.Process]]:
    """Head (0 CPUs) + node A (1 CPU, node_a) + node B (1 CPU, node_b); all stopped on exit."""
    (port,) = free_ports(1)
    temp_dir = tempfile.mkdtemp(prefix="m2nodes-", dir="/tmp")  # short: Ray's socket paths
    token = Path(temp_dir) / "auth_token"
    token.write_text(secrets.token_hex(32))
    env = {
        **ENV,
        "RAY_AUTH_MODE": "token",
        "RAY_AUTH_TOKEN_PATH": str(token),
        # A dead node is noticed within ~3 s rather than Ray's default ~30 s.
        "RAY_health_check_period_ms": "1000",
        "RAY_health_check_failure_threshold": "3",
    }
    nodes = Nodes(temp_dir, env)
    try:
        nodes.start("head", f"--port={port}", "--num-cpus=0", "--include-dashboard=false")
        nodes.address = f"127.0.0.1:{port}"
        node_a = nodes.start("a", "--num-cpus=1", '--resources={"node_a": 1}')
        node_b = nodes.start("b", "--num-cpus=1", '--resources={"node_b": 1}')
        yield nodes, node_a, node_b
    finally:
        nodes.stop_all()
        subprocess.run(["rm", "-rf", temp_dir], check=False)


def actor_processes(node: Any, title: str) -> list[Any]:
    """The node's processes of actor class `title` (Ray titles a worker `ray::TITLE...`)."""
    found = []
    with contextlib.suppress(psutil.NoSuchProcess):
        for child in node.children(recursive=True):
            with contextlib.suppress(psutil.NoSuchProcess, psutil.AccessDenied):
                if any(title in part for part in child.cmdline()):
                    found.append(child)
    return found


def latest_checkpoint(out: Path) -> str:
    path = out / "checkpoints" / "latest"
    return path.read_text().strip() if path.is_file() else ""


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_losing_the_learner_node_stops_cleanly_and_resume_matches(
    tmp_path: Path, one_ray_cluster_at_a_time: None
) -> None:
    local = tmp_path / "local"
    code, stderr = finish(
        mars2_train(local, ["--config", SMOKE, "--out", str(local), *SHAPE], ENV), local
    )
    assert code == 0, stderr[-3000:]
    want = metrics(local)
    steps = [r["step"] for r in want]
    assert steps[-3:] == [1, 2, 3]
    assert all(
        r["grad_norm/coder"] > 0 for r in want if r["step"] > 0
    )  # the weights change at every step

    out = tmp_path / "ray"
    with three_nodes() as (nodes, node_a, node_b):
        ray = [*PLACED, f"cluster.address={nodes.address}"]
        run = mars2_train(out, ["--config", SMOKE, "--out", str(out), *SHAPE, *ray], nodes.env)
        placed: dict[str, list[int]] = {}
        while run.poll() is None and not placed:
            if latest_checkpoint(out) == "step_000001":  # both actors have served a step
                placed = {
                    f"{title} on {name}": [p.pid for p in actor_processes(node, title)]
                    for title in ("LearnerActor", "EngineActor")
                    for name, node in (("a", node_a), ("b", node_b))
                }
                nodes.kill("a")  # the learner's node, while step 2 rolls out
            time.sleep(0.2)
        code, stderr = finish(run, out)
        assert placed, f"the run ended before node A could be killed: {stderr[-3000:]}"
        assert [len(placed[k]) for k in sorted(placed)] == [0, 1, 1, 0], placed
        assert code == 1, stderr[-3000:]
        assert "Traceback" not in stderr
        # one message of ours; Ray's reason inside it may say "error:" too (an RPC error)
        assert stderr.count("\nerror: agent ") == 1, stderr[-3000:]
        error = " ".join(stderr[stderr.index("error:") :].split())  # rich wraps at 80 columns
        assert error.startswith("error: agent coder: update: the actor died"), error
        assert error.endswith("from its last checkpoint with `mars2 train --resume RUN_DIR`")
        assert latest_checkpoint(out) == "step_000001"
        assert [r["step"] for r in metrics(out)] == [s for s in steps if s <= 1]

        # A healthy cluster again: a fresh node with node_a joins; the run resumes on it.
        nodes.start("a2", "--num-cpus=1", '--resources={"node_a": 1}')
        again = out.parent / "resumed"
        code, stderr = finish(mars2_train(again, ["--resume", str(out)], nodes.env), again)
        assert code == 0, stderr[-3000:]
    have = metrics(out)
    assert [r["step"] for r in have] == steps
    for a, b in zip(want, have, strict=True):
        assert a.keys() == b.keys()
        for key in a:
            assert b[key] == pytest.approx(a[key], rel=1e-4, abs=1e-5), (a["step"], key)
