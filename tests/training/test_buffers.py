"""Per-agent buffers (`train.update: per_agent`) without a model: a recording learner and a
placement that counts syncs stand in for the real ones, samples are made by hand, so every
batch, version and drop is known exactly."""

from __future__ import annotations

import contextlib
from typing import Any

from mars2.training.buffers import SampleBuffers, update_from_buffers
from mars2.types import Sample

NAMES = ["fast", "slow"]


def sample(agent_id: int, tag: int, version: int = 0) -> Sample:
    """A sample whose `tag` (its one response token) identifies it."""
    return Sample(agent_id, [1, 2], [tag], [-1.0], advantage=float(tag), version=version)


class RecordingLearner:
    def __init__(self) -> None:
        self.batches: list[list[Sample]] = []

    def update(self, samples: list[Sample]) -> dict[str, float]:
        self.batches.append(list(samples))
        return {"loss": float(len(self.batches)), "samples": float(len(samples))}

    def state_dict(self) -> dict[str, Any]:
        return {}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        """Nothing to restore."""


class CountingPlacement:
    def __init__(self) -> None:
        self.synced: list[int] = []
        self.freed = 0
        self.learners: list[Any] = []
        self.policies: list[Any] = []

    def sync(self, agent_id: int) -> None:
        self.synced.append(agent_id)

    def free_rollout_memory(self) -> None:
        self.freed += 1

    def sandbox(self) -> Any:
        return contextlib.nullcontext()

    def close(self) -> None:
        """Nothing to release."""


def step(
    buffers: SampleBuffers,
    learners: list[RecordingLearner],
    samples: list[Sample],
    placement: CountingPlacement | None = None,
) -> dict[str, Any]:
    metrics: dict[str, Any] = {}
    groups = [(learners[i], [i], NAMES[i]) for i in range(len(learners))]
    update_from_buffers(buffers, groups, samples, placement or CountingPlacement(), NAMES, metrics)
    return metrics


def test_uneven_rates_give_each_agent_full_batches_only() -> None:
    # per round the fast agent writes 3 nodes, the slow one 1; a full batch is 4 samples
    buffers = SampleBuffers({"fast": 4, "slow": 4}, max_staleness=10)
    learners = [RecordingLearner(), RecordingLearner()]
    tag = 0
    rows = []
    for _ in range(8):
        written = []
        for agent_id, count in ((0, 3), (1, 1)):
            for _ in range(count):
                written.append(sample(agent_id, tag, buffers.versions[NAMES[agent_id]]))
                tag += 1
        rows.append(step(buffers, learners, written))
    fast, slow = learners
    # 24 fast samples -> 6 batches of 4; 8 slow samples -> 2 batches of 4 (rounds 4 and 8)
    assert [len(b) for b in fast.batches] == [4] * 6
    assert [len(b) for b in slow.batches] == [4] * 2
    assert all(s.agent_id == 0 for b in fast.batches for s in b)
    assert all(s.agent_id == 1 for b in slow.batches for s in b)
    # oldest first: the slow agent's batches are its samples in writing order
    slow_tags = [[s.response_ids[0] for s in b] for b in slow.batches]
    assert slow_tags == [[3, 7, 11, 15], [19, 23, 27, 31]]
    assert [row["updates/slow"] for row in rows] == [0, 0, 0, 1, 0, 0, 0, 1]
    # fast: 3, 6 (1 update, 2 left), 5 (1, 1 left), 4 (1, 0 left), ...
    assert [row["updates/fast"] for row in rows] == [0, 1, 1, 1, 0, 1, 1, 1]
    assert [row["buffer/fast"] for row in rows] == [3, 2, 1, 0, 3, 2, 1, 0]
    assert buffers.versions == {"fast": 6, "slow": 2}
    assert rows[-1]["version/fast"] == 6 and rows[-1]["version/slow"] == 2
    # the learner's figures: `samples` summed over the step's updates, others averaged
    assert rows[1]["samples/fast"] == 4 and rows[1]["loss/fast"] == 1.0
    assert "loss/slow" not in rows[0] and "staleness/slow" not in rows[0]


def test_several_batches_in_one_step_are_each_an_update() -> None:
    buffers = SampleBuffers({"fast": 2, "slow": 2}, max_staleness=5)
    learners = [RecordingLearner(), RecordingLearner()]
    placement = CountingPlacement()
    row = step(buffers, learners, [sample(0, t) for t in range(5)], placement)
    assert [[s.response_ids[0] for s in b] for b in learners[0].batches] == [[0, 1], [2, 3]]
    assert row["updates/fast"] == 2 and row["buffer/fast"] == 1
    assert row["samples/fast"] == 4 and row["loss/fast"] == 1.5  # (1 + 2) / 2
    # the second batch was written by version 0 and trained at version 1: staleness (0+1)/2
    assert row["staleness/fast"] == 0.5
    assert placement.synced == [0]  # once, after the last update; the slow agent never
    assert placement.freed == 1


def test_a_stale_sample_is_never_trained_on() -> None:
    buffers = SampleBuffers({"fast": 2, "slow": 1}, max_staleness=1)
    learners = [RecordingLearner(), RecordingLearner()]
    buffers.versions["fast"] = 3
    # versions 1 (staleness 2: beyond the bound), 2 (staleness 1: kept), 3 (current)
    written = [sample(0, 10, 1), sample(0, 11, 2), sample(0, 12, 3), sample(0, 13, 1)]
    row = step(buffers, learners, written)
    (batch,) = learners[0].batches
    assert [s.response_ids[0] for s in batch] == [11, 12]
    assert row["stale_dropped/fast"] == 2 and buffers.dropped["fast"] == 2
    assert row["staleness/fast"] == 0.5  # (3-2 + 3-3) / 2
    assert row["stale_dropped/slow"] == 0


def test_leftovers_age_out_with_the_bound_at_zero() -> None:
    # max_staleness 0: what is left after an update was written by older weights -> dropped
    buffers = SampleBuffers({"fast": 2, "slow": 1}, max_staleness=0)
    learners = [RecordingLearner(), RecordingLearner()]
    row = step(buffers, learners, [sample(0, t) for t in range(3)])
    assert [[s.response_ids[0] for s in b] for b in learners[0].batches] == [[0, 1]]
    assert row["stale_dropped/fast"] == 1 and row["buffer/fast"] == 0
    learners[0].batches.clear()
    row = step(buffers, learners, [sample(0, 7, 1)])  # one sample of version 1: waits
    assert learners[0].batches == [] and row["buffer/fast"] == 1


def test_state_dict_round_trip_restores_buffers_exactly() -> None:
    buffers = SampleBuffers({"fast": 4, "slow": 4}, max_staleness=2)
    learners = [RecordingLearner(), RecordingLearner()]
    step(buffers, learners, [sample(0, t, 0) for t in range(6)] + [sample(1, 9, 0)])
    state = buffers.state_dict()
    restored = SampleBuffers({"fast": 4, "slow": 4}, max_staleness=2)
    restored.load_state_dict(state)
    assert restored.waiting == buffers.waiting and restored.waiting["fast"]
    assert restored.versions == buffers.versions == {"fast": 1, "slow": 0}
    assert restored.dropped == buffers.dropped
    # the next update takes the same batch from both
    again = [RecordingLearner(), RecordingLearner()]
    more = [sample(0, 20, 1), sample(0, 21, 1)]
    step(buffers, learners, more)
    step(restored, again, more)
    assert learners[0].batches[-1] == again[0].batches[-1]
    # the state is plain data: lists and numbers, no Sample objects
    assert isinstance(state["waiting"]["fast"][0], dict)
