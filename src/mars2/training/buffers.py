"""Per-agent sample buffers for `train.update: per_agent`: each set of trained weights collects
its agents' samples and takes an update whenever it holds a full batch (docs/training.md,
"Per-agent updates").

A set of weights has a version: the number of updates it has taken. Every sample carries the
version of the weights that wrote it; its staleness when trained is the weights' version then
minus its own. Samples staler than `max_staleness` are dropped, never trained on: within the
bound the loss's TIS weight (learner log-prob over the rollout log-prob the sample kept) is the
importance correction, and beyond it that truncated weight's bias grows with every update.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Mapping, Sequence
from typing import Any

from mars2.training.placement import LearnerLike, Placement
from mars2.types import Sample

# learner figures that add up over a step's updates (the others are averaged)
_SUMMED = ("samples", "tokens")


class SampleBuffers:
    """The waiting samples, the version and the drop count of each set of weights, keyed by
    the name of the agent that owns them. `batch[name]`: samples in one full batch."""

    def __init__(self, batch: Mapping[str, int], max_staleness: int) -> None:
        assert all(size >= 1 for size in batch.values()), "a full batch holds at least one sample"
        self.batch = dict(batch)
        self.max_staleness = max_staleness
        self.waiting: dict[str, list[Sample]] = {name: [] for name in batch}
        self.versions: dict[str, int] = dict.fromkeys(batch, 0)
        self.dropped: dict[str, int] = dict.fromkeys(batch, 0)  # stale samples, whole run

    def add(self, name: str, samples: Sequence[Sample]) -> None:
        """Queue samples written by the weights called `name` (oldest first)."""
        self.waiting[name].extend(samples)

    def drop_stale(self, name: str) -> int:
        """Drop the waiting samples older than `max_staleness` updates; how many went."""
        oldest = self.versions[name] - self.max_staleness
        kept = [s for s in self.waiting[name] if s.version >= oldest]
        gone = len(self.waiting[name]) - len(kept)
        self.waiting[name] = kept
        self.dropped[name] += gone
        return gone

    def take(self, name: str) -> list[Sample] | None:
        """The oldest full batch, removed from the buffer (stale samples dropped first), or
        None while fewer than a batch are waiting."""
        self.drop_stale(name)
        size = self.batch[name]
        if len(self.waiting[name]) < size:
            return None
        batch, self.waiting[name] = self.waiting[name][:size], self.waiting[name][size:]
        return batch

    def staleness(self, name: str, samples: Sequence[Sample]) -> float:
        """Mean staleness of `samples` against the current version of weights `name`."""
        return sum(self.versions[name] - s.version for s in samples) / max(len(samples), 1)

    # ------------------------------------------------------------------ checkpoints

    def state_dict(self) -> dict[str, Any]:
        """Plain data (lists, numbers): every waiting sample field by field, in order."""
        return {
            "waiting": {
                name: [dataclasses.asdict(s) for s in samples]
                for name, samples in self.waiting.items()
            },
            "versions": dict(self.versions),
            "dropped": dict(self.dropped),
        }

    def load_state_dict(self, state: Mapping[str, Any]) -> None:
        """Restore `state_dict()`; weights the state does not know start empty at version 0."""
        for name in self.batch:
            self.waiting[name] = [Sample(**s) for s in state["waiting"].get(name, [])]
            self.versions[name] = state["versions"].get(name, 0)
            self.dropped[name] = state["dropped"].get(name, 0)


def update_from_buffers(
    buffers: SampleBuffers,
    groups: Sequence[tuple[LearnerLike, list[int], str]],
    samples: Sequence[Sample],
    placement: Placement,
    names: Sequence[str],
    metrics: dict[str, Any],
) -> tuple[float, float]:
    """Queue a step's samples in their weights' buffers, then update each set of weights
    (`groups`: learner, the agents it trains, the owner's name) once per full batch it holds
    and sync its agents' engines after its last update; return (learn, sync) seconds.

    Per agent in `metrics`: `updates/NAME` (this step), `buffer/NAME` (samples left waiting),
    `stale_dropped/NAME` (dropped this step), `version/NAME` (updates taken so far),
    `staleness/NAME` (mean staleness of the samples trained on, when it updated) and the
    learner's figures, averaged over the step's updates (`samples` and `tokens` summed)."""
    learn_s = sync_s = 0.0
    freed = False
    for learner, members, owner in groups:
        buffers.add(owner, [s for s in samples if s.agent_id in members])
        dropped_before = buffers.dropped[owner]
        runs: list[dict[str, float]] = []
        trained: list[Sample] = []
        staleness = 0.0
        while (batch := buffers.take(owner)) is not None:
            if not freed:  # the engines' caches: memory for the update
                placement.free_rollout_memory()
                freed = True
            staleness += buffers.staleness(owner, batch) * len(batch)
            started = time.perf_counter()
            runs.append(learner.update(batch))
            learn_s += time.perf_counter() - started
            buffers.versions[owner] += 1
            trained += batch
        if runs:
            started = time.perf_counter()
            for agent_id in members:
                placement.sync(agent_id)
            sync_s += time.perf_counter() - started
        figures = {
            "updates": float(len(runs)),
            "buffer": float(len(buffers.waiting[owner])),
            "stale_dropped": float(buffers.dropped[owner] - dropped_before),
            "version": float(buffers.versions[owner]),
        }
        if runs:
            figures["staleness"] = staleness / len(trained)
            figures.update(_combined(runs))
        for agent_id in members:
            name = names[agent_id]
            metrics.update({f"{key}/{name}": value for key, value in figures.items()})
            if len(members) > 1 and runs:
                own = [s for s in trained if s.agent_id == agent_id]
                metrics[f"samples/{name}"] = float(len(own))
                metrics[f"tokens/{name}"] = float(sum(len(s.response_ids) for s in own))
    return learn_s, sync_s


def _combined(runs: Sequence[Mapping[str, float]]) -> dict[str, float]:
    """One step's figures from several updates' figures: sums for `_SUMMED`, else means."""
    keys = dict.fromkeys(key for run in runs for key in run)
    out = {}
    for key in keys:
        values = [run[key] for run in runs if key in run]
        out[key] = sum(values) if key in _SUMMED else sum(values) / len(values)
    return out
