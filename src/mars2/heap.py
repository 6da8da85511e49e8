"""Give the heap's free memory back to the operating system.

glibc keeps freed blocks below its mmap threshold (most of a forward pass's activations, a
prompt cache's entries) in the heap of the thread that freed them, for that heap's next
allocations: the process's resident memory does not shrink, and memory the engine thread freed is
not reused by the learner's thread. A training step alternates the two, so without a trim its peak
is the engine's high-water mark plus the learner's (measured: docs/performance.md).
`release()` calls `malloc_trim(0)`, which returns the free pages of every heap, and within
`large_blocks_to_os()` (a learner update) glibc's mmap threshold is 1 MiB, so the blocks a
learner's forward pass allocates (activations of MiBs each) are mapped on their own and unmapped
when freed instead of fragmenting the heap during an update (measured: a learner update of
1,024-token micro-batches peaked at ~3.2 GB resident with glibc's adaptive threshold, ~2.2 GB
with 1 MiB, at the same CPU time within noise). Outside it the threshold is 32 MiB, the ceiling
of glibc's adaptive one: a rollout allocates and frees a few MiB-sized tensors every decode step
(a batch's logits and their softmax), and mapping each of them afresh faults in every page
again (measured: the main job's evaluation took 276 s with 17.3 million page faults under a
1 MiB threshold, 189 s with 1.8 million without; docs/performance.md). Elsewhere (musl, macOS)
both do nothing.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import functools
from collections.abc import Callable, Iterator

M_MMAP_THRESHOLD = -3  # mallopt's parameter number (malloc.h)
LARGE_BLOCK = 1 << 20  # bytes: in a learner update, blocks at least this large are mapped apart
HEAP_BLOCK = 32 << 20  # bytes: elsewhere, the ceiling of glibc's adaptive threshold (64-bit)


@functools.cache
def _libc_function(name: str) -> Callable[..., int] | None:
    try:
        function: Callable[..., int] = getattr(ctypes.CDLL(ctypes.util.find_library("c")), name)
    except (OSError, AttributeError, TypeError):
        return None
    return function


def release() -> bool:
    """Return free heap memory to the operating system; False where the C library cannot."""
    trim = _libc_function("malloc_trim")
    if trim is None:
        return False
    trim(0)
    return True


@contextlib.contextmanager
def large_blocks_to_os() -> Iterator[bool]:
    """Within the block, map blocks of LARGE_BLOCK bytes or more on their own (unmapped when
    freed); after it, only blocks over HEAP_BLOCK. Yields False where the C library cannot. It
    also ends glibc's adaptive threshold for the process, which would otherwise rise to the size
    of the largest block freed and keep the update's blocks in the heap."""
    done = _mmap_threshold(LARGE_BLOCK)
    try:
        yield done
    finally:
        if done:
            _mmap_threshold(HEAP_BLOCK)


def _mmap_threshold(size: int) -> bool:
    mallopt = _libc_function("mallopt")
    return mallopt is not None and bool(mallopt(M_MMAP_THRESHOLD, size))
