"""mars2.heap (glibc only): release gives freed heap blocks back, and with large_blocks_to_os a
large block is unmapped as soon as it is freed."""

from __future__ import annotations

import platform
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from mars2 import heap

GLIBC = pytest.mark.skipif(
    platform.system() != "Linux" or platform.libc_ver()[0] != "glibc", reason="glibc only"
)


def resident_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS in /proc/self/status")


@GLIBC
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


# In a fresh interpreter: a heap that already holds free blocks serves requests from them, mapped
# or not, so the threshold shows on a heap without any (as after a process starts). glibc's
# mallinfo2 counts the blocks mapped on their own (`hblks`).
LARGE_BLOCKS = """
import ctypes, ctypes.util
import torch
from mars2 import heap
from tests.test_heap import resident_mb

class Info(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost".split())]

libc = ctypes.CDLL(ctypes.util.find_library("c"))
libc.mallinfo2.restype = Info
mapped = lambda: libc.mallinfo2().hblks
with heap.large_blocks_to_os() as done:
    assert done
    before, blocks = resident_mb(), mapped()
    big = [torch.ones(2**20) for _ in range(100)]  # 4 MiB each: mapped on their own
    during, inside = resident_mb(), mapped() - blocks
    del big
    left = resident_mb() - before
blocks = mapped()
small = [torch.ones(2**20) for _ in range(20)]  # after it: from the heap
outside = mapped() - blocks
big = [torch.ones(2**24) for _ in range(2)]  # 64 MiB each: still mapped
print(during - before, left, inside, outside, mapped() - blocks)
"""


@GLIBC
def test_large_blocks_go_back_to_the_os_when_freed_during_an_update_only() -> None:
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run(
        [sys.executable, "-c", LARGE_BLOCKS], capture_output=True, text=True, cwd=root, check=True
    )
    grown, left, inside, outside, huge = map(float, out.stdout.split())
    assert grown > 300  # 400 MiB were resident
    assert left < 50  # and unmapped when freed, without a trim
    assert inside >= 100 and outside == 0 and huge == 2
