"""Per-node scalar terms of credit assignment: the raw reward and the DAPO soft overlong penalty."""

from __future__ import annotations

from mars2.errors import UserError
from mars2.types import NodeRecord, RewardKind, training_reward


def raw_reward(record: NodeRecord, kind: RewardKind) -> float:
    """r_i of a recorded node (`mars2.types.training_reward`: over all tests, public and hidden).
    `fraction` needs the record's `pass_fraction`, which records written before it existed lack."""
    if kind == "fraction" and record.pass_fraction is None:
        raise UserError(
            f"tree {record.tree_id!r} node {record.node_id}: no 'pass_fraction' (a record from "
            "an older mars2, whose score counted public tests only); use --reward binary"
        )
    return training_reward(kind, record.passed, record.pass_fraction or 0.0)


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
