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

from mars2.training.placement import LearnerLike, PendingUpdate, Placement, SubmittingLearner
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


@dataclasses.dataclass
class InFlight:
    """An update submitted to a learner in a process of its own that has not been collected:
    the weights it trains, its batch and the batch's summed staleness at submission."""

    owner: str
    pending: PendingUpdate
    batch: list[Sample]
    staleness: float


# one finished update: its learner figures, its batch and the batch's summed staleness
_Done = tuple[dict[str, float], list[Sample], float]


def update_from_buffers(
    buffers: SampleBuffers,
    groups: Sequence[tuple[LearnerLike, list[int], str]],
    samples: Sequence[Sample],
    placement: Placement,
    names: Sequence[str],
    metrics: dict[str, Any],
    *,
    in_flight: list[InFlight] | None = None,
    drain: bool = True,
) -> tuple[float, float]:
    """Queue a step's samples in their weights' buffers, then update each set of weights
    (`groups`: learner, the agents it trains, the owner's name) once per full batch it holds
    and sync its agents' engines after its last update; return (learn, sync) seconds (learn:
    the seconds this process waited for learners).

    `in_flight` (learners in processes of their own, `train.overlap`): the updates are
    submitted, not waited for, and stay in the list; the next call first collects them and
    syncs their engines, so the rollout between the two calls runs while the learners train,
    with the weights before these updates. `drain` collects this call's updates too (before a
    checkpoint or an evaluation). The versions count submitted updates, so which samples are
    stale is decided exactly as when updates run in turn. Figures in `metrics`: `_write_figures`."""
    members_of = {owner: members for _, members, owner in groups}
    done: dict[str, list[_Done]] = {owner: [] for owner in members_of}
    learn_s = sync_s = 0.0
    if in_flight:  # the previous step's updates, trained while this step rolled out
        learn_s, sync_s = _collect(in_flight, done, members_of, placement)
    started_updates = dict.fromkeys(members_of, 0)
    dropped_before = dict(buffers.dropped)
    for learner, members, owner in groups:
        buffers.add(owner, [s for s in samples if s.agent_id in members])
        started = time.perf_counter()
        while (batch := buffers.take(owner)) is not None:
            staleness = buffers.staleness(owner, batch) * len(batch)
            if in_flight is not None:
                assert isinstance(learner, SubmittingLearner), "overlap needs learner.submit"
                in_flight.append(InFlight(owner, learner.submit(batch), batch, staleness))
            else:
                if not any(started_updates.values()):  # the engines' caches: memory to update
                    placement.free_rollout_memory()
                done[owner].append((learner.update(batch), batch, staleness))
            buffers.versions[owner] += 1
            started_updates[owner] += 1
        learn_s += time.perf_counter() - started
        if in_flight is None and started_updates[owner]:
            sync_s += _sync(members, placement)
    if in_flight and drain:
        waited, synced = _collect(in_flight, done, members_of, placement)
        learn_s, sync_s = learn_s + waited, sync_s + synced
    for owner, members in members_of.items():
        figures = {
            "updates": float(started_updates[owner]),
            "buffer": float(len(buffers.waiting[owner])),
            "stale_dropped": float(buffers.dropped[owner] - dropped_before[owner]),
            "version": float(buffers.versions[owner]),
        }
        if in_flight is not None:
            figures["in_flight"] = float(sum(u.owner == owner for u in in_flight))
        _write_figures(figures, done[owner], members, names, metrics)
    return learn_s, sync_s


def _write_figures(
    figures: dict[str, float],
    finished: Sequence[_Done],
    members: Sequence[int],
    names: Sequence[str],
    metrics: dict[str, Any],
) -> None:
    """One set of weights' figures of a step under the name of every agent that trains those
    weights: `updates/NAME` (started this step), `buffer/NAME` (samples left waiting),
    `stale_dropped/NAME` (dropped this step), `version/NAME` (updates taken so far),
    `in_flight/NAME` (overlapped: updates still running after the step), `staleness/NAME` (mean
    staleness of the samples of the updates finished this step) and the learner's figures of
    those updates, averaged (`samples` and `tokens` summed)."""
    trained = [s for _, batch, _ in finished for s in batch]
    if finished:
        figures["staleness"] = sum(st for _, _, st in finished) / len(trained)
        figures.update(_combined([stats for stats, _, _ in finished]))
    for agent_id in members:
        name = names[agent_id]
        metrics.update({f"{key}/{name}": value for key, value in figures.items()})
        if len(members) > 1 and finished:
            own = [s for s in trained if s.agent_id == agent_id]
            metrics[f"samples/{name}"] = float(len(own))
            metrics[f"tokens/{name}"] = float(sum(len(s.response_ids) for s in own))


def _collect(
    in_flight: list[InFlight],
    done: dict[str, list[_Done]],
    members_of: Mapping[str, list[int]],
    placement: Placement,
) -> tuple[float, float]:
    """Wait for every update in flight (in submission order), move them to `done`, then sync
    the engines of each set of weights that changed; (waited, sync) seconds."""
    started = time.perf_counter()
    for update in in_flight:
        done[update.owner].append((update.pending.result(), update.batch, update.staleness))
    waited = time.perf_counter() - started
    owners = list(dict.fromkeys(update.owner for update in in_flight))
    in_flight.clear()
    return waited, sum(_sync(members_of[owner], placement) for owner in owners)


def _sync(members: Sequence[int], placement: Placement) -> float:
    """Push a set of weights to the engines of the agents that use it; seconds."""
    started = time.perf_counter()
    for agent_id in members:
        placement.sync(agent_id)
    return time.perf_counter() - started


def _combined(runs: Sequence[Mapping[str, float]]) -> dict[str, float]:
    """One step's figures from several updates' figures: sums for `_SUMMED`, else means."""
    keys = dict.fromkeys(key for run in runs for key in run)
    out = {}
    for key in keys:
        values = [run[key] for run in runs if key in run]
        out[key] = sum(values) if key in _SUMMED else sum(values) / len(values)
    return out
