"""Pieces of mars2.cluster that need no cluster: engine choice, config checks, Ray being optional,
actors fitted to (or refused by) a cluster's resources."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from mars2.cluster import make_placement
from mars2.cluster.proxies import _least_loaded
from mars2.cluster.resources import agent_actors, check_fits, cpus_per_actor, engine_owner
from mars2.config import ClusterConfig, Config, load_config
from mars2.errors import ConfigError, InfraError, UserError


def test_least_loaded_prefers_idle_engines_then_round_robin() -> None:
    assert _least_loaded([2, 0, 1], turn=0) == 1
    assert _least_loaded([1, 1, 1], turn=0) == 0
    assert _least_loaded([1, 1, 1], turn=1) == 1
    assert _least_loaded([1, 1, 1], turn=5) == 2  # 5 % 3
    assert _least_loaded([0, 1, 0], turn=1) == 2  # tie between 0 and 2, turn 1 -> 2 comes first


@pytest.mark.parametrize(
    ("field", "value"),
    [("cpus_per_actor", 0.0), ("max_restarts", -1), ("timeout_s", 0.0), ("engines_per_agent", 0)],
)
def test_dist_config_rejects_bad_values(field: str, value: float) -> None:
    with pytest.raises(ConfigError, match=field):
        ClusterConfig(**{field: value})  # type: ignore[arg-type]


def test_import_mars2_cluster_imports_neither_ray_nor_the_trainer() -> None:
    """Ray stays optional, and the Trainer's placement imports this package, not the reverse."""
    code = (
        "import sys, mars2.cluster, mars2.cluster.placement; "
        "print('ray' in sys.modules, 'mars2.training.placement' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_ray_backend_without_ray_is_a_user_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    config = load_config(None, ["cluster.backend=ray", "agents=[{model: tiny-random}]"])
    with pytest.raises(UserError, match=r"pip install 'mars2\[ray\]'"):
        make_placement(config)


SMOKE = Path(__file__).resolve().parents[2] / "configs" / "smoke.yaml"
ONE_NODE = [{"CPU": 2.0}]


def smoke(*overrides: str) -> Config:
    return load_config(SMOKE, list(overrides))


@pytest.mark.parametrize(
    ("overrides", "nodes", "cpus"),
    [
        ((), ONE_NODE, 0.5),  # 2 learners + 2 engines share 2 CPUs
        (("cluster.sandbox_actors=1",), ONE_NODE, 0.4),
        (("cluster.engines_per_agent=2",), ONE_NODE, 0.33),  # floored to 0.01
        ((), [{"CPU": 64.0}], 1.0),  # at most 1 each
        ((), [{"CPU": 1.0}, {"CPU": 1.0}], 0.5),
        ((), [{"CPU": 3.0}, {"CPU": 0.5}], 0.75),  # both agents' 2-actor bundles on the big node
        (("agents.1.trainable=false",), ONE_NODE, 0.66),  # a frozen agent has no learner
    ],
)
def test_auto_cpus_fit_the_cluster(
    overrides: tuple[str, ...], nodes: list[dict[str, float]], cpus: float
) -> None:
    config = smoke(*overrides)
    total = {"CPU": sum(n["CPU"] for n in nodes)}
    assert config.cluster.cpus_per_actor == "auto"
    got = cpus_per_actor(config, total, nodes)
    assert got == pytest.approx(cpus)
    check_fits(config, got, total, nodes)  # what auto picks always fits


def test_an_explicit_request_is_honoured_never_lowered() -> None:
    for value in (0.25, 1.0, 64.0):
        config = smoke(f"cluster.cpus_per_actor={value}")
        assert cpus_per_actor(config, {"CPU": 2.0}, ONE_NODE) == value


def test_a_request_above_the_cluster_total_names_resource_request_and_fix() -> None:
    config = smoke("cluster.cpus_per_actor=64")
    with pytest.raises(UserError) as err:
        check_fits(config, 64.0, {"CPU": 2.0}, ONE_NODE)
    text = str(err.value)
    assert "needs 256 CPU" in text and "has 2 CPU in all" in text
    assert "cluster.cpus_per_actor=64 x 4 actors (2 learners, 2 engines, 0 sandbox actors)" in text
    assert "fix: cluster.cpus_per_actor=auto" in text


def test_gpus_on_a_cpu_cluster_are_refused() -> None:
    config = smoke("cluster.gpus_per_learner=1")
    with pytest.raises(UserError, match=r"needs 2 GPU .*has 0 GPU in all.*gpus_per_learner"):
        check_fits(config, 0.5, {"CPU": 2.0}, ONE_NODE)


def test_a_bundle_larger_than_every_node_is_refused() -> None:
    # 1.5 CPUs fit the two nodes' total, but an agent's shared bundle (learner + engine) is one
    # node's worth: 2 x 0.75 > 1.
    config = smoke("cluster.cpus_per_actor=0.375")
    nodes = [{"CPU": 1.0}, {"CPU": 1.0}]
    check_fits(config, 0.375, {"CPU": 2.0}, nodes)  # 0.75 per bundle fits a node
    with pytest.raises(UserError, match=r"agent coder: .*needs 1.5 CPU on one node.*largest node"):
        check_fits(smoke("cluster.cpus_per_actor=0.75"), 0.75, {"CPU": 4.0}, nodes)


def test_auto_on_a_cluster_without_cpus_is_a_user_error() -> None:
    with pytest.raises(UserError, match="has 0 CPU for 4 actors"):
        cpus_per_actor(smoke(), {}, [{}])
    with pytest.raises(UserError, match="needs 2 GPU"):  # the GPUs, not the CPUs, are missing
        cpus_per_actor(smoke("cluster.gpus_per_engine=1"), {"CPU": 2.0}, ONE_NODE)


def test_cpus_per_actor_accepts_auto_or_a_positive_number() -> None:
    assert load_config(None, ["cluster.cpus_per_actor=auto"]).cluster.cpus_per_actor == "auto"
    assert load_config(None, ["cluster.cpus_per_actor=0.5"]).cluster.cpus_per_actor == 0.5
    with pytest.raises(ConfigError, match="allowed: auto; or expected a number"):
        load_config(None, ["cluster.cpus_per_actor=many"])


def test_agents_that_share_weights_share_the_learner_and_if_alike_the_engines() -> None:
    """The defaults (coder and debugger on one adapter, sampling alike): one learner, one engine
    for both. A debugger that samples differently gets engines of its own, no learner."""
    default = load_config(None, ["cluster.backend=ray"])
    assert [(a.agent_id, a.gpus) for a in agent_actors(default)] == [(0, (0.0, 0.0))]
    assert [engine_owner(default, i) for i in range(2)] == [0, 0]
    assert cpus_per_actor(default, {"CPU": 2.0}, ONE_NODE) == 1.0  # 1 learner + 1 engine
    with pytest.raises(UserError, match=r"x 2 actors \(1 learner, 1 engine, 0 sandbox actors\)"):
        check_fits(default, 64.0, {"CPU": 2.0}, ONE_NODE)
    apart = load_config(None, ["cluster.backend=ray", "agents.1.top_p=0.9"])
    assert [engine_owner(apart, i) for i in range(2)] == [0, 1]
    gpus = load_config(
        None, ["cluster.gpus_per_learner=1", "cluster.gpus_per_engine=1", "agents.1.top_p=0.9"]
    )
    assert [(a.agent_id, a.gpus) for a in agent_actors(gpus)] == [(0, (1.0, 1.0)), (1, (1.0,))]
    shared = smoke("agents.0.lora_rank=8", "agents.1.lora_rank=8", "agents.1.share_with=coder")
    assert [a.agent_id for a in agent_actors(shared)] == [0]  # roles differ, engines do not


def test_a_head_that_wants_a_token_is_named_with_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ray sends its token to an explicit address only with RAY_AUTH_MODE=token."""
    ray = pytest.importorskip("ray")
    from mars2.cluster.connection import connect

    def refused(**kwargs: object) -> None:
        cause = RuntimeError("RPC error: InvalidAuthToken: Authentication token is missing")
        raise ConnectionError("Failed to connect to Ray cluster at 10.0.0.1:6379") from cause

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", refused)
    with pytest.raises(InfraError, match=r"cannot reach a Ray cluster.*RAY_AUTH_MODE=token"):
        connect(ClusterConfig(backend="ray", address="10.0.0.1:6379"))


# Two worker nodes labelled by custom resources (`ray start --resources='{"node_a": 1}'`).
LABELLED = [{"CPU": 1.0, "node_a": 1.0}, {"CPU": 1.0, "node_b": 1.0}]
APART = ["cluster.learner_resources={node_a: 1}", "cluster.engine_resources={node_b: 1}"]


def test_custom_resources_put_the_learner_and_the_engine_in_bundles_of_their_own() -> None:
    config = load_config(None, APART)  # the default job: 1 learner + 1 engine for two agents
    (actors,) = agent_actors(config)
    assert not actors.shared  # a shared bundle would hold them on one node
    assert actors.bundles(1.0) == [{"CPU": 1.0, "node_a": 1.0}, {"CPU": 1.0, "node_b": 1.0}]
    assert actors.where() == [0, 1]
    total = {"CPU": 2.0, "node_a": 1.0, "node_b": 1.0}
    assert cpus_per_actor(config, total, LABELLED) == 1.0
    check_fits(config, 1.0, total, LABELLED)
    # The same custom resources for both: one bundle that holds the sum of what each reserves.
    alike = load_config(
        None,
        ["cluster.learner_resources={gpu_box: 0.5}", "cluster.engine_resources={gpu_box: 0.5}"],
    )
    (actors,) = agent_actors(alike)
    assert actors.shared and actors.bundles(0.5) == [{"CPU": 1.0, "gpu_box": 1.0}]


def test_a_custom_resource_the_cluster_lacks_is_refused_with_the_fix() -> None:
    config = load_config(None, ["cluster.learner_resources={node_c: 1}"])
    with pytest.raises(UserError) as err:
        cpus_per_actor(config, {"CPU": 2.0, "node_a": 1.0, "node_b": 1.0}, LABELLED)
    text = str(err.value)
    assert "needs 1 node_c (cluster.learner_resources for 1 learner, 1 engine" in text
    assert "has 0 node_c in all" in text
    assert """ray start --resources='{"node_c": N}'""" in text
    # Two sandbox actors that each reserve all of node_b: the total is short by one.
    sandboxes = load_config(
        None, ["cluster.sandbox_actors=2", "cluster.sandbox_resources={node_b: 1}"]
    )
    with pytest.raises(UserError, match=r"needs 2 node_b \(cluster.sandbox_resources"):
        check_fits(sandboxes, 0.5, {"CPU": 2.0, "node_a": 1.0, "node_b": 1.0}, LABELLED)


@pytest.mark.parametrize(
    ("value", "match"),
    [
        ("{GPU: 1}", "names of custom Ray resources"),
        ("{node_a: 0}", "amounts must be > 0"),
        ("[node_a]", "expected a mapping"),
    ],
)
def test_custom_resources_are_checked_when_the_config_loads(value: str, match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        load_config(None, [f"cluster.engine_resources={value}"])
    assert load_config(None, APART).cluster.learner_resources == {"node_a": 1.0}


def test_an_actor_death_is_told_on_one_line_with_its_node() -> None:
    ray_exceptions = pytest.importorskip("ray.exceptions")
    from ray.core.generated.common_pb2 import ActorDiedErrorContext

    from mars2.cluster.connection import _death

    context = ActorDiedErrorContext(
        error_message="The actor is dead because its node has died. Node Id: 1a2b",
        class_name="LearnerActor",
        actor_id=bytes(16),
        node_ip_address="127.0.0.1",
        pid=42,
    )
    assert _death(ray_exceptions.ActorDiedError(context)) == (
        "The actor died unexpectedly before finishing this task; class_name LearnerActor, pid 42, "
        "ip 127.0.0.1; The actor is dead because its node has died. Node Id: 1a2b"
    )
    assert _death(ray_exceptions.ActorDiedError()) == (
        "The actor died unexpectedly before finishing this task"
    )
