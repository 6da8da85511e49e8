"""Driver-side handles to actors: an agent's engines behind the Policy protocol, a learner behind
the Trainer's learner interface, and sandbox actors behind `arun`. Every wait is bounded."""

from __future__ import annotations

from collections.abc import Sequence
from types import TracebackType
from typing import Any

from mars2.agents.base import Messages, PolicyBase
from mars2.cluster.connection import get, require_ray, wait
from mars2.types import Completion, ExecResult, Problem, Sample


def _least_loaded(load: list[int], turn: int) -> int:
    """The index with the fewest requests in flight; ties go round-robin from `turn`."""
    n = len(load)
    return min(range(n), key=lambda i: (load[i], (i - turn) % n))


class EnginePool(PolicyBase):
    """One agent's rollout-engine actors as one Policy: each request goes to the engine with
    the fewest requests in flight. Requests carry their seed, so the answer does not depend on
    which engine serves it."""

    def __init__(
        self, name: str, tokenizer: Any, engines: Sequence[Any], *, seed: int, timeout_s: float
    ) -> None:
        assert engines, "an engine pool needs at least one engine"
        self._init_policy(name, seed)
        self.tokenizer = tokenizer
        self.engines = list(engines)
        self.timeout_s = timeout_s
        self.version = 0
        self._weights: list[Any] = []  # [ObjectRef] of the current version's weights
        self._load = [0] * len(self.engines)

    async def generate(self, messages: Messages, *, seed: int | None = None) -> Completion:
        index = _least_loaded(self._load, self._n_requests)
        seed = self._next_seed(seed)
        self._load[index] += 1
        try:
            ref = self.engines[index].generate.remote(messages, seed, self.version, self._weights)
            completion: Completion = await wait(
                ref, self.timeout_s, f"agent {self.name}: engine {index} generate"
            )
            return completion
        finally:
            self._load[index] -= 1

    def push(self, weights: Any) -> None:
        """Install new weights (an ObjectRef: stored once, fetched by every engine) on all
        engines, and wait until they have."""
        self.version += 1
        self._weights = [weights]
        refs = [engine.load_weights.remote(weights, self.version) for engine in self.engines]
        get(refs, self.timeout_s, f"agent {self.name}: weight sync")

    def stats(self) -> dict[str, float]:
        refs = [engine.stats.remote() for engine in self.engines]
        out: dict[str, float] = {}
        for stats in get(refs, self.timeout_s, f"agent {self.name}: engine stats"):
            for key, value in stats.items():
                out[key] = out.get(key, 0.0) + value
        out["weights_version"] = float(self.version)
        out["requests"] = float(self._n_requests)
        gen_s = out.get("generate_s", 0.0)
        out["tokens_per_s"] = out.get("tokens_generated", 0.0) / gen_s if gen_s > 0 else 0.0
        batches = out.get("batches", 0.0)
        out["mean_batch_size"] = out.get("requests", 0.0) / batches if batches else 0.0
        return out

    def close(self) -> None:
        """The placement owns the actors and ends them."""


class PendingUpdate:
    """An update running on a learner actor; `result()` waits for its figures (bounded by
    `cluster.timeout_s`, an actor death told with the fix)."""

    def __init__(self, ref: Any, timeout_s: float, what: str) -> None:
        self.ref, self.timeout_s, self.what = ref, timeout_s, what

    def result(self) -> dict[str, float]:
        stats: dict[str, float] = get(self.ref, self.timeout_s, self.what)
        return stats


class LearnerHandle:
    """One learner actor (one set of weights, for every agent that shares it), with the
    interface the Trainer uses of a local `Learner`."""

    def __init__(self, name: str, actor: Any, *, timeout_s: float) -> None:
        self.name = name
        self.actor = actor
        self.timeout_s = timeout_s
        self._changes = 0  # updates and loads so far: the weights' version on this side
        self._weights: dict[bool, tuple[int, Any]] = {}  # merged -> (version, ObjectRef)

    def update(
        self, samples: list[Sample], repairs: Sequence[Any] = (), repair_weight: float = 0.0
    ) -> dict[str, float]:
        return self.submit(samples, repairs, repair_weight).result()

    def submit(
        self, samples: list[Sample], repairs: Sequence[Any] = (), repair_weight: float = 0.0
    ) -> PendingUpdate:
        """Start an update and return at once: the actor runs it (after any update before it)
        while the driver goes on; `result()` waits for its figures."""
        self._changes += 1
        ref = self.actor.update.remote(list(samples), list(repairs), repair_weight)
        return PendingUpdate(ref, self.timeout_s, f"agent {self.name}: update")

    def state_dict(self) -> dict[str, Any]:
        state: dict[str, Any] = get(
            self.actor.state_dict.remote(), self.timeout_s, f"agent {self.name}: state_dict"
        )
        return state

    def load_state_dict(self, state: dict[str, Any]) -> None:
        self._changes += 1
        get(
            self.actor.load_state_dict.remote(state),
            self.timeout_s,
            f"agent {self.name}: load_state_dict",
        )

    def weights(self, merged: bool) -> Any:
        """An ObjectRef to the learner's current weights (they stay in the object store). One
        per version: agents that share the weights sync from the same object."""
        version, ref = self._weights.get(merged, (-1, None))
        if version != self._changes:
            ref = self.actor.weights.remote(merged)
            self._weights[merged] = (self._changes, ref)
        return ref


class SandboxPool:
    """Sandbox actors behind the `arun` of a local Sandbox; a context manager that ends them."""

    def __init__(self, actors: Sequence[Any], *, timeout_s: float) -> None:
        self.actors = list(actors)
        self.timeout_s = timeout_s
        self._load = [0] * len(self.actors)
        self._turn = 0

    async def arun(self, code: str, problem: Problem, which: Any = "all") -> ExecResult:
        index = _least_loaded(self._load, self._turn)
        self._turn += 1
        self._load[index] += 1
        try:
            ref = self.actors[index].run.remote(code, problem, which)
            result: ExecResult = await wait(ref, self.timeout_s, f"sandbox actor {index}")
            return result
        finally:
            self._load[index] -= 1

    def __enter__(self) -> SandboxPool:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        ray = require_ray()
        for actor in self.actors:
            ray.kill(actor)
