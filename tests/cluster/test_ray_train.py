"""`configs/smoke.yaml` on a local 2-CPU Ray cluster: the same metrics as the one-process run,
a killed learner stops the run with an InfraError and a resumable checkpoint, a killed engine
is restarted and serves the current weights (the resumed run still matches), a layout the
cluster can never hold fails at once, and one it cannot hold now waits cluster.timeout_s; the main
job's shape (two agents training one LoRA adapter through share_with) gives the same metrics on
Ray as in one process. The runs use a reward with a spread (spread_reward.py), so the weights
change at every step and each weight sync matters."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fakes import DeferredLearner

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'mars2[ray]')")
from ray.util.placement_group import placement_group, remove_placement_group  # noqa: E402

from mars2.cluster import make_placement  # noqa: E402
from mars2.cluster.placement import RayPlacement  # noqa: E402
from mars2.cluster.proxies import LearnerHandle  # noqa: E402
from mars2.config import Config, load_config  # noqa: E402
from mars2.errors import InfraError, UserError  # noqa: E402
from mars2.training import checkpoint  # noqa: E402
from mars2.training.logger import run_figures  # noqa: E402
from mars2.training.loop import Trainer  # noqa: E402
from mars2.training.placement import LocalPlacement  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SMOKE = ROOT / "configs" / "smoke.yaml"
COMMON = ["output.tensorboard=false", "credit.reward=spread_reward:by_code"]
# 2 learners + 2 engines + 1 sandbox actor at 0.25 CPU each fit the 2-CPU cluster.
RAY = [
    "cluster.backend=ray",
    "cluster.cpus_per_actor=0.25",
    "cluster.sandbox_actors=1",
    "cluster.timeout_s=400",  # generous: a loaded 2-core machine starts four actors slowly
]


@pytest.fixture(scope="module")
def cluster(one_ray_cluster_at_a_time: None) -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


def config(*extra: str) -> Config:
    return load_config(SMOKE, [*COMMON, *extra])


def metrics(run_dir: Path) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in (run_dir / "metrics.jsonl").read_text().splitlines()]
    return [run_figures(row) for row in rows]


def assert_same(want: list[dict[str, Any]], have: list[dict[str, Any]]) -> None:
    assert [r["step"] for r in have] == [r["step"] for r in want]
    for a, b in zip(want, have, strict=True):
        assert a.keys() == b.keys()
        for key in a:
            assert b[key] == pytest.approx(a[key], rel=1e-4, abs=1e-5), (a["step"], key)


def fit(cfg: Config, run_dir: Path, **kwargs: Any) -> Trainer:
    run_dir.mkdir(parents=True, exist_ok=True)
    trainer = Trainer(cfg, run_dir, make_placement(cfg))
    if kwargs.get("resume"):
        path = checkpoint.latest(run_dir)
        assert path is not None
        trainer.load_state_dict(checkpoint.load(path))
    if kwargs.get("before_fit"):
        kwargs["before_fit"](trainer)
    trainer.fit(kwargs.get("on_step"))
    return trainer


@pytest.mark.slow
@pytest.mark.timeout(1500)
def test_smoke_on_ray_matches_local_through_actor_deaths(cluster: None, tmp_path: Path) -> None:
    # More than the cluster has in all: a UserError at once (not after cluster.timeout_s) that
    # names the resource, the request and the fix.
    started = time.monotonic()
    with pytest.raises(
        UserError, match=r"needs 256 CPU \(cluster.cpus_per_actor=64 x 4 actors.*auto"
    ):
        RayPlacement(config("cluster.backend=ray", "cluster.cpus_per_actor=64"))
    assert time.monotonic() - started < 10
    # What fits the cluster but not now (another job holds every CPU) waits cluster.timeout_s.
    blocker = placement_group([{"CPU": 2}])
    ray.get(blocker.ready(), timeout=60)
    started = time.monotonic()
    with pytest.raises(InfraError, match=r"did not free the resources within cluster\.timeout_s=3"):
        RayPlacement(config("cluster.backend=ray", "cluster.timeout_s=3"))  # auto: 0.5 CPU each
    assert time.monotonic() - started >= 3
    remove_placement_group(blocker)

    reference = tmp_path / "local"
    fit(config(), reference)
    want = metrics(reference)
    assert [r["step"] for r in want] == [0, 1, 2]

    # Run A: the debugger's learner dies after step 1 -> InfraError at its next update.
    run = tmp_path / "ray"
    killed: list[str] = []

    def kill_learner(row: dict[str, Any], trainer: list[Trainer]) -> None:
        if row["step"] == 1:
            handle = trainer[0].learners[1]
            assert isinstance(handle, LearnerHandle)
            ray.kill(handle.actor)
            killed.append("learner")

    holder: list[Trainer] = []
    with pytest.raises(InfraError, match=r"debugger: update: the actor died.*--resume"):
        fit(
            config(*RAY),
            run,
            before_fit=holder.append,
            on_step=lambda row: kill_learner(row, holder),
        )
    assert killed == ["learner"]
    assert (run / "checkpoints" / "latest").read_text() == "step_000001"
    assert_same(want[:2], metrics(run))

    # Run B: resume on Ray; the coder's engine is killed first and must come back with the
    # step-1 weights (Ray restarts it; it reloads the current version from the object store).
    engine: list[Any] = []

    def kill_engine(trainer: Trainer) -> None:
        engine.append(trainer.placement.engines[0][0])  # type: ignore[attr-defined]
        ray.kill(engine[0], no_restart=False)

    def check_engine(row: dict[str, Any]) -> None:
        stats = ray.get(engine[0].stats.remote(), timeout=60)
        assert stats["catch_ups"] == 1.0  # a fresh process that loaded version 1 on demand
        assert stats["weights_version"] == 2.0  # and then step 2's push

    fit(config(*RAY), run, resume=True, before_fit=kill_engine, on_step=check_engine)
    assert_same(want, metrics(run))


# The main job's shape (the defaults: a coder and a debugger training ONE LoRA adapter through
# share_with) at smoke size, plus a planner with an adapter of its own on the same base model
# (locally one base in memory with two adapters; on Ray a learner actor per set of weights).
TINY = "model: tiny-random, max_new_tokens: 32, temperature: 1.0, rollout_dtype: model"
SHARED = [
    f"agents=[{{name: coder, role: coder, lora_rank: 16, {TINY}}}, "
    f"{{name: debugger, role: debugger, lora_rank: 16, share_with: coder, {TINY}}}, "
    f"{{name: planner, role: planner, lora_rank: 16, {TINY}}}]",
    "train.lr=1e-3",
    "train.checkpoint_every=0",
]


@pytest.mark.slow
@pytest.mark.timeout(1500)
def test_shared_lora_weights_on_ray_match_local(cluster: None, tmp_path: Path) -> None:
    fit(config(*SHARED), tmp_path / "local")
    trainer = fit(config(*SHARED, *RAY), tmp_path / "ray")
    coder, debugger, planner = trainer.learners
    assert isinstance(coder, LearnerHandle) and isinstance(planner, LearnerHandle)
    assert debugger is coder and planner is not coder  # one learner actor per set of weights
    pools = [[engine._actor_id for engine in pool.engines] for pool in trainer.policies]  # type: ignore[attr-defined]
    assert pools[1] == pools[0] != pools[2]  # coder and debugger sample alike: one engine
    want = metrics(tmp_path / "local")
    assert all(want[1][f"grad_norm/{name}"] > 0 for name in ("coder", "planner"))
    assert_same(want, metrics(tmp_path / "ray"))


# `train.update: per_agent` with `train.overlap` (the default): on Ray a step's updates run on
# the learner actors while the next step's rollout runs on the engines.
PER_AGENT = [
    "train.update=per_agent",
    "train.agent_batch=2",
    "train.steps=3",
    "train.checkpoint_every=0",
    "train.problems_per_step=2",
]


@pytest.mark.slow
@pytest.mark.timeout(1500)
def test_per_agent_overlap_on_ray_matches_the_pipeline_in_one_process(
    cluster: None, tmp_path: Path
) -> None:
    # The reference: the same pipeline in one process, with learners that train when their
    # update is collected (the rollout before that sees the old weights, as on Ray).
    cfg = config(*PER_AGENT)
    local = LocalPlacement(cfg)
    events: list[tuple[str, int]] = []
    local.learners = [
        None if lrn is None else DeferredLearner(lrn, events) for lrn in local.learners
    ]
    (tmp_path / "local").mkdir()
    Trainer(cfg, tmp_path / "local", local).fit()
    want = metrics(tmp_path / "local")
    assert any(want[1][f"in_flight/{name}"] for name in ("coder", "debugger"))

    trainer = fit(config(*PER_AGENT, *RAY), tmp_path / "ray")
    assert trainer.in_flight == []  # drained by the last step
    assert_same(want, metrics(tmp_path / "ray"))
