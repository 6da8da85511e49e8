"""Dynamic filtering (drop groups whose raw rewards are all equal) and per-agent batch filling."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Generic, Protocol, TypeVar

from mars2.config import CreditConfig
from mars2.credit.advantage import GroupKey, NodeCredit, group_key


def filter_groups(credits: Sequence[NodeCredit], config: CreditConfig) -> list[NodeCredit]:
    """The credits whose advantage group (config.group: tree or (tree, agent)) has at least two
    distinct raw rewards, in input order; all of them when `config.dynamic_filter` is off.

    A group whose raw rewards are all equal carries no learning signal in GRPO (every advantage
    is 0 when shaping only compares raw rewards), so DAPO drops it and samples more instead."""
    if not config.dynamic_filter:
        return list(credits)
    rewards: dict[GroupKey, set[float]] = {}
    for c in credits:
        rewards.setdefault(group_key(c.tree_id, c.agent_id, config.group), set()).add(c.reward)
    return [c for c in credits if len(rewards[group_key(c.tree_id, c.agent_id, config.group)]) > 1]


class HasAgent(Protocol):
    """Anything that records the agent that wrote it (NodeCredit, mars2.types.Sample)."""

    @property
    def agent_id(self) -> int: ...


T = TypeVar("T", bound=HasAgent)


class AgentBatcher(Generic[T]):
    """Accumulates (filtered) samples per agent until that agent's batch is full.

    The loop adds what each rollout round produced with `add`, keeps sampling while
    `all_ready()` is False, then trains agent k on `take(k)`. Samples of agents without a batch
    size (frozen helpers) are ignored. `take` returns exactly the batch size, oldest first, and by
    default drops the surplus (as DAPO does) so no sample outlives the policy that produced it."""

    def __init__(self, batch_sizes: Mapping[int, int]) -> None:
        for agent_id, size in batch_sizes.items():
            if size < 1:
                raise ValueError(f"agent {agent_id}: batch size must be >= 1, got {size}")
        self.batch_sizes = dict(batch_sizes)
        self._pending: dict[int, list[T]] = {a: [] for a in batch_sizes}

    def add(self, samples: Iterable[T]) -> None:
        for sample in samples:
            if sample.agent_id in self._pending:
                self._pending[sample.agent_id].append(sample)

    def pending(self, agent_id: int) -> int:
        """How many samples of this agent are waiting."""
        return len(self._pending[agent_id])

    def missing(self, agent_id: int) -> int:
        """How many more samples this agent needs for a full batch (0 when ready)."""
        return max(0, self.batch_sizes[agent_id] - self.pending(agent_id))

    def ready(self, agent_id: int) -> bool:
        return self.missing(agent_id) == 0

    def all_ready(self) -> bool:
        return all(self.ready(a) for a in self.batch_sizes)

    def take(self, agent_id: int, *, keep_surplus: bool = False) -> list[T]:
        """This agent's full batch (oldest samples first); raises if it is not ready. The surplus is
        dropped unless `keep_surplus`."""
        if not self.ready(agent_id):
            raise ValueError(
                f"agent {agent_id}: batch not full ({self.pending(agent_id)}/"
                f"{self.batch_sizes[agent_id]}); check ready() first"
            )
        size = self.batch_sizes[agent_id]
        batch, rest = self._pending[agent_id][:size], self._pending[agent_id][size:]
        self._pending[agent_id] = rest if keep_surplus else []
        return batch
