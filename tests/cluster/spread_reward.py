"""A test reward with a spread (`credit.reward=spread_reward:by_code`, with tests/cluster on the
Python path): tiny-random never passes a test and always writes `max_new_tokens` tokens, so
under the real rewards every advantage is 0 and the weights never change; this reward is a
fixed function of each node's code, so the updates are real and two runs that sample the
same tokens get the same rewards (the weight syncs between them are then really checked)."""

from __future__ import annotations

import zlib

from mars2.types import NodeRecord


def by_code(record: NodeRecord) -> float:
    """One of 0, 1/3, 2/3, 1, fixed by the node's code."""
    return (zlib.crc32(record.code.encode()) % 4) / 3
