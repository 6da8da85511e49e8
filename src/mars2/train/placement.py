"""Where a run's pieces live: the seam between the Trainer and the processes that hold models.

The Trainer asks a `Placement` for each agent's learner (None for a frozen agent), each agent's
generation Policy, the sandbox, and to push a learner's new weights to its engines. The
`LocalPlacement` keeps everything in this process (the `hf` engine generates with the learner's
own model object); `mars2.cluster.RayPlacement` puts learners, engines and sandbox workers in Ray
actors; `mars2.cluster.make_placement` picks one from `config.dist.backend` (the cluster
package sits above train: train never imports it).
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any, Protocol

from mars2.agents.base import Policy
from mars2.config import Config
from mars2.sandbox import Sandbox
from mars2.types import ExecResult, Problem, Sample


class LearnerLike(Protocol):
    """What the Trainer needs of one agent's learner (a `Learner`, or a handle to a remote one)."""

    def update(self, samples: list[Sample]) -> dict[str, float]: ...

    def state_dict(self) -> dict[str, Any]: ...

    def load_state_dict(self, state: dict[str, Any]) -> None: ...


class Executor(Protocol):
    """What the orchestrator needs of a sandbox: grade code without blocking the event loop."""

    async def arun(self, code: str, problem: Problem, which: Any = "all") -> ExecResult: ...


class Placement(Protocol):
    """Every agent's learner and Policy, the sandbox, and weight sync between them."""

    learners: list[LearnerLike | None]
    policies: list[Policy]

    def sync(self, agent_id: int) -> None:
        """Make agent `agent_id`'s engines generate with its learner's current weights."""
        ...

    def sandbox(self) -> AbstractContextManager[Executor]:
        """The sandbox for this run, used as a context manager for the run's duration."""
        ...

    def close(self) -> None:
        """Release engines, actors and clusters this placement started."""
        ...


class LocalPlacement:
    """Everything in this process: learners, engines (sharing the learners' models), sandbox."""

    def __init__(self, config: Config) -> None:
        from mars2.agents import load_model
        from mars2.rollout.engines import load_policies
        from mars2.train.learner import Learner

        self.config = config
        total_updates = config.train.steps * config.train.updates_per_step
        self.learners: list[LearnerLike | None] = []
        self._local: dict[int, Learner] = {}
        trainable: dict[int, tuple[Any, Any]] = {}
        for i, agent in enumerate(config.agents):
            if not agent.trainable:
                self.learners.append(None)
                continue
            model, tokenizer = load_model(agent.model, device=agent.device, dtype=agent.dtype)
            learner = Learner(
                model,
                tokenizer,
                agent,
                config.train,
                config.loss,
                total_updates=total_updates,
                seed=config.seed + i,
            )
            self.learners.append(learner)
            self._local[i] = learner
            trainable[i] = (learner.model, tokenizer)
        self.policies: list[Policy] = load_policies(
            config.agents, seed=config.seed, models=trainable
        )

    def sync(self, agent_id: int) -> None:
        """The in-process `hf` engine generates with the learner's own model object, so there
        is nothing to copy; other backends load the merged weights."""
        policy: Any = self.policies[agent_id]
        if self.config.agents[agent_id].backend == "hf":
            policy.sync_weights()
        else:
            policy.sync_weights(self._local[agent_id].merged_state_dict())

    def sandbox(self) -> AbstractContextManager[Executor]:
        return Sandbox(self.config.sandbox)

    def close(self) -> None:
        for policy in self.policies:
            policy.close()
