"""Per-node scalar terms of credit assignment: the raw reward and the DAPO soft overlong penalty."""

from __future__ import annotations

from mars2.types import NodeRecord, RewardKind


def raw_reward(record: NodeRecord, kind: RewardKind) -> float:
    """r_i of a recorded node: the reward function `kind` (`binary`, `fraction`: over all tests,
    public and hidden; or a registered one) applied to the record."""
    return record.with_reward(kind).reward


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
