"""Where a run's pieces live: the seam between the Trainer and the processes that hold models.

The Trainer asks a `Placement` for each agent's learner (None for a frozen agent), each agent's
generation Policy, the sandbox, and to push a learner's new weights to its engines. The
`LocalPlacement` keeps everything in this process (the `hf` engine generates with the learner's
own model object); `mars2.cluster.RayPlacement` puts learners, engines and sandbox workers in Ray
actors; `mars2.cluster.make_placement` picks one from `config.cluster.backend` (the cluster
package sits above train: train never imports it).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from mars2 import seeds
from mars2.agents.base import Policy
from mars2.config import AgentConfig, Config
from mars2.rollout.orchestrator import Executor
from mars2.sandbox import Sandbox
from mars2.types import Sample

if TYPE_CHECKING:
    from mars2.training.learner import Learner


class LearnerLike(Protocol):
    """What the Trainer needs of one agent's learner (a `Learner`, or a handle to a remote one)."""

    def update(
        self, samples: list[Sample], repairs: Sequence[Any] = (), repair_weight: float = 0.0
    ) -> dict[str, float]:
        """One training step; `repairs` (hindsight `RepairPair`s) add the supervised term
        at `repair_weight`."""
        ...

    def state_dict(self) -> dict[str, Any]: ...

    def load_state_dict(self, state: dict[str, Any]) -> None: ...


class PendingUpdate(Protocol):
    """An update started by `SubmittingLearner.submit` that may still be running."""

    def result(self) -> dict[str, float]:
        """Wait for the update; its figures, as `update` returns them."""
        ...


@runtime_checkable
class SubmittingLearner(LearnerLike, Protocol):
    """A learner in a process of its own (a Ray learner actor): it can start an update and
    return at once, so that rollouts go on while it trains (`train.overlap`)."""

    def submit(
        self, samples: list[Sample], repairs: Sequence[Any] = (), repair_weight: float = 0.0
    ) -> PendingUpdate: ...


class Placement(Protocol):
    """Every agent's learner and Policy, the sandbox, and weight sync between them."""

    learners: list[LearnerLike | None]
    policies: list[Policy]

    def sync(self, agent_id: int) -> None:
        """Make agent `agent_id`'s engines generate with its learner's current weights."""
        ...

    def free_rollout_memory(self) -> None:
        """Between a rollout and the updates: free what engines hold for generating (KV and
        prompt caches) where it shares memory with the learners."""
        ...

    def sandbox(self) -> AbstractContextManager[Executor]:
        """The sandbox for this run, used as a context manager for the run's duration."""
        ...

    def close(self) -> None:
        """Release engines, actors and clusters this placement started."""
        ...


def _load(agent: AgentConfig) -> tuple[Any, Any]:
    from mars2.agents import load_model

    return load_model(agent.model, device=agent.device, dtype=agent.dtype)


BaseKey = tuple[str, str, str]  # (model, device, dtype): one base model in memory


@dataclass(frozen=True)
class OwnedWeights:
    """An agent that owns a set of trained weights (trainable, `share_with` no one), and the LoRA
    base it shares with other such agents, if any."""

    agent_id: int
    shared_base: BaseKey | None  # None: a model of its own (full fine-tuning, or a lone adapter)
    first: bool  # the first agent of `shared_base`: it loads the base the others add adapters to

    @property
    def adapter(self) -> str:
        """The name of this agent's adapter on a shared base."""
        return f"agent{self.agent_id}"


def owned_weights(config: Config) -> list[OwnedWeights]:
    """Every agent that owns trained weights, in agent order. LoRA agents of one base model (same
    model, device and dtype) train their own adapters on ONE copy of that base: the one rule by
    which training (`LocalPlacement`) and restoring (`training.restore`) group them."""
    owners = [i for i, a in enumerate(config.agents) if a.trainable and a.share_with is None]
    lora = {i: _base_key(config.agents[i]) for i in owners if config.agents[i].lora_rank > 0}
    keys = list(lora.values())
    shared = {key for key in keys if keys.count(key) > 1}
    out: list[OwnedWeights] = []
    seen: set[BaseKey] = set()
    for i in owners:
        key = lora[i] if lora.get(i) in shared else None  # full fine-tuning: a model of its own
        out.append(OwnedWeights(i, key, first=key is not None and key not in seen))
        if key is not None:
            seen.add(key)
    return out


def _base_key(agent: AgentConfig) -> BaseKey:
    return (agent.model, agent.device, agent.dtype)


def build_learner(
    config: Config, agent_id: int, model: Any, tokenizer: Any, *, adapter: str = "default"
) -> Learner:
    """Agent `agent_id`'s `Learner` over `model`: the one construction, in this process and in a
    Ray learner actor (`mars2.cluster.actors`)."""
    from mars2.training.learner import Learner

    return Learner(
        model,
        tokenizer,
        config.agents[agent_id],
        config.train,
        config.loss,
        total_updates=config.train.steps * config.train.updates_per_step,
        seed=seeds.learner(config.seed, agent_id),
        adapter=adapter,
    )


class LocalPlacement:
    """Everything in this process: learners, engines (sharing the learners' models), sandbox.

    Agents that `share_with` another get its learner (one model, one optimizer). LoRA agents of
    one base model (same model, device, dtype) train their own adapters on ONE copy of the base:
    the first loads it, the others add their adapter to it, and each agent's engine generates
    through an `AdapterView` of its adapter.
    """

    def __init__(self, config: Config) -> None:
        from mars2.rollout.engines import AdapterView, load_policies

        self.config = config
        self._local: dict[int, Learner] = {}
        trainable: dict[int, tuple[Any, Any]] = {}
        bases: dict[BaseKey, tuple[Any, Any, threading.Lock]] = {}
        for owned in owned_weights(config):
            i, key = owned.agent_id, owned.shared_base
            if key is not None and not owned.first:  # add this agent's adapter to that base
                model, tokenizer, lock = bases[key]
            else:
                model, tokenizer = _load(config.agents[i])
                lock = threading.Lock()
            learner = build_learner(config, i, model, tokenizer, adapter=owned.adapter)
            engine_model = learner.model
            if key is not None:
                bases[key] = (learner.model, tokenizer, lock)
                engine_model = AdapterView(learner.model, owned.adapter, lock)
            self._local[i] = learner
            trainable[i] = (engine_model, tokenizer)
        for i, agent in enumerate(config.agents):
            if agent.trainable and agent.share_with is not None:
                owner = config.weights_owner(i)
                self._local[i] = self._local[owner]
                trainable[i] = trainable[owner]
        self.learners: list[LearnerLike | None] = [
            self._local.get(i) for i in range(len(config.agents))
        ]
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

    def free_rollout_memory(self) -> None:
        """The hf engines share this process with the learners: their caches go before an
        update (measured: the main job's peak RSS, docs/performance.md)."""
        for policy in self.policies:
            free = getattr(policy, "free_rollout_memory", None)  # hf engines only
            if free is not None:
                free()

    def sandbox(self) -> AbstractContextManager[Executor]:
        return Sandbox(self.config.sandbox)

    def close(self) -> None:
        for policy in self.policies:
            policy.close()
