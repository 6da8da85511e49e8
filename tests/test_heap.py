"""heap.release gives freed heap memory back: resident memory drops after it (glibc only)."""

from __future__ import annotations

import platform
from pathlib import Path

import pytest
import torch

from mars2 import heap


def resident_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS in /proc/self/status")


@pytest.mark.skipif(
    platform.system() != "Linux" or platform.libc_ver()[0] != "glibc", reason="glibc only"
)
def test_release_returns_freed_heap_blocks() -> None:
    # 64 KiB tensors stay below glibc's mmap threshold: they live in the heap, and freeing
    # them leaves the process's resident memory where it was
    blocks = [torch.ones(16_384) for _ in range(6_000)]  # ~384 MiB
    kept = blocks[::100]  # a few survivors, so no heap can simply shrink from its top
    del blocks
    before = resident_mb()
    assert heap.release()
    after = resident_mb()
    assert before - after > 200, (before, after)
    assert all(float(x.sum()) == 16_384 for x in kept)  # live blocks untouched
