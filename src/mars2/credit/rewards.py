"""Per-node scalar terms of credit assignment: the raw reward (the one reward rule) and the DAPO soft
overlong penalty."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from mars2.errors import UserError
from mars2.registry import REWARDS
from mars2.types import NodeRecord, RewardKind


def binary_reward(record: NodeRecord) -> float:
    """`binary`: 1.0 when the candidate passes every test, public and hidden (the paper's reward)."""
    return float(record.passed)


def fraction_reward(record: NodeRecord) -> float:
    """`fraction`: the share of all tests, public and hidden, that the candidate passes. Never the
    public score alone: a refinement that hard-codes the outputs its feedback showed passes the
    public tests and must earn nothing for it. A skipped copy of a failing parent (`copy_of`)
    earns 0: returning the parent unchanged must not pay more than a failed attempt to fix it."""
    if record.copy_of is not None and not record.passed:
        return 0.0
    if record.pass_fraction is None:
        raise UserError(
            f"tree {record.tree_id!r} node {record.node_id}: no 'pass_fraction' (a record from "
            "an older mars2, whose score counted public tests only); use the binary reward"
        )
    return float(record.pass_fraction)


def raw_reward(record: NodeRecord, kind: RewardKind) -> float:
    """r_i of a recorded node: the reward function `kind` (`binary`, `fraction`: over all tests,
    public and hidden; or a registered one, mars2.registry.REWARDS) applied to the record."""
    return float(REWARDS.get(kind)(record))


def rewarded(records: Iterable[NodeRecord], kind: RewardKind) -> list[NodeRecord]:
    """The records with their `reward` field set to `raw_reward(record, kind)`: what a finished
    tree's records carry into `trees/*.jsonl`."""
    return [replace(record, reward=raw_reward(record, kind)) for record in records]


def overlong_penalty(length: int, max_len: int, buffer: int, factor: float) -> float:
    """DAPO soft overlong penalty f·min(L - (L_max - B), B)/B for a response of L tokens, 0 when
    L <= L_max - B or when the buffer B is 0. The result is >= 0 and is subtracted from the value."""
    if buffer <= 0:
        return 0.0
    if buffer > max_len:
        raise ValueError(f"overlong buffer {buffer} exceeds the maximum length {max_len}")
    excess = length - (max_len - buffer)
    if excess <= 0:
        return 0.0
    return factor * min(excess, buffer) / buffer
