"""`RayPlacement`: each agent's learner and rollout engines as Ray actors in the agent's own
placement group, sandbox workers as CPU actors, weights pushed learner -> engines through the
object store after every update. The driver keeps the orchestrator and credit assignment.

Per agent, one placement group (strategy PACK, so an agent's learner and engines share a node
when they fit). When the agent's actors need at most one GPU in all (`gpus_per_learner` +
`engines_per_agent` x `gpus_per_engine` <= 1, e.g. 0.5 + 0.5) they share ONE bundle, so they
land on one node and the same GPU; otherwise each actor has its own bundle
(`cpus_per_actor` CPUs plus its GPUs). There is one learner actor per set of trained weights:
frozen agents have none, and an agent that `share_with`s another is trained by that agent's
learner. It also generates on that agent's engines when every engine setting is equal (one
engine and one batch for both, as in one process), else on engines of its own that load the
shared weights.
Engines and sandbox actors restart up to `max_restarts` times and their calls are retried; a
learner holds optimizer state that cannot be rebuilt in place, so its death stops the run with
an InfraError, and `mars2 train --resume` continues from the last checkpoint.
"""

from __future__ import annotations

import logging
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from mars2 import seeds
from mars2.agents.base import Policy
from mars2.cluster.actors import EngineActor, LearnerActor, SandboxActor
from mars2.cluster.connection import connect, get, require_ray
from mars2.cluster.proxies import EnginePool, LearnerHandle, SandboxPool
from mars2.cluster.resources import (
    AgentActors,
    agent_actors,
    check_fits,
    cpus_per_actor,
    engine_owner,
    owns_learner,
)
from mars2.config import Config
from mars2.errors import InfraError
from mars2.sandbox import Sandbox

if TYPE_CHECKING:  # the Trainer's seam, for annotations only: this package never imports train
    from mars2.rollout.orchestrator import Executor
    from mars2.training.placement import LearnerLike

log = logging.getLogger(__name__)


class RayPlacement:
    """Learners, engines and sandbox workers of a run as Ray actors (see the module docstring)."""

    def __init__(self, config: Config) -> None:
        self.ray = require_ray()
        self.config = config
        self.cluster = config.cluster
        self.learners: list[LearnerLike | None] = []
        self.policies: list[Policy] = []
        self.handles: dict[int, LearnerHandle] = {}
        self.engines: dict[int, list[Any]] = {}
        self._groups: list[Any] = []
        self._connected = connect(self.cluster)
        try:
            self.cpus = self._fit()
            self._start()
        except BaseException:
            self.close()
            raise

    # ------------------------------------------------------------------ building

    def _fit(self) -> float:
        """CPUs per actor (`auto` resolved); a UserError, before anything is placed, when the
        run can never fit this cluster (only a run that could fit later waits for it)."""
        total = {k: float(v) for k, v in self.ray.cluster_resources().items()}
        nodes = [
            {k: float(v) for k, v in node["Resources"].items()}
            for node in self.ray.nodes()
            if node.get("Alive", True)
        ]
        cpus = cpus_per_actor(self.config, total, nodes)
        check_fits(self.config, cpus, total, nodes)
        log.info(
            "ray: %g CPUs per actor (cluster.cpus_per_actor=%s)", cpus, self.cluster.cpus_per_actor
        )
        return cpus

    def _start(self) -> None:
        from mars2.agents import load_policy, load_tokenizer

        ready: list[Any] = []
        for actors in agent_actors(self.config):  # learners and engines, agent by agent
            i = actors.agent_id
            group, where = self._group(actors)
            if owns_learner(self.config, i):
                options = self._actor(
                    LearnerActor,
                    group,
                    where.pop(0),
                    self.cluster.gpus_per_learner,
                    0,
                    self.cluster.learner_resources,
                )
                learner = options.remote(self.config, i)
                name = self.config.agent_name(i)
                self.handles[i] = LearnerHandle(name, learner, timeout_s=self.cluster.timeout_s)
                ready.append((f"agent {name}: learner", learner.ready.remote()))
            engines = []
            for bundle in where:
                options = self._actor(
                    EngineActor,
                    group,
                    bundle,
                    self.cluster.gpus_per_engine,
                    self.cluster.max_restarts,
                    self.cluster.engine_resources,
                )
                engines.append(options.remote(self.config, i, seeds.policy(self.config.seed, i)))
                what = f"agent {self.config.agent_name(i)}: engine {len(engines) - 1}"
                ready.append((what, engines[-1].ready.remote()))
            self.engines[i] = engines
        for i, agent in enumerate(self.config.agents):
            seed = seeds.policy(self.config.seed, i)
            if agent.backend == "openai":  # an HTTP client: nothing placed
                self.policies.append(load_policy(agent, seed=seed))
                continue
            self.policies.append(  # its own queue and seeds, on its engines or its owner's
                EnginePool(
                    self.config.agent_name(i),
                    load_tokenizer(agent.model),
                    self.engines[engine_owner(self.config, i)],
                    seed=seed,
                    timeout_s=self.cluster.timeout_s,
                )
            )
        self.learners = [
            None if agent.backend == "openai" else self._learner_of(i)
            for i, agent in enumerate(self.config.agents)
        ]
        nodes = get(
            [ref for _, ref in ready],
            self.cluster.timeout_s,
            "starting the learner and engine actors",
        )
        for (what, _), node in zip(ready, nodes, strict=True):
            log.info("ray: %s on node %s", what, node)

    def _learner_of(self, agent_id: int) -> LearnerHandle | None:
        """The learner that trains agent `agent_id`'s weights: its own, or, when it
        `share_with`s another agent, that agent's (one handle object, so the Trainer sees one
        learner for both)."""
        if not self.config.agents[agent_id].trainable:
            return None
        return self.handles.get(self.config.weights_owner(agent_id))

    def _group(self, actors: AgentActors) -> tuple[Any, list[int]]:
        """The agent's placement group, and the bundle index of each of its actors (learner
        first, when it trains, then the engines). Waits up to `cluster.timeout_s` for resources
        that other work holds now (a layout that can never fit was refused by `_fit`)."""
        from ray.util.placement_group import placement_group

        bundles = actors.bundles(self.cpus)
        group = placement_group(bundles, strategy="PACK", name=f"mars2-agent{actors.agent_id}")
        self._groups.append(group)
        ready, _ = self.ray.wait([group.ready()], timeout=self.cluster.timeout_s)
        if not ready:
            raise InfraError(
                f"agent {self.config.agent_name(actors.agent_id)}: the cluster could hold its "
                f"placement group {bundles} but did not free the resources within "
                f"cluster.timeout_s={self.cluster.timeout_s:g} s (cluster now: "
                f"{self.ray.available_resources()} free of {self.ray.cluster_resources()}); "
                "wait for other jobs to finish, or lower cluster.cpus_per_actor / gpus_per_*"
            )
        return group, actors.where()

    def _actor(
        self,
        cls: type,
        group: Any,
        bundle: int,
        gpus: float,
        restarts: int,
        resources: dict[str, float],
    ) -> Any:
        from ray.util.scheduling_strategies import PlacementGroupSchedulingStrategy

        return self.ray.remote(cls).options(
            num_cpus=self.cpus,
            num_gpus=gpus,
            resources=resources,
            max_restarts=restarts,
            max_task_retries=restarts,
            scheduling_strategy=PlacementGroupSchedulingStrategy(
                placement_group=group, placement_group_bundle_index=bundle
            ),
        )

    # ------------------------------------------------------------------ the Placement seam

    def sync(self, agent_id: int) -> None:
        """The learner's weights go into the object store once per update; every engine of
        the agent, and of every agent that shares those weights, loads them from there (the
        driver never holds them)."""
        pool = self.policies[agent_id]
        handle = self.learners[agent_id]
        assert isinstance(pool, EnginePool) and isinstance(handle, LearnerHandle)
        pool.push(handle.weights(merged=self.config.agents[agent_id].backend != "hf"))

    def free_rollout_memory(self) -> None:
        """Nothing to do: engines run in their own actors, apart from the learners' memory."""

    def sandbox(self) -> AbstractContextManager[Executor]:
        if self.cluster.sandbox_actors == 0:
            return Sandbox(self.config.sandbox)
        cls = self.ray.remote(SandboxActor).options(
            num_cpus=self.cpus,
            max_concurrency=self.config.sandbox.workers,
            max_restarts=self.cluster.max_restarts,
            max_task_retries=self.cluster.max_restarts,
            resources=self.cluster.sandbox_resources,
        )
        actors = [cls.remote(self.config.sandbox) for _ in range(self.cluster.sandbox_actors)]
        pool = SandboxPool(actors, timeout_s=self.cluster.timeout_s)
        try:
            get(
                [a.ready.remote() for a in actors],
                self.cluster.timeout_s,
                "starting sandbox actors",
            )
        except BaseException:
            pool.__exit__(None, None, None)
            raise
        return pool

    def close(self) -> None:
        """End every actor and placement group; disconnect if this placement connected."""
        from ray.util.placement_group import remove_placement_group

        for policy in self.policies:  # driver-side clients (openai); engine pools hold nothing
            policy.close()
        for actors in self.engines.values():
            for actor in actors:
                self.ray.kill(actor)
        for handle in self.handles.values():
            self.ray.kill(handle.actor)
        for group in self._groups:
            remove_placement_group(group)
        self.policies, self.engines, self.handles, self._groups = [], {}, {}, []
        if self._connected:
            self.ray.shutdown()
            self._connected = False
