"""A training reward with a spread for runs of `mars2` in a subprocess
(`credit.reward=code_reward:by_code`, with tests/training on PYTHONPATH; `ENV` gives both).

tiny-random passes no test, so under the rewards over tests every advantage is 0 unless a
response happens to stop before `max_new_tokens` (the overlong penalty's spread; ~1 response in
70, so whether a short run ever moves its weights would depend on what the seeds sample). This
reward is a fixed function of each node's program text: every step really updates."""

from __future__ import annotations

import os
import zlib
from pathlib import Path

from mars2.types import NodeRecord

REWARD = "credit.reward=code_reward:by_code"
ENV = {
    **os.environ,
    "PYTHONPATH": os.pathsep.join(
        p for p in (str(Path(__file__).parent), os.environ.get("PYTHONPATH", "")) if p
    ),
}


def by_code(record: NodeRecord) -> float:
    """One of 0, 1/3, 2/3, 1, fixed by the node's code."""
    return (zlib.crc32(record.code.encode()) % 4) / 3
