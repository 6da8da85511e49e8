"""`mars2 train --config configs/smoke.yaml dist.backend=ray` as a user types it on a 2-core
machine: it starts a local Ray cluster, fits the actors to its CPUs (`dist.cpus_per_actor=auto`)
and writes the same metrics as the one-process run; a request the cluster can never hold is a
clear user error within seconds, not a wait of dist.timeout_s."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ray", reason="Ray is not installed (pip install 'mars2[ray]')")

ROOT = Path(__file__).resolve().parents[2]
SMOKE = str(ROOT / "configs" / "smoke.yaml")
# Runs on every CPU count: the cluster is this machine's, as for a user.
COMMON = ["output.tensorboard=false", "train.steps=2", "train.checkpoint_every=1"]


def train(out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "mars2", "train", "--config", SMOKE, "--out", str(out)]
    # Ray's own knob: a loaded 2-core CI machine may take over a minute to start a raylet.
    env = {**os.environ, "RAY_raylet_start_wait_time_s": "300"}
    return subprocess.run(
        [*cmd, *COMMON, *extra], capture_output=True, text=True, timeout=900, env=env
    )


def metrics(out: Path) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    return [{k: v for k, v in row.items() if not k.startswith("time/")} for row in rows]


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_smoke_cli_on_ray_equals_local_and_an_impossible_request_fails_fast(
    tmp_path: Path, one_ray_cluster_at_a_time: None
) -> None:
    local = train(tmp_path / "local")
    assert local.returncode == 0, local.stderr[-3000:]
    on_ray = train(tmp_path / "ray", "dist.backend=ray")
    assert on_ray.returncode == 0, on_ray.stderr[-3000:]
    want, have = metrics(tmp_path / "local"), metrics(tmp_path / "ray")
    assert [r["step"] for r in have] == [r["step"] for r in want] == [0, 1, 2]
    for a, b in zip(want, have, strict=True):
        assert a.keys() == b.keys()
        for key in a:
            assert b[key] == pytest.approx(a[key], rel=1e-4, abs=1e-5), (a["step"], key)

    started = time.monotonic()
    refused = train(tmp_path / "too-big", "dist.backend=ray", "dist.cpus_per_actor=64")
    elapsed = time.monotonic() - started
    assert refused.returncode == 2, refused.stderr[-3000:]
    assert "Traceback" not in refused.stderr
    assert "dist.cpus_per_actor=64 x 4 actors" in refused.stderr
    assert "fix: dist.cpus_per_actor=auto" in refused.stderr
    # Starting Python and Ray take all of it (seconds, or minutes on a loaded machine); the
    # placement check itself is immediate (tests/cluster/test_ray_train.py times it).
    assert elapsed < 300
