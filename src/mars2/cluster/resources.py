"""A run's actors against a Ray cluster's resources: `cluster.cpus_per_actor=auto` fitted to the
cluster's CPUs, and a placement the cluster can never hold refused at once with a UserError.

Pure functions over plain numbers (no Ray): `RayPlacement` passes in the cluster's total
resources and each node's. A request that fits the totals but not the free resources of the
moment is not refused here; `RayPlacement` waits `cluster.timeout_s` for it.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from mars2.config import AgentConfig, Config
from mars2.errors import UserError

Resources = dict[str, float]


@dataclass(frozen=True)
class AgentActors:
    """The actors of one agent's placement group: their GPUs and custom resources, learner
    first (when it trains)."""

    agent_id: int
    gpus: tuple[float, ...]
    custom: tuple[Resources, ...] = ()  # per actor; () = none for any

    def _custom(self, index: int) -> Resources:
        return self.custom[index] if self.custom else {}

    @property
    def shared(self) -> bool:
        """At most one GPU in all and the same custom resources for every actor: one bundle,
        so the actors share a node and that GPU (different custom resources may name
        different nodes)."""
        same = all(self._custom(i) == self._custom(0) for i in range(len(self.gpus)))
        return sum(self.gpus) <= 1 and same

    def bundles(self, cpus: float) -> list[Resources]:
        """The placement group's bundles when each actor reserves `cpus` CPUs."""
        n = len(self.gpus)
        if self.shared:
            custom = {k: v * n for k, v in self._custom(0).items()}
            return [_bundle(cpus * n, sum(self.gpus)) | custom]
        return [_bundle(cpus, gpus) | self._custom(i) for i, gpus in enumerate(self.gpus)]

    def where(self) -> list[int]:
        """The bundle index of each actor."""
        return [0] * len(self.gpus) if self.shared else list(range(len(self.gpus)))


def _bundle(cpus: float, gpus: float) -> Resources:
    return {"CPU": cpus, "GPU": gpus} if gpus > 0 else {"CPU": cpus}


def owns_learner(config: Config, agent_id: int) -> bool:
    """Whether the agent has a learner actor: it trains weights that it shares with no one else
    (an agent that `share_with`s another is trained by that agent's learner)."""
    agent = config.agents[agent_id]
    return agent.trainable and agent.share_with is None


def _engine_settings(agent: AgentConfig) -> AgentConfig:
    """The agent's settings without those that are not its engine's (identity and prompt)."""
    return dataclasses.replace(agent, name="", role="", system_prompt=None, share_with=None)


def engine_owner(config: Config, agent_id: int) -> int:
    """The agent whose rollout-engine actors serve agent `agent_id`: the agent whose weights it
    shares when every engine setting is equal (one engine, one batch for both, as in one
    process), else itself."""
    agent = config.agents[agent_id]
    if agent.share_with is None or not agent.trainable:
        return agent_id
    owner = config.weights_owner(agent_id)
    same = _engine_settings(agent) == _engine_settings(config.agents[owner])
    return owner if same else agent_id


def agent_actors(config: Config) -> list[AgentActors]:
    """Every agent with actors of its own: a learner (when it owns trained weights) and engines
    (unless it uses the engines of the agent whose weights it shares). An `openai` agent is an
    HTTP client: nothing to place."""
    cluster = config.cluster
    out = []
    for i, agent in enumerate(config.agents):
        if agent.backend == "openai" or engine_owner(config, i) != i:
            continue
        learner = owns_learner(config, i)
        gpus = [cluster.gpus_per_learner] if learner else []
        gpus += [cluster.gpus_per_engine] * cluster.engines_per_agent
        custom = [cluster.learner_resources] if learner else []
        custom += [cluster.engine_resources] * cluster.engines_per_agent
        out.append(AgentActors(i, tuple(gpus), tuple(dict(c) for c in custom)))
    return out


def _census(config: Config) -> str:
    """'2 learners, 2 engines, 1 sandbox actor' for messages."""
    agents = agent_actors(config)
    learners = sum(owns_learner(config, a.agent_id) for a in agents)
    engines = sum(len(a.gpus) for a in agents) - learners
    parts = [
        (learners, "learner"),
        (engines, "engine"),
        (config.cluster.sandbox_actors, "sandbox actor"),
    ]
    return ", ".join(f"{n} {name}{'s' if n != 1 else ''}" for n, name in parts)


def n_actors(config: Config) -> int:
    """Actors that reserve CPUs: learners, engines and sandbox actors."""
    return sum(len(a.gpus) for a in agent_actors(config)) + config.cluster.sandbox_actors


def cpus_per_actor(config: Config, total: Resources, nodes: list[Resources]) -> float:
    """`cluster.cpus_per_actor`, with `auto` resolved: the cluster's CPUs shared among the run's
    actors (at most 1 each, in steps of 0.01), lowered until every bundle and sandbox actor
    packs onto the nodes. An explicit number is returned as it is, never lowered."""
    requested = config.cluster.cpus_per_actor
    if requested != "auto":
        return float(requested)
    count = n_actors(config)
    if count == 0:
        return 1.0
    cpus = math.floor(min(1.0, total.get("CPU", 0.0) / count) * 100) / 100
    while cpus > 0 and not _packs(_items(config, cpus), nodes):
        cpus = round(cpus - 0.01, 2)
    if cpus <= 0:
        if any(key != "CPU" for item in _items(config, 0.01) for key in item):
            check_fits(config, 0.01, total, nodes)  # names missing GPUs or custom resources
        raise UserError(
            f"cluster.cpus_per_actor=auto: the Ray cluster has {total.get('CPU', 0.0):g} CPU for "
            f"{count} actors ({_census(config)}), too few for 0.01 each; add CPUs to the "
            "cluster or run fewer actors (cluster.engines_per_agent, cluster.sandbox_actors)"
        )
    return cpus


def check_fits(config: Config, cpus: float, total: Resources, nodes: list[Resources]) -> None:
    """UserError when the run's actors can never be placed on this cluster: they need more of a
    resource than the cluster has in all, or a bundle is larger than every node."""
    need: Resources = {}
    for item in _items(config, cpus):
        for resource, amount in item.items():
            need[resource] = need.get(resource, 0.0) + amount
    for resource, amount in need.items():
        have = total.get(resource, 0.0)
        if amount > have + 1e-9:
            raise UserError(
                f"the run needs {amount:g} {resource} ({_request(config, cpus, resource)}) but "
                f"the Ray cluster has {have:g} {resource} in all, so it can never be placed; "
                f"fix: {_fix(resource)}"
            )
    for actors in agent_actors(config):
        for bundle in actors.bundles(cpus):
            if any(_holds(node, bundle) for node in nodes):
                continue
            short = {r: max((n.get(r, 0.0) for n in nodes), default=0.0) for r in bundle}
            resource = next((r for r in bundle if bundle[r] > short[r] + 1e-9), "CPU")
            raise UserError(
                f"agent {config.agent_name(actors.agent_id)}: its placement-group bundle {bundle} "
                f"needs {bundle[resource]:g} {resource} on one node "
                f"({_request(config, cpus, resource)}), but the largest node of the Ray cluster "
                f"has {short[resource]:g} {resource}, so it can never be placed; fix: "
                f"{_fix(resource)}"
            )


def _request(config: Config, cpus: float, resource: str) -> str:
    """The settings that ask for `resource`, for messages."""
    cluster = config.cluster
    if resource == "CPU":
        return f"cluster.cpus_per_actor={cpus:g} x {n_actors(config)} actors ({_census(config)})"
    if resource == "GPU":
        return (
            f"cluster.gpus_per_learner={cluster.gpus_per_learner:g}, "
            f"cluster.gpus_per_engine={cluster.gpus_per_engine:g} x {cluster.engines_per_agent} "
            f"engines per agent, {len(agent_actors(config))} agents with engines of their own"
        )
    kinds = ("learner", "engine", "sandbox")
    names = [
        f"cluster.{k}_resources" for k in kinds if resource in getattr(cluster, f"{k}_resources")
    ]
    return f"{' and '.join(names)} for {_census(config)}"


def _fix(resource: str) -> str:
    if resource == "CPU":
        return (
            "cluster.cpus_per_actor=auto (fits the actors to the cluster), a smaller "
            "cluster.cpus_per_actor, fewer actors, or more nodes"
        )
    if resource == "GPU":
        return "lower cluster.gpus_per_learner / cluster.gpus_per_engine (0 runs on CPU), or add GPU nodes"
    return (
        f"start nodes that have it (`ray start --resources='{{\"{resource}\": N}}'`), or "
        "lower or drop it in cluster.learner_resources / engine_resources / sandbox_resources"
    )


def _items(config: Config, cpus: float) -> list[Resources]:
    """What must land on nodes: every placement-group bundle and every sandbox actor."""
    bundles = [b for actors in agent_actors(config) for b in actors.bundles(cpus)]
    sandbox = {"CPU": cpus} | config.cluster.sandbox_resources
    return bundles + [dict(sandbox) for _ in range(config.cluster.sandbox_actors)]


def _packs(items: list[Resources], nodes: list[Resources]) -> bool:
    """First-fit decreasing: True when the items surely fit on the nodes together."""
    free = [dict(node) for node in nodes]
    for item in sorted(items, key=lambda i: (len(i), i.get("GPU", 0.0), i["CPU"]), reverse=True):
        node = next((n for n in free if _holds(n, item)), None)
        if node is None:
            return False
        for key, value in item.items():
            node[key] = node.get(key, 0.0) - value
    return True


def _holds(node: Resources, bundle: Resources) -> bool:
    return all(node.get(key, 0.0) + 1e-9 >= value for key, value in bundle.items())
